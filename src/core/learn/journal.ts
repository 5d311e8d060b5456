import { setMaxListeners } from 'node:events';
import { isAbortError } from '../util/concurrency';
import type { RunNode, RunRecord } from './record/record';
import type { CallUsage, RoleResult } from './types';

export interface RunLimits {
  maxTokens?: number;
  maxCostUsd?: number;
}

/**
 * The journal of one learning run, shared by its steps: the signal every call listens on, the calls and tokens spent
 * against the limits, the tree's nodes and the warnings, in the order things happened.
 */
export class RunJournal {
  readonly nodes: RunNode[] = [];
  readonly warnings: string[] = [];
  readonly totals: RunRecord['totals'];
  /** Set when a limit was reached: the run stops like a cancel, with this reason. */
  stopReason?: string;
  private readonly calls = { ok: 0, failed: 0, firstError: '' };
  // One signal for the run: the caller's cancel, or a limit reached; it reaches every call in flight.
  private readonly run = new AbortController();
  private readonly onCallerAbort = () => this.run.abort(this.callerSignal?.reason);

  constructor(
    traces: number,
    private readonly callerSignal?: AbortSignal,
    private readonly limits?: RunLimits,
  ) {
    this.totals = {
      traces,
      reflections: 0,
      lessons: 0,
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      wallMs: 0,
      applied: 0,
      skipped: 0,
    };
    if (callerSignal?.aborted) this.run.abort(callerSignal.reason);
    callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
    // Every concurrent call listens on the run's signal: many listeners are expected, not a leak.
    setMaxListeners(0, this.run.signal);
  }

  get signal(): AbortSignal {
    return this.run.signal;
  }

  /** Counts a successful call; reaching a limit aborts the run's signal. */
  account(usage: CallUsage): void {
    const totals = this.totals;
    if (!usage.notSent) {
      totals.calls++;
      this.calls.ok++;
    }
    totals.inputTokens += usage.inputTokens;
    totals.outputTokens += usage.outputTokens;
    totals.costUsd += usage.costUsd ?? 0;
    const limits = this.limits;
    if (this.stopReason || !limits) return;
    if (limits.maxTokens && totals.inputTokens + totals.outputTokens >= limits.maxTokens)
      this.stopReason = `token limit of ${limits.maxTokens} reached`;
    else if (limits.maxCostUsd && totals.costUsd >= limits.maxCostUsd)
      this.stopReason = `cost limit of $${limits.maxCostUsd} reached`;
    if (this.stopReason) this.run.abort(budgetStop(this.stopReason));
  }

  /** A failed call fails its node, not the run (undefined, with a warning); a cancel still ends the run. */
  async guarded<R extends RoleResult<unknown>>(call: () => Promise<R>, what: string): Promise<R | undefined> {
    try {
      return await call();
    } catch (error) {
      if (isAbortError(error)) throw error;
      const reason = (error as Error).message;
      this.calls.failed++;
      this.calls.firstError ||= reason;
      this.warnings.push(`${what} failed: ${reason}`);
      return undefined;
    }
  }

  /** How a run the batch loop left by an error ended: stopped at a limit, cancelled, or failed. */
  interrupted(error: unknown): RunRecord['status'] {
    if (this.stopReason) {
      this.warnings.push(`run stopped: ${this.stopReason}; the batches finished before it are kept`);
      return 'stopped';
    }
    if (isAbortError(error)) return 'cancelled';
    this.warnings.push(`run failed: ${(error as Error).message}`);
    return 'failed';
  }

  /** How a run that went through every batch ended: completed, unless all or most model calls failed. */
  settled(failedTraces: number): RunRecord['status'] {
    // A wrong key or an endpoint down: the run failed, it did not find "nothing new".
    if (this.calls.failed > 0 && this.calls.failed >= this.calls.ok) {
      this.warnings.push(
        `run failed: ${this.calls.failed} of ${this.calls.ok + this.calls.failed} model calls failed (first: ${this.calls.firstError}); the ${failedTraces} session(s) they were for will be learned again`,
      );
      return 'failed';
    }
    return 'completed';
  }

  /** Stops following the caller's signal once the run is over. */
  close(): void {
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }
}

/** The usage of a call as the node of the tree records it. */
export function usageFields(
  usage: CallUsage,
): Pick<RunNode, 'latencyMs' | 'inputTokens' | 'outputTokens' | 'costUsd' | 'retries' | 'hedges'> {
  return {
    latencyMs: usage.latencyMs,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    costUsd: usage.costUsd,
    // only when it happened: a record stays as small as before for calls that went through at once
    ...(usage.retries ? { retries: usage.retries } : {}),
    ...(usage.hedges ? { hedges: usage.hedges } : {}),
  };
}

/** A limit reached stops the run like a cancel (an AbortError), with its own reason. */
function budgetStop(reason: string): Error {
  const error = new Error(reason);
  error.name = 'AbortError';
  return error;
}
