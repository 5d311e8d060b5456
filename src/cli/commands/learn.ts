import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { countBatchModes } from '../../core/learn/batchMode';
import { describeDrops, dropSummary } from '../../core/learn/callItems';
import type { RunRecord } from '../../core/learn/record';
import { CallCache } from '../../core/llm/cache';
import { ASSET_TARGETS, type AssetTarget } from '../../core/assets/targets';
import { ProposalStore } from '../../core/store/proposals';
import { PROVIDER_CHOICES } from '../../core/llm/providers';
import { DEFAULT_WINDOW_DAYS } from '../../core/learn/window';
import { memoryEnv } from '../../core/service/agentMemories';
import { learnWorkspace, type LearnWorkspaceOptions } from '../../core/service/learnWorkspace';
import { TraceStore, defaultStoreDir } from '../../core/store/traceStore';
import { decimal, integer, oneOf, parse, UsageError, workspacePathFlag } from '../args';
import { progressOf, shellQuote, type Output } from '../output';
import { WorkspaceState } from '../../core/store/workspaceState';
import { MIN_AGGREGATION_CAPACITY_TOKENS } from '../../core/learn/capacity';
import { AGENTS } from '../../core/trace/model';
import { renderPrBody } from '../../core/team/prBody';
import { atomicWrite } from '../../core/util/io';
import { acceptCommand } from './accept';
import { parseShard, readReflectionSets, reportMapPhase } from './shards';
import { endpointFromFlags, resolveRoles } from './learnProvider';
import { batchApiPhase, type BatchApiPhase } from './learnBatchApi';
import { replayedFlags } from './resumeFlags';
import { BatchRuns } from '../../core/store/batchRuns';

export async function learnCommand(argv: string[], out: Output, signal?: AbortSignal): Promise<number> {
  const { values } = parse(argv, {
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
  });
  const batchApi = values['batch-api'] === true || values.resume !== undefined;
  if (values.resume !== undefined && !values['batch-api']) return resumeBatchRun(argv, values, out, signal);
  const shard = parseShard(values.shard);
  const reduceFolders = (values.reduce as unknown as string[] | undefined)?.map((f) => resolve(f));
  const mapOut = typeof values.out === 'string' ? resolve(values.out) : undefined;
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
  const targets =
    typeof values.targets === 'string'
      ? values.targets
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
      : undefined;
  const unknownTarget = targets?.find((t) => !(ASSET_TARGETS as readonly string[]).includes(t));
  if (unknownTarget)
    throw new UsageError(`--targets: unknown target ${unknownTarget} (known: ${ASSET_TARGETS.join(', ')})`);
  const provider = oneOf('provider', values.provider, PROVIDER_CHOICES, 'auto');
  const strategy = oneOf('strategy', values.strategy, ['combee', 'naive', 'sequential'] as const, 'combee');
  // a map across machines reflects every session against the same playbook: one batch, unless asked otherwise
  const batchSize =
    values.batch === undefined
      ? mapOut || reduceFolders || batchApi
        ? 'all'
        : 'auto'
      : values.batch === 'auto' || values.batch === 'all'
        ? (values.batch as 'auto' | 'all')
        : integer('batch', values.batch);
  if (batchSize === 0) throw new UsageError('--batch must be at least 1 (or auto, or all)');
  const seed = integer('seed', values.seed);
  const windowDays = integer('window-days', values['window-days']) ?? DEFAULT_WINDOW_DAYS;
  const workspace = resolve(typeof values.workspace === 'string' ? values.workspace : process.cwd());
  const playbookPath = workspacePathFlag('playbook', workspace, values.playbook);
  const store = new TraceStore(typeof values.store === 'string' ? resolve(values.store) : defaultStoreDir());
  const endpoint = endpointFromFlags(values);
  const { baseUrl, model } = endpoint;
  const cache = values['no-cache'] ? undefined : new CallCache(join(store.dir, 'cache'));
  const prices =
    priceIn !== undefined || priceOut !== undefined ? { input: priceIn ?? 0, output: priceOut ?? 0 } : undefined;
  const roles = resolveRoles(
    provider,
    {
      ...endpoint,
      cache,
      prices,
      timeoutMs: timeoutSeconds ? timeoutSeconds * 1000 : undefined,
      aggregationCapacityTokens,
    },
    out,
  );
  if (!roles) return 1;

  const progress = values.json ? undefined : progressOf(out, mapOut ? 'reflecting' : 'learning');
  const common: Omit<LearnWorkspaceOptions, 'mapOnly' | 'precomputed' | 'reflector'> = {
    since,
    agents,
    store,
    proposals: new ProposalStore(new WorkspaceState(store.dir)),
    workspace,
    aggregator: roles.aggregator,
    embed: roles.embed,
    provider: roles.info,
    playbookPath,
    strategy,
    batchSize,
    seed,
    windowDays,
    allWorkspaces: values['all-workspaces'] === true,
    teamReview: typeof values['pr-body'] === 'string',
    // the agents' own memories in this user's home; a pull request's runner has no user's home to read
    agentMemories:
      values['no-memories'] || typeof values['pr-body'] === 'string'
        ? undefined
        : { home: homedir(), env: memoryEnv(process.env) },
    assets:
      targets || budgetTokens !== undefined
        ? {
            ...(targets ? { targets: targets as AssetTarget[] } : {}),
            ...(budgetTokens !== undefined ? { playbookBudgetTokens: budgetTokens } : {}),
          }
        : undefined,
    limits: maxTokens || maxCostUsd ? { maxTokens, maxCostUsd } : undefined,
    dryRun: values['dry-run'] === true,
    signal,
    onProgress: progress
      ? (message: string, fraction: number) => progress.update(Math.round(fraction * 100), 100, message)
      : undefined,
  };
  let precomputed = reduceFolders ? await readReflectionSets(reduceFolders, (m) => out.warn(m)) : undefined;
  let batchRun: BatchApiPhase | undefined;
  if (batchApi) {
    if (roles.info.provider !== 'openai')
      throw new UsageError('--batch-api needs an OpenAI-compatible endpoint (--provider openai, OPENAI_API_KEY)');
    const phase = await batchApiPhase(
      {
        argv: withoutResume(argv),
        resume: typeof values.resume === 'string' ? values.resume : undefined,
        noWait: values['no-wait'] === true,
        pollSeconds: decimal('poll-seconds', values['poll-seconds']) ?? 30,
        json: values.json === true,
        store,
        workspace,
        playbookPath,
        endpoint: {
          baseUrl,
          model,
          apiKey: process.env.OPENAI_API_KEY || 'not-needed-for-local-endpoints',
          allowInsecureHttp: values['allow-insecure-http'] === true,
          prices,
        },
        learn: common,
      },
      out,
      signal,
    ).finally(() => progress?.stop());
    if (typeof phase === 'number') return phase;
    batchRun = phase;
    precomputed = [phase.set];
  }
  let result: Awaited<ReturnType<typeof learnWorkspace>>;
  try {
    result = await learnWorkspace({
      ...common,
      reflector: roles.reflector,
      mapOnly: mapOut ? { shard } : undefined,
      precomputed,
      // the Batch API's answers come from the endpoint itself; a reduce's come from files anyone could have edited
      precomputedFromFiles: reduceFolders !== undefined,
    });
  } finally {
    progress?.stop();
  }
  if (batchRun && !values['dry-run'] && result.record && result.record.status !== 'failed')
    await batchRun.runs.save({ ...batchRun.run, status: 'learned', proposalId: result.proposal?.id });
  if (mapOut) return reportMapPhase(result, mapOut, values.json === true, out);
  const record = result.record;
  const applied =
    values.apply && result.proposal && !values['dry-run'] && record?.status !== 'failed'
      ? await applyProposal(result.proposal.id, workspace, common.proposals, values, out)
      : undefined;
  if (typeof values['pr-body'] === 'string' && result.proposal && record) {
    const people = new Set(result.traces.map((t) => t.contributor ?? '')).size;
    await atomicWrite(
      resolve(values['pr-body']),
      renderPrBody({
        proposal: result.proposal,
        sessions: result.traces.length,
        people,
        strategy: record.strategy,
        seed: record.seed,
        warnings: record.warnings,
        written: applied?.written ?? [],
      }),
    );
  }
  if (values.json) {
    out.result(
      JSON.stringify(
        {
          sessions: result.traces.length,
          provider: roles.info.provider,
          model: roles.info.model,
          dryRun: values['dry-run'] === true,
          proposal: result.proposal
            ? {
                id: result.proposal.id,
                files: result.proposal.files.map((f) => ({ path: f.path, kind: f.kind, diff: f.diff })),
                rules: result.proposal.rules,
                heldRules: result.proposal.heldRules,
                targets: result.proposal.targets,
                targetReasons: result.proposal.targetReasons,
                ...(result.proposal.enforcements ? { enforcements: result.proposal.enforcements } : {}),
              }
            : null,
          run: record
            ? {
                id: record.id,
                status: record.status,
                strategy: record.strategy,
                seed: record.seed,
                batches: record.batches.length,
                batchModes: record.batches.map((b) => b.mode),
                totals: record.totals,
              }
            : null,
          failedSessions: result.failedTraces ?? [],
          givenUpSessions: result.givenUp,
          outsideWindow: result.outsideWindow,
          windowDays,
          warnings: record?.warnings.length ?? 0,
          warningMessages: record?.warnings ?? [],
          applied: applied ? { written: applied.written, exitCode: applied.exitCode } : null,
        },
        null,
        2,
      ),
    );
    return record?.status === 'failed' ? 1 : (applied?.exitCode ?? 0);
  }
  for (const warning of record?.warnings ?? []) out.warn(warning);
  if (record?.status === 'failed') {
    out.warn(
      `learning failed: ${result.failedTraces?.length ?? 0} of ${result.traces.length} session(s) could not be learned (see the warnings above); they are not marked learned, so the next run tries them again${roles.info.provider === 'openai' ? '. Check OPENAI_API_KEY and --base-url' : ''}.`,
    );
    return 1;
  }
  if (result.traces.length === 0) {
    out.result(
      result.outsideWindow > 0
        ? `No new sessions for ${workspace} within ${windowDays} days of its newest one: ${result.outsideWindow} older session(s) are left out. Learn from them with --window-days 0.`
        : `No new sessions for ${workspace}. Import some with \`combee import --from <folder>\`${values['all-workspaces'] ? '' : ', or pass --all-workspaces'}.`,
    );
    return 0;
  }
  if (!result.proposal) {
    out.result(
      `Learned from ${result.traces.length - (result.failedTraces?.length ?? 0)} of ${result.traces.length} session(s): nothing new for the playbook.`,
    );
    return 0;
  }
  for (const file of result.proposal.files) out.result(file.diff);
  const totals = record!.totals;
  out.result(
    [
      `Learned from ${result.traces.length} session(s) with ${roles.info.provider} (${roles.info.model}), strategy ${record!.strategy} (${countBatchModes(record!.batches)}), seed ${record!.seed}:`,
      `  ${totals.reflections} reflections, ${totals.lessons} lessons, ${totals.calls} calls, ${totals.applied} rule change(s) proposed, ${totals.skipped} left out (already known, rejected before, or not yet seen in enough sessions).`,
      ...(result.proposal.targetReasons?.length ? [`  Rendered for ${result.proposal.targetReasons.join('; ')}.`] : []),
      ...(result.proposal.enforcements ?? []).map((e) => `  Enforcement: ${e.explanation}.`),
      ...dropsSummary(record!),
      ...(result.failedTraces?.length
        ? [
            `  ${result.failedTraces.length} session(s) could not be learned this time (see the warnings); the next run tries them again.`,
          ]
        : []),
      values['dry-run']
        ? '  Dry run: nothing was written.'
        : applied
          ? `  Proposal ${result.proposal.id} applied: ${applied.written.length} file(s) written.`
          : `  Proposal ${result.proposal.id} saved. Review it in VS Code, or apply it with: ${followUp('accept', result.proposal.id, workspace, values)}`,
      ...flaggedSummary(result.proposal),
    ].join('\n'),
  );
  return applied?.exitCode ?? 0;
}

/** `--resume <batch>` alone: the flags the run was submitted with, then this command line's own on top. */
async function resumeBatchRun(
  argv: string[],
  values: Record<string, string | boolean | undefined>,
  out: Output,
  signal?: AbortSignal,
): Promise<number> {
  const workspace = resolve(typeof values.workspace === 'string' ? values.workspace : process.cwd());
  const store = new TraceStore(typeof values.store === 'string' ? resolve(values.store) : defaultStoreDir());
  const run = await new BatchRuns(new WorkspaceState(store.dir), workspace).load(String(values.resume));
  if (!run) {
    out.warn(`no Batch API run ${String(values.resume)} for ${workspace} in ${store.dir}`);
    return 1;
  }
  return learnCommand([...replayedFlags(run.argv, argv, run.batchId), ...argv, '--batch-api'], out, signal);
}

/** The command line to save with a submitted run (a later `--resume` adds its own). */
function withoutResume(argv: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--resume' || argv[i] === '--no-wait') {
      if (argv[i] === '--resume') i++;
      continue;
    }
    if (argv[i].startsWith('--resume=')) continue;
    kept.push(argv[i]);
  }
  return kept;
}

/** `--apply`: the accept command itself, so flagged rules stay out and a changed file is re-based or refused alike. */
async function applyProposal(
  id: string,
  workspace: string,
  proposals: ProposalStore,
  values: Record<string, string | boolean | undefined>,
  out: Output,
): Promise<{ written: string[]; exitCode: number }> {
  const args = [id, '--workspace', workspace];
  if (typeof values.store === 'string') args.push('--store', resolve(values.store));
  if (typeof values.playbook === 'string') args.push('--playbook', values.playbook);
  const exitCode = await acceptCommand(args, values.json ? { ...out, result: (t) => out.info(t) } : out);
  const after = await proposals.load(workspace, id);
  const written = (after?.reviewed.files ?? []).filter((f) => f.decision === 'accepted').map((f) => f.path);
  return { written, exitCode };
}

/** A follow-up command that works when pasted: it carries the store and playbook this run was given. */
function followUp(
  command: string,
  id: string,
  workspace: string,
  values: Record<string, string | boolean | undefined>,
): string {
  const args = ['combee', command, id, '--workspace', workspace];
  if (typeof values.store === 'string') args.push('--store', resolve(values.store));
  if (typeof values.playbook === 'string') args.push('--playbook', values.playbook);
  return args.map(shellQuote).join(' ');
}

/** One line on what the aggregation calls dropped, when they did (`combee tree` says which). */
function dropsSummary(record: RunRecord): string[] {
  const drops = describeDrops(dropSummary(record.nodes));
  return drops ? [`  ${drops}; \`combee tree\` shows which.`] : [];
}

/** One line on the flagged rules, when there are any (the warnings above give each one's reasons). */
function flaggedSummary(proposal: NonNullable<Awaited<ReturnType<typeof learnWorkspace>>['proposal']>): string[] {
  const flagged = proposal.rules.filter((r) => r.flags.length > 0).map((r) => r.id);
  const held = proposal.heldRules.map((h) => h.id);
  if (flagged.length + held.length === 0) return [];
  return [
    `  Flagged, kept out of AGENTS.md and the other files until accepted by name (--rule <id>): ${[...flagged, ...held.map((id) => `${id} (already in the playbook)`)].join(', ')}.`,
  ];
}
