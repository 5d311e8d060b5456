import type { MessagePort } from 'node:worker_threads';
import type { BacktestReport } from '../eval/backtest';
import type { SplitChoice } from '../eval/split';
import type { ProviderSpec } from './learnProtocol';

/** A backtest to run in a worker: the learning and the replay are CPU work, kept off the extension host. */
export interface BacktestTask {
  storeDir: string;
  workspace: string;
  provider: ProviderSpec;
  cacheDir?: string;
  options: {
    playbookPath?: string;
    split?: SplitChoice;
    seed?: number;
    batchSize?: number;
    /** Token budget of one condensed session (model-backed roles). */
    budgetTokens?: number;
    aggregationCapacityTokens?: number;
  };
  /** Progress, the cancel and proxied model calls travel over this port (as a learning run's do). */
  port: MessagePort;
}

export interface BacktestTaskResult {
  thread: number;
  report: BacktestReport;
}
