import { join, resolve } from 'node:path';
import { countBatchModes } from '../../core/learn/batchMode';
import { CallCache } from '../../core/llm/cache';
import { ASSET_TARGETS, type AssetTarget } from '../../core/assets/targets';
import { ProposalStore } from '../../core/store/proposals';
import {
  DEFAULT_OPENAI_BASE_URL,
  DEFAULT_OPENAI_MODEL,
  offlineRoles,
  openAiRoles,
  PROVIDER_CHOICES,
  type ProviderSetting,
  type Roles,
} from '../../core/llm/providers';
import { DEFAULT_WINDOW_DAYS, learnWorkspace } from '../../core/service/learnWorkspace';
import { EndpointRefusedError, isLoopbackUrl } from '../../core/llm/endpoint';
import { TraceStore, defaultStoreDir } from '../../core/store/traceStore';
import { decimal, integer, oneOf, parse, UsageError, workspacePathFlag } from '../args';
import { progressOf, shellQuote, type Output } from '../output';
import { WorkspaceState } from '../../core/store/workspaceState';
import { MIN_AGGREGATION_CAPACITY_TOKENS } from '../../core/learn/capacity';

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
    targets: { type: 'string' },
    playbook: { type: 'string' },
    'allow-insecure-http': { type: 'boolean' },
    timeout: { type: 'string' },
    'max-tokens': { type: 'string' },
    'max-cost': { type: 'string' },
    'price-in': { type: 'string' },
    'price-out': { type: 'string' },
    'aggregation-tokens': { type: 'string' },
  });
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
  const batchSize = values.batch === undefined || values.batch === 'auto' ? 'auto' : integer('batch', values.batch);
  if (batchSize === 0) throw new UsageError('--batch must be at least 1');
  const seed = integer('seed', values.seed);
  const windowDays = integer('window-days', values['window-days']) ?? DEFAULT_WINDOW_DAYS;
  const workspace = resolve(typeof values.workspace === 'string' ? values.workspace : process.cwd());
  const playbookPath = workspacePathFlag('playbook', workspace, values.playbook);
  const store = new TraceStore(typeof values.store === 'string' ? resolve(values.store) : defaultStoreDir());
  const baseUrl =
    typeof values['base-url'] === 'string'
      ? values['base-url']
      : (process.env.OPENAI_BASE_URL ?? DEFAULT_OPENAI_BASE_URL);
  const model = typeof values.model === 'string' ? values.model : DEFAULT_OPENAI_MODEL;
  const cache = values['no-cache'] ? undefined : new CallCache(join(store.dir, 'cache'));
  const prices =
    priceIn !== undefined || priceOut !== undefined ? { input: priceIn ?? 0, output: priceOut ?? 0 } : undefined;
  const roles = resolveRoles(
    provider,
    {
      baseUrl,
      model,
      apiKey: process.env.OPENAI_API_KEY,
      cache,
      prices,
      allowInsecureHttp: values['allow-insecure-http'] === true,
      timeoutMs: timeoutSeconds ? timeoutSeconds * 1000 : undefined,
      aggregationCapacityTokens,
    },
    out,
  );
  if (!roles) return 1;

  const progress = values.json ? undefined : progressOf(out, 'learning');
  let result: Awaited<ReturnType<typeof learnWorkspace>>;
  try {
    result = await learnWorkspace({
      store,
      proposals: new ProposalStore(new WorkspaceState(store.dir)),
      workspace,
      ...roles,
      provider: roles.info,
      playbookPath,
      strategy,
      batchSize,
      seed,
      windowDays,
      allWorkspaces: values['all-workspaces'] === true,
      assets: targets ? { targets: targets as AssetTarget[] } : undefined,
      limits: maxTokens || maxCostUsd ? { maxTokens, maxCostUsd } : undefined,
      dryRun: values['dry-run'] === true,
      signal,
      onProgress: progress
        ? (message, fraction) => progress.update(Math.round(fraction * 100), 100, message)
        : undefined,
    });
  } finally {
    progress?.stop();
  }
  const record = result.record;
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
        },
        null,
        2,
      ),
    );
    return record?.status === 'failed' ? 1 : 0;
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
      ...(result.failedTraces?.length
        ? [
            `  ${result.failedTraces.length} session(s) could not be learned this time (see the warnings); the next run tries them again.`,
          ]
        : []),
      values['dry-run']
        ? '  Dry run: nothing was written.'
        : `  Proposal ${result.proposal.id} saved. Review it in VS Code, or apply it with: ${followUp('accept', result.proposal.id, workspace, values)}`,
      ...flaggedSummary(result.proposal),
    ].join('\n'),
  );
  return 0;
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

/** One line on the flagged rules, when there are any (the warnings above give each one's reasons). */
function flaggedSummary(proposal: NonNullable<Awaited<ReturnType<typeof learnWorkspace>>['proposal']>): string[] {
  const flagged = proposal.rules.filter((r) => r.flags.length > 0).map((r) => r.id);
  const held = proposal.heldRules.map((h) => h.id);
  if (flagged.length + held.length === 0) return [];
  return [
    `  Flagged, kept out of AGENTS.md and the other files until accepted by name (--rule <id>): ${[...flagged, ...held.map((id) => `${id} (already in the playbook)`)].join(', ')}.`,
  ];
}

/** auto: an endpoint when a key (or a local endpoint) is given, else the offline learner. VS Code models exist only in VS Code. */
function resolveRoles(
  provider: ProviderSetting,
  endpoint: {
    baseUrl: string;
    model: string;
    apiKey?: string;
    cache?: CallCache;
    prices?: { input: number; output: number };
    allowInsecureHttp: boolean;
    timeoutMs?: number;
    aggregationCapacityTokens?: number;
  },
  out: Output,
): Roles | undefined {
  const keyless = isLoopbackUrl(endpoint.baseUrl);
  const openai = () => {
    try {
      return openAiRoles({
        baseUrl: endpoint.baseUrl,
        model: endpoint.model,
        apiKey: endpoint.apiKey || 'not-needed-for-local-endpoints',
        cache: endpoint.cache,
        prices: endpoint.prices,
        allowInsecureHttp: endpoint.allowInsecureHttp,
        timeoutMs: endpoint.timeoutMs,
        aggregationCapacityTokens: endpoint.aggregationCapacityTokens,
      });
    } catch (error) {
      if (error instanceof EndpointRefusedError) throw new UsageError(error.message);
      throw error;
    }
  };
  switch (provider) {
    case 'auto':
      return endpoint.apiKey || (keyless && endpoint.baseUrl !== DEFAULT_OPENAI_BASE_URL) ? openai() : offlineRoles();
    case 'offline':
      return offlineRoles();
    case 'vscode':
      out.warn(
        'the vscode provider exists only inside VS Code; use --provider offline or openai from the command line',
      );
      return undefined;
    case 'openai':
      if (!endpoint.apiKey && !keyless) {
        out.warn(
          `OPENAI_API_KEY is not set (needed for ${endpoint.baseUrl}); set it, or pass --base-url of a local endpoint, or use --provider offline`,
        );
        return undefined;
      }
      return openai();
  }
}
