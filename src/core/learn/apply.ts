import type { EmbedFn, NodeDelta } from './types';
import { applyDelta, type AppliedOp } from '../playbook/apply';
import type { Delta, DeltaOp } from '../playbook/delta';
import type { Playbook } from '../playbook/model';
import { isAbortError } from '../util/concurrency';
import { sourceNodes } from './aggregate';
import type { RunJournal } from './journal';
import { semanticDuplicates } from './semanticDedupe';

/** Returns a reason to drop an operation before it is applied (rejected or deleted before), else undefined. */
export type Veto = (op: DeltaOp) => string | undefined;

export interface BatchApplied {
  playbook: Playbook;
  /** Every operation of the delta: applied, or skipped with its reason. */
  applied: AppliedOp[];
  tags: Delta['tags'];
}

/**
 * Apply: a batch's delta onto the current playbook, deterministically, after dropping what must not come back —
 * too little support, a rule already there in other words, a change the team rejected or deleted before.
 */
export class DeltaApplier {
  /** Embeddings are cached for the whole run. */
  private readonly vectors = new Map<string, number[]>();
  private embeddingsFailed = false;

  constructor(
    private readonly journal: RunJournal,
    private readonly veto?: Veto,
    private readonly embed?: EmbedFn,
  ) {}

  async apply(playbook: Playbook, final: NodeDelta, b: number): Promise<BatchApplied> {
    const vetoed: AppliedOp[] = [];
    const semantic = await this.semanticCheck(final.delta.ops, playbook);
    const ops = final.delta.ops.filter((op) => {
      const sessions = new Set(op.support.map((e) => e.traceId)).size;
      const reason =
        op.op === 'ADD' && op.minSupport && sessions < op.minSupport
          ? `seen in ${sessions} session(s); needs ${op.minSupport}`
          : (semantic.get(op) ?? this.veto?.(op));
      if (reason) vetoed.push({ op, status: 'skipped', reason });
      return !reason;
    });
    const result = applyDelta(playbook, { ...final.delta, ops });
    result.applied.push(...vetoed);
    const ok = result.applied.filter((a) => a.status === 'applied').length;
    this.journal.totals.applied += ok;
    this.journal.totals.skipped += result.applied.length - ok;
    this.journal.nodes.push({
      id: `b${b}:apply`,
      kind: 'apply',
      batch: b,
      label: `${ok} change(s) applied`,
      parents: sourceNodes(final),
      status: 'ok',
      detail: result.applied.map((a) => ({
        op: a.op.op,
        id: a.id,
        status: a.status,
        reason: a.reason,
        content: 'content' in a.op ? a.op.content : undefined,
        support: a.op.support,
      })),
    });
    return { playbook: result.playbook, applied: result.applied, tags: final.delta.tags };
  }

  /** Duplicates worded differently, when the provider has embeddings; without them (or once they fail) none. */
  private async semanticCheck(ops: DeltaOp[], current: Playbook): Promise<Map<DeltaOp, string>> {
    if (!this.embed || this.embeddingsFailed) return new Map();
    try {
      return await semanticDuplicates(ops, current, this.embed, this.vectors, this.journal.signal);
    } catch (error) {
      if (isAbortError(error)) throw error;
      this.embeddingsFailed = true;
      this.journal.warnings.push(
        `embeddings unavailable (${(error as Error).message}); duplicates are detected lexically only`,
      );
      return new Map();
    }
  }
}
