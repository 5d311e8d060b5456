import type { MessagePort } from 'node:worker_threads';
import type { CalibrationEstimate, CalibrationResult } from '../learn/capacity/calibrate';
import type { ProviderSpec } from './learnProtocol';

/**
 * A calibration in a worker: the prompts are built and counted with the tokenizer there, never on the extension
 * host. `plan` only measures the calls and prices them (for the host to ask first); `run` plans the same calls again
 * (the same seed and bound give the same ones), sends them and keeps what they showed in the capacity profile.
 */
export interface CalibrateTask {
  stage: 'plan' | 'run';
  storeDir: string;
  provider: ProviderSpec;
  options: {
    upperBoundTokens: number;
    seed?: number;
    prices?: { input: number; output: number };
    /** Forget the model's earlier calls before keeping these. */
    reset?: boolean;
  };
  /** Progress, the cancel and proxied model calls travel over this port (as a learning run's do). */
  port: MessagePort;
}

export interface CalibrateTaskResult {
  thread: number;
  estimate: CalibrationEstimate;
  /** The plan in words (describePlan). */
  plan: string;
  /** `run`: what the calls showed, in words and in full, and what the profile now gives the next run. */
  run?: { summary: string; result: CalibrationResult; profileTokens?: number };
}
