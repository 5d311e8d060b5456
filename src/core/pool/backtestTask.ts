import { threadId } from 'node:worker_threads';
import { backtest } from '../eval/backtest';
import { TraceStore } from '../store/traceStore';
import { PortRpc } from '../util/portRpc';
import type { BacktestTask, BacktestTaskResult } from './backtestProtocol';
import type { HostApi, WorkerApi } from './learnProtocol';
import { rolesFor } from './learnTask';

/** The backtest inside a worker thread: the host relays progress, the cancel and (VS Code's models) chat turns. */
export async function runBacktestTask(task: BacktestTask): Promise<BacktestTaskResult> {
  const controller = new AbortController();
  const host = new PortRpc<HostApi, WorkerApi>(task.port, { cancel: () => controller.abort() });
  try {
    const roles = rolesFor(
      task.provider,
      host,
      task.cacheDir,
      task.options.budgetTokens,
      task.options.aggregationCapacityTokens,
    );
    const report = await backtest({
      store: new TraceStore(task.storeDir),
      workspace: task.workspace,
      reflector: roles.reflector,
      aggregator: roles.aggregator,
      provider: roles.info,
      embed: roles.embed,
      playbookPath: task.options.playbookPath,
      split: task.options.split,
      seed: task.options.seed,
      batchSize: task.options.batchSize,
      signal: controller.signal,
      onProgress: (message, fraction) => host.notify('progress', { message, fraction }),
    });
    return { thread: threadId, report };
  } finally {
    task.port.close();
  }
}
