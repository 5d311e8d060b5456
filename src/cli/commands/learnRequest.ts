import { memoriesOfThisUser } from '../../core/service/agentMemories';
import type { LearnRequest } from '../../core/service/learnRun/options';
import { resolve } from 'node:path';
import { ASSET_TARGETS, type AssetTarget } from '../../core/assets/targets';
import { MIN_AGGREGATION_CAPACITY_TOKENS } from '../../core/learn/capacity/capacity';
import { DEFAULT_WINDOW_DAYS } from '../../core/learn/window';
import { PROVIDER_CHOICES, type ProviderSetting } from '../../core/llm/providers';
import type { Strategy } from '../../core/learn/types';
import { AGENTS, type AgentId } from '../../core/trace/model';
import { decimal, integer, oneOf, parse, UsageError, workspacePathFlag } from '../args';
import { parseShard } from './shards';

export const LEARN_FLAGS = {
  store: { type: 'string' },
  workspace: { type: 'string' },
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  strategy: { type: 'string' },
  batch: { type: 'string' },
  seed: { type: 'string' },
  'all-workspaces': { type: 'boolean' },
  'window-days': { type: 'string' },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
  'no-cache': { type: 'boolean' },
  'no-memories': { type: 'boolean' },
  'redact-pattern': { type: 'string', multiple: true },
  targets: { type: 'string' },
  playbook: { type: 'string' },
  'allow-insecure-http': { type: 'boolean' },
  timeout: { type: 'string' },
  'max-tokens': { type: 'string' },
  'max-cost': { type: 'string' },
  'price-in': { type: 'string' },
  'price-out': { type: 'string' },
  'aggregation-tokens': { type: 'string' },
  since: { type: 'string' },
  agent: { type: 'string', multiple: true },
  budget: { type: 'string' },
  shard: { type: 'string' },
  out: { type: 'string' },
  reduce: { type: 'string', multiple: true },
  apply: { type: 'boolean' },
  'pr-body': { type: 'string' },
  'batch-api': { type: 'boolean' },
  resume: { type: 'string' },
  'no-wait': { type: 'boolean' },
  'poll-seconds': { type: 'string' },
} as const;

/** Where the run reads and saves: the flags as given (resolved against the working folder). */
export interface LearnPlace {
  workspace: string;
  /** `--store`, resolved; undefined means the default store. */
  storeDir?: string;
  /** `--playbook` as typed, for the follow-up commands this run prints. */
  playbookFlag?: string;
}

/** `--resume <batch>` without `--batch-api`: the saved run's flags are replayed before anything else is read. */
export interface ResumeLearnCommandLine extends LearnPlace {
  kind: 'resume';
  batchId: string;
}

/** local: learn here; map: reflect a shard into files; reduce: learn from those files; batch-api: reflect through the Batch API. */
export type LearnMode =
  | { kind: 'local' }
  | { kind: 'map'; out: string; shard?: { index: number; count: number } }
  | { kind: 'reduce'; folders: string[] }
  | { kind: 'batch-api'; resume?: string; noWait: boolean; pollSeconds: number };

export interface RunLearnCommandLine extends LearnPlace {
  kind: 'run';
  mode: LearnMode;
  provider: ProviderSetting;
  /** The endpoint flags as given (the environment fills the rest). */
  endpointFlags: { 'base-url'?: string; model?: string; 'allow-insecure-http': boolean };
  strategy: Strategy;
  batchSize: number | 'auto' | 'all';
  seed?: number;
  windowDays: number;
  since?: string;
  agents?: AgentId[];
  allWorkspaces: boolean;
  playbookPath?: string;
  targets?: AssetTarget[];
  budgetTokens?: number;
  maxTokens?: number;
  maxCostUsd?: number;
  priceIn?: number;
  priceOut?: number;
  timeoutSeconds?: number;
  aggregationCapacityTokens?: number;
  noCache: boolean;
  /** `--no-memories`: the agents' own memories are not read. */
  noMemories: boolean;
  /** `--redact-pattern`: removed from the memories read too, with the patterns recorded in the store. */
  redactPatterns: string[];
  dryRun: boolean;
  json: boolean;
  apply: boolean;
  prBody?: string;
}

export type LearnCommandLine = ResumeLearnCommandLine | RunLearnCommandLine;

/** The learn command line as one request, or the usage error it holds (checked in the order the flags are read). */
export function parseLearnCommandLine(argv: string[], cwd = process.cwd()): LearnCommandLine | UsageError {
  try {
    return readLearnCommandLine(argv, cwd);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
}

function readLearnCommandLine(argv: string[], cwd: string): LearnCommandLine {
  const { values } = parse(argv, LEARN_FLAGS);
  const place = readPlace(values, cwd);
  if (values.resume !== undefined && !values['batch-api'])
    return { kind: 'resume', batchId: String(values.resume), ...place };
  const batchApi = values['batch-api'] === true || values.resume !== undefined;
  const shard = parseShard(values.shard);
  const reduceFolders = (values.reduce as unknown as string[] | undefined)?.map((f) => resolve(cwd, f));
  const mapOut = typeof values.out === 'string' ? resolve(cwd, values.out) : undefined;
  if (shard && !mapOut) throw new UsageError('--shard needs --out <folder> for its reflections');
  if (mapOut && reduceFolders) throw new UsageError('--out (the map phase) and --reduce are two separate runs');
  if (batchApi && (mapOut || reduceFolders))
    throw new UsageError('--batch-api is its own map phase: it does not go with --shard, --out or --reduce');
  if (mapOut && (values.apply || values['pr-body']))
    throw new UsageError('--apply and --pr-body belong to the run that learns (--reduce), not to the map phase');
  const since = typeof values.since === 'string' ? values.since : undefined;
  if (since !== undefined && !Number.isFinite(Date.parse(since)))
    throw new UsageError('--since must be a date or time (for example 2026-11-01 or 2026-11-01T09:00:00Z)');
  const agents = (values.agent as unknown as string[] | undefined)
    ?.flatMap((a) => a.split(','))
    .map((a) => oneOf('agent', a.trim(), AGENTS, AGENTS[0]));
  const budgetTokens = integer('budget', values.budget);
  const maxTokens = integer('max-tokens', values['max-tokens']);
  const timeoutSeconds = integer('timeout', values.timeout);
  const maxCostUsd = decimal('max-cost', values['max-cost']);
  const priceIn = decimal('price-in', values['price-in']);
  const priceOut = decimal('price-out', values['price-out']);
  const aggregationCapacityTokens = integer('aggregation-tokens', values['aggregation-tokens']);
  if (aggregationCapacityTokens !== undefined && aggregationCapacityTokens < MIN_AGGREGATION_CAPACITY_TOKENS)
    throw new UsageError(`--aggregation-tokens must be at least ${MIN_AGGREGATION_CAPACITY_TOKENS}`);
  const targets = readTargets(values.targets);
  const provider = oneOf('provider', values.provider, PROVIDER_CHOICES, 'auto');
  const strategy = oneOf('strategy', values.strategy, ['combee', 'naive', 'sequential'] as const, 'combee');
  const batchSize = readBatchSize(values.batch, mapOut !== undefined || reduceFolders !== undefined || batchApi);
  const seed = integer('seed', values.seed);
  const windowDays = integer('window-days', values['window-days']) ?? DEFAULT_WINDOW_DAYS;
  const playbookPath = workspacePathFlag('playbook', place.workspace, values.playbook);
  const mode: LearnMode = batchApi
    ? {
        kind: 'batch-api',
        resume: typeof values.resume === 'string' ? values.resume : undefined,
        noWait: values['no-wait'] === true,
        pollSeconds: decimal('poll-seconds', values['poll-seconds']) ?? 30,
      }
    : mapOut
      ? { kind: 'map', out: mapOut, ...(shard ? { shard } : {}) }
      : reduceFolders
        ? { kind: 'reduce', folders: reduceFolders }
        : { kind: 'local' };
  return {
    kind: 'run',
    ...place,
    mode,
    provider,
    endpointFlags: {
      ...(typeof values['base-url'] === 'string' ? { 'base-url': values['base-url'] } : {}),
      ...(typeof values.model === 'string' ? { model: values.model } : {}),
      'allow-insecure-http': values['allow-insecure-http'] === true,
    },
    strategy,
    batchSize,
    seed,
    windowDays,
    since,
    agents,
    allWorkspaces: values['all-workspaces'] === true,
    playbookPath,
    targets,
    budgetTokens,
    maxTokens,
    maxCostUsd,
    priceIn,
    priceOut,
    timeoutSeconds,
    aggregationCapacityTokens,
    noCache: values['no-cache'] === true,
    noMemories: values['no-memories'] === true,
    redactPatterns: (values['redact-pattern'] as unknown as string[] | undefined) ?? [],
    dryRun: values['dry-run'] === true,
    json: values.json === true,
    apply: values.apply === true,
    prBody: typeof values['pr-body'] === 'string' ? values['pr-body'] : undefined,
  };
}

function readPlace(values: Record<string, string | boolean | undefined>, cwd: string): LearnPlace {
  return {
    workspace: resolve(cwd, typeof values.workspace === 'string' ? values.workspace : '.'),
    ...(typeof values.store === 'string' ? { storeDir: resolve(cwd, values.store) } : {}),
    ...(typeof values.playbook === 'string' ? { playbookFlag: values.playbook } : {}),
  };
}

function readTargets(value: string | boolean | undefined): AssetTarget[] | undefined {
  if (typeof value !== 'string') return undefined;
  const targets = value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const unknownTarget = targets.find((t) => !(ASSET_TARGETS as readonly string[]).includes(t));
  if (unknownTarget)
    throw new UsageError(`--targets: unknown target ${unknownTarget} (known: ${ASSET_TARGETS.join(', ')})`);
  return targets as AssetTarget[];
}

/** A map across machines reflects every session against the same playbook: one batch, unless asked otherwise. */
function readBatchSize(value: string | boolean | undefined, mapsAcrossRuns: boolean): number | 'auto' | 'all' {
  const batchSize =
    value === undefined
      ? mapsAcrossRuns
        ? 'all'
        : 'auto'
      : value === 'auto' || value === 'all'
        ? value
        : integer('batch', value)!;
  if (batchSize === 0) throw new UsageError('--batch must be at least 1 (or auto, or all)');
  return batchSize;
}

/**
 * The learn request the flags make: the same request the extension makes from its settings. A choice left to the
 * sessions (targets) stays unset; the agents' memories are read unless `--no-memories`, or a pull request's run,
 * whose runner has no user's home to read.
 */
export function learnRequestFromFlags(request: RunLearnCommandLine, extraRedactionPatterns: string[]): LearnRequest {
  const { targets, budgetTokens, maxTokens, maxCostUsd } = request;
  return {
    since: request.since,
    agents: request.agents,
    playbookPath: request.playbookPath,
    strategy: request.strategy,
    batchSize: request.batchSize,
    seed: request.seed,
    windowDays: request.windowDays,
    allWorkspaces: request.allWorkspaces,
    teamReview: request.prBody !== undefined,
    aggregationCapacityTokens: request.aggregationCapacityTokens,
    agentMemories:
      request.noMemories || request.prBody !== undefined ? undefined : memoriesOfThisUser(extraRedactionPatterns),
    assets:
      targets || budgetTokens !== undefined
        ? {
            ...(targets ? { targets } : {}),
            ...(budgetTokens !== undefined ? { playbookBudgetTokens: budgetTokens } : {}),
          }
        : undefined,
    limits: maxTokens || maxCostUsd ? { maxTokens, maxCostUsd } : undefined,
    dryRun: request.dryRun,
  };
}
