import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import Piscina from 'piscina';
import type { BatchFailure, ImportTask, ImportTaskResult } from '../import/fileTask';
import type { LearnTask, LearnTaskResult } from './learnProtocol';
import type { BundleTask, BundleTaskResult } from './bundleProtocol';
import type { BacktestTask, BacktestTaskResult } from './backtestProtocol';
import type { CalibrateTask, CalibrateTaskResult } from './calibrateProtocol';

/** Small by default: the extension host is shared with every other extension. */
export function defaultPoolSize(): number {
  return Math.max(1, Math.min(2, availableParallelism() - 1));
}

export interface WorkerPool {
  /** One whole file import in a worker, which stores the traces itself (nothing big crosses threads). */
  runImport(task: ImportTask, signal?: AbortSignal): Promise<ImportTaskResult>;
  /** Several small files' imports in one worker task. */
  runImportBatch(tasks: ImportTask[], signal?: AbortSignal): Promise<Array<ImportTaskResult | BatchFailure>>;
  /** One team bundle's import in a worker. */
  runBundleImport(task: BundleTask, signal?: AbortSignal): Promise<BundleTaskResult>;
  /** A whole learning run in a worker; its port is transferred to the worker. */
  learn(task: LearnTask, signal?: AbortSignal): Promise<LearnTaskResult>;
  /** A backtest in a worker; its port is transferred to the worker. */
  backtest(task: BacktestTask, signal?: AbortSignal): Promise<BacktestTaskResult>;
  /** A calibration's plan or run in a worker; its port is transferred to the worker. */
  calibrate(task: CalibrateTask, signal?: AbortSignal): Promise<CalibrateTaskResult>;
  readonly size: number;
  destroy(): Promise<void>;
}

/**
 * A piscina pool over the bundled worker entry. `distDir` holds `combee-worker.js` and piscina's own bootstrap
 * (`worker.js`); idle workers exit after a while so an idle extension holds no threads.
 */
export function createWorkerPool(distDir: string, size = defaultPoolSize()): WorkerPool {
  const filename = join(distDir, 'combee-worker.js');
  if (!existsSync(filename)) throw new Error(`worker bundle missing: ${filename} (run npm run build)`);
  const piscina = new Piscina({
    filename,
    minThreads: 0,
    maxThreads: size,
    idleTimeout: 15_000,
    // a bounded young generation: parsing makes short-lived garbage by the megabyte and every MB of new space stays
    // resident in each worker. Measured on the import benchmark (Claude Code part, 2 workers): 12 MB ~5 % slower than
    // 16 MB, 20 MB no faster; 16 MB peaks at ~280 MB RSS for the whole process, 12 MB at ~260
    resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 16 },
    // a second task waits in the worker: no idle round trip to the main thread between two small files
    concurrentTasksPerWorker: 2,
  });
  return {
    size,
    runImport(task, signal) {
      return piscina.run(task, { name: 'importTask', signal }) as Promise<ImportTaskResult>;
    },
    runImportBatch(tasks, signal) {
      return piscina.run(tasks, { name: 'importBatchTask', signal }) as Promise<Array<ImportTaskResult | BatchFailure>>;
    },
    runBundleImport(task, signal) {
      return piscina.run(task, { name: 'bundleTask', signal }) as Promise<BundleTaskResult>;
    },
    learn(task, signal) {
      return piscina.run(task, { name: 'learnTask', signal, transferList: [task.port] }) as Promise<LearnTaskResult>;
    },
    backtest(task, signal) {
      return piscina.run(task, {
        name: 'backtestTask',
        signal,
        transferList: [task.port],
      }) as Promise<BacktestTaskResult>;
    },
    calibrate(task, signal) {
      return piscina.run(task, {
        name: 'calibrateTask',
        signal,
        transferList: [task.port],
      }) as Promise<CalibrateTaskResult>;
    },
    destroy: () => piscina.destroy(),
  };
}
