// Worker-thread entry (bundled as dist/combee-worker.js): CPU-bound tasks the pool runs off the main thread.
import {
  runImportBatch,
  runImportTask,
  type BatchFailure,
  type ImportTask,
  type ImportTaskResult,
} from '../import/fileTask';
import type { LearnTask, LearnTaskResult } from './learnProtocol';
import { BundleError } from '../team/bundle';
import { importBundle } from '../team/importBundle';
import { TraceStore } from '../store/traceStore';
import type { BundleTask, BundleTaskResult } from './bundleProtocol';
import { runLearnTask } from './learnTask';
import type { BacktestTask, BacktestTaskResult } from './backtestProtocol';
import { runBacktestTask } from './backtestTask';
import type { CalibrateTask, CalibrateTaskResult } from './calibrateProtocol';
import { runCalibrateTask } from './calibrateTask';

/** Reads, normalizes and stores one file here; only counts go back to the main thread. */
export async function importTask(task: ImportTask): Promise<ImportTaskResult> {
  return runImportTask(task);
}

/** Several small files in one task: one round trip to the main thread for all of them. */
export async function importBatchTask(tasks: ImportTask[]): Promise<Array<ImportTaskResult | BatchFailure>> {
  return runImportBatch(tasks);
}

// Piscina preloads a file's default export when a worker starts; without one it falls back to import(), and Node
// then lexes the whole bundle for its exports (about 0.15 s per worker).
export default importTask;

/**
 * A whole learning run (see learnTask.ts): the host only relays progress, consent and proxied model calls. Imported
 * statically: one dynamic import makes the bundler initialise every module lazily, and then each module-level
 * constant (the redactor's tables, the readers' limits) is a variable read on every use in the hottest loops.
 */
export async function learnTask(task: LearnTask): Promise<LearnTaskResult> {
  return runLearnTask(task);
}

/** One team bundle read, checked, redacted again and stored here; a refusal comes back as data (classes do not cross). */
export async function bundleTask(task: BundleTask): Promise<BundleTaskResult> {
  try {
    return {
      result: await importBundle({
        store: new TraceStore(task.storeDir),
        path: task.path,
        workspace: task.workspace,
        allowedSigners: task.allowedSigners,
      }),
    };
  } catch (error) {
    if (error instanceof BundleError) return { refused: error.message };
    throw error;
  }
}

/** A backtest (see backtestTask.ts): learning the earlier sessions and replaying the later ones, here. */
export async function backtestTask(task: BacktestTask): Promise<BacktestTaskResult> {
  return runBacktestTask(task);
}

/** A calibration (see calibrateTask.ts): its prompts are built and counted here, its calls sent from here. */
export async function calibrateTask(task: CalibrateTask): Promise<CalibrateTaskResult> {
  return runCalibrateTask(task);
}
