import { threadId } from 'node:worker_threads';
import { describeDrops, dropSummary } from '../learn/record/callItems';
import { ProposalStore } from '../store/proposals';
import type { RunEstimate } from '../learn/estimate';
import { CachingLlmClient, CallCache } from '../llm/cache';
import { LlmAggregator, LlmReflector } from '../llm/llmRoles';
import { offlineRoles, openAiRoles, type Roles } from '../llm/providers';
import { PortLlmClient } from '../llm/proxyClient';
import { learnWorkspace } from '../service/learnWorkspace';
import { TraceStore } from '../store/traceStore';
import { PortRpc } from '../util/portRpc';
import type { HostApi, LearnTask, LearnTaskResult, ProviderSpec, WorkerApi } from './learnProtocol';
import { WorkspaceState } from '../store/workspaceState';

/** The roles a worker task learns with (the backtest's too). */
export function rolesFor(
  spec: ProviderSpec,
  host: PortRpc<HostApi, WorkerApi>,
  cacheDir: string | undefined,
  budget: number | undefined,
  aggregationCapacity: number | undefined,
): Roles {
  const cache = cacheDir ? new CallCache(cacheDir) : undefined;
  switch (spec.kind) {
    case 'offline':
      return offlineRoles();
    case 'openai':
      return openAiRoles({
        ...spec,
        cache,
        condenseBudgetTokens: budget,
        aggregationCapacityTokens: aggregationCapacity,
      });
    case 'proxy': {
      const proxy = new PortLlmClient(spec.info, (messages, signal) => host.call('chat', messages, signal));
      const client = cache ? new CachingLlmClient(proxy, cache, `proxy:${spec.info.provider}`) : proxy;
      return {
        reflector: new LlmReflector(client, budget),
        aggregator: new LlmAggregator(client, aggregationCapacity),
        info: spec.info,
      };
    }
  }
}

/**
 * A whole learning run inside a worker thread: reading the store, condensing, mining, aggregating, applying and
 * rendering all happen here, so the extension host's event loop only relays progress. A cancel arrives over the
 * port and stops the run cooperatively, so the batches already finished are saved like in any run.
 */
export async function runLearnTask(task: LearnTask): Promise<LearnTaskResult> {
  const controller = new AbortController();
  const host = new PortRpc<HostApi, WorkerApi>(task.port, { cancel: () => controller.abort() });
  try {
    const store = new TraceStore(task.storeDir);
    const roles = rolesFor(
      task.provider,
      host,
      task.cacheDir,
      task.options.budgetTokens,
      task.options.aggregationCapacityTokens,
    );
    const confirm = task.options.confirm ? (estimate: RunEstimate) => host.call('confirm', estimate) : undefined;
    const result = await learnWorkspace({
      store,
      proposals: new ProposalStore(new WorkspaceState(store.dir)),
      workspace: task.workspace,
      ...roles,
      provider: roles.info,
      ...task.options,
      confirm,
      signal: controller.signal,
      onProgress: (message, fraction) => host.notify('progress', { message, fraction }),
      onSnapshot: (snapshot) => host.notify('snapshot', snapshot),
    });
    const record = result.record;
    return {
      thread: threadId,
      sessions: result.traces.length,
      declined: result.declined,
      proposal: result.proposal
        ? { id: result.proposal.id, files: result.proposal.files.map((f) => f.path) }
        : undefined,
      ...(result.superseded ? { superseded: result.superseded } : {}),
      ...(result.stillPending ? { stillPending: result.stillPending } : {}),
      run: record
        ? {
            id: record.id,
            status: record.status,
            calls: record.totals.calls,
            tokens: record.totals.inputTokens + record.totals.outputTokens,
            warnings: record.warnings,
            drops: describeDrops(dropSummary(record.nodes)),
          }
        : undefined,
      failedSessions: result.failedTraces?.length ?? 0,
      givenUpSessions: result.givenUp.length,
      outsideWindow: result.outsideWindow,
    };
  } finally {
    task.port.close();
  }
}
