import type { LearnTaskOptions, LearnTaskResult } from '../core/pool/learnProtocol';
import type { BacktestTask, BacktestTaskResult } from '../core/pool/backtestProtocol';
import type { CalibrateTask, CalibrateTaskResult } from '../core/pool/calibrateProtocol';
import type { ProviderChoice } from './llm/providerChoice';
import type { Services } from './services';
import { hostWorkerTask, type WorkerHandlers } from './workerHost';

export interface LearnHandlers extends WorkerHandlers {
  confirm: NonNullable<WorkerHandlers['confirm']>;
}

/**
 * Runs one workspace's learning in the worker pool: the extension host relays progress, answers the consent
 * question and, for VS Code's models, the proxied chat turns. A cancel is cooperative first (finished batches are
 * saved), then forced.
 */
export async function learnInWorker(
  services: Services,
  workspace: string,
  choice: ProviderChoice,
  options: LearnTaskOptions,
  handlers: LearnHandlers,
  signal: AbortSignal,
): Promise<LearnTaskResult> {
  return hostWorkerTask(choice, handlers, signal, (port, hardStop) =>
    services.workerPool().learn(
      {
        storeDir: services.store.dir,
        workspace,
        provider: choice.spec,
        cacheDir: services.callCache.dir,
        options: { ...options, confirm: true },
        port,
      },
      hardStop,
    ),
  );
}

/** A backtest of one workspace in the worker pool: learning and replaying are CPU work, never the host's. */
export async function backtestInWorker(
  services: Services,
  workspace: string,
  choice: ProviderChoice,
  options: BacktestTask['options'],
  handlers: WorkerHandlers,
  signal: AbortSignal,
): Promise<BacktestTaskResult> {
  return hostWorkerTask(choice, handlers, signal, (port, hardStop) =>
    services.workerPool().backtest(
      {
        storeDir: services.store.dir,
        workspace,
        provider: choice.spec,
        cacheDir: services.callCache.dir,
        options,
        port,
      },
      hardStop,
    ),
  );
}

/** A calibration's plan or run in the worker pool: its prompts are built and counted there, not on the host. */
export async function calibrateInWorker(
  services: Services,
  choice: ProviderChoice,
  stage: CalibrateTask['stage'],
  options: CalibrateTask['options'],
  handlers: WorkerHandlers,
  signal: AbortSignal,
): Promise<CalibrateTaskResult> {
  return hostWorkerTask(choice, handlers, signal, (port, hardStop) =>
    services
      .workerPool()
      .calibrate({ stage, storeDir: services.store.dir, provider: choice.spec, options, port }, hardStop),
  );
}
