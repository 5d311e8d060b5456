import { z } from 'zod';
import {
  judgedBefore,
  vetoReason,
  type DecisionKind,
  type Judged,
  type PriorDecision,
} from '../learn/rules/priorDecisions';
import type { DeltaOp } from '../playbook/delta';
import { parsePlaybook } from '../playbook/markdown';
import type { WorkspaceState } from './workspaceState';
import { atomicWrite, readJsonFile } from '../util/io';

const Remembered = z.object({
  content: z.string(),
  traceIds: z.array(z.string()),
  at: z.string(),
  /** The section it was filed under (matches a later rule of the same purpose there). */
  section: z.string().optional(),
  reason: z.string().optional(),
});
type Remembered = z.infer<typeof Remembered>;

const Memory = z.object({
  version: z.literal(1),
  /** Rule changes the team rejected in review: not proposed again from the same evidence. */
  rejected: z.array(Remembered),
  /** Rules the team deleted from the playbook: not proposed again from the same evidence. */
  deleted: z.array(Remembered),
  /** Rules whose removal the team accepted (Retire…, the lifecycle's, the budget's): the same. */
  retired: z.array(Remembered).default([]),
  /** Rules of the playbook as Combee last wrote it, to notice deletions. */
  accepted: z.array(
    z.object({ id: z.string(), content: z.string(), traceIds: z.array(z.string()), section: z.string().optional() }),
  ),
  /** Flagged rules the user accepted by name: their text is not held back again (the user's own store, not the repo). */
  trusted: z.array(z.object({ content: z.string(), at: z.string() })).default([]),
});
type Memory = z.infer<typeof Memory>;
export type ReviewMemoryData = Memory;
export const ReviewMemoryData = Memory;

const empty = (): Memory => ({ version: 1, rejected: [], deleted: [], retired: [], accepted: [], trusted: [] });

/** A rule whose removal was accepted, with the sessions it was judged on. */
export interface RetiredRule {
  id: string;
  content: string;
  section?: string;
  traceIds: string[];
  reason: string;
}

const sameText = (a: string, b: string) => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

/** What the team decided about earlier proposals, per workspace: their decisions win over new evidence of the same. */
export class ReviewMemory {
  constructor(
    private readonly state: WorkspaceState,
    private readonly workspace: string,
  ) {}

  private get path(): string {
    return this.state.reviewMemoryFile(this.workspace);
  }

  async load(): Promise<Memory> {
    const parsed = Memory.safeParse(await readJsonFile(this.path).catch(() => undefined));
    return parsed.success ? parsed.data : empty();
  }

  private async save(memory: Memory): Promise<void> {
    await atomicWrite(this.path, JSON.stringify(memory, null, 1));
  }

  async rememberRejected(
    changes: Array<{ content?: string; section?: string; support: Array<{ traceId: string }> }>,
  ): Promise<void> {
    const memory = await this.load();
    for (const c of changes)
      if (c.content)
        memory.rejected.push({
          content: c.content,
          traceIds: c.support.map((s) => s.traceId),
          at: new Date().toISOString(),
          ...(c.section ? { section: c.section } : {}),
        });
    await this.save(memory);
  }

  /** Removals the team accepted: the rules are not proposed again from the sessions they were judged on. */
  async rememberRetired(rules: readonly RetiredRule[]): Promise<void> {
    if (rules.length === 0) return;
    const memory = await this.load();
    const at = new Date().toISOString();
    for (const r of rules) {
      // what Combee knew of the rule's support joins the sessions the removal names
      const known = memory.accepted.find((a) => a.id === r.id);
      memory.retired.push({
        content: r.content,
        traceIds: [...new Set([...r.traceIds, ...(known?.traceIds ?? [])])],
        at,
        reason: r.reason,
        ...((r.section ?? known?.section) ? { section: r.section ?? known?.section } : {}),
      });
    }
    // gone from the playbook by this decision, not by a deletion to notice later
    memory.accepted = memory.accepted.filter((a) => !rules.some((r) => r.id === a.id));
    await this.save(memory);
  }

  /** Flagged rules accepted by name: from now on their exact text is the user's, not held back. */
  async rememberTrusted(contents: string[]): Promise<void> {
    if (contents.length === 0) return;
    const memory = await this.load();
    const at = new Date().toISOString();
    for (const content of contents)
      if (!memory.trusted.some((t) => sameText(t.content, content))) memory.trusted.push({ content, at });
    await this.save(memory);
  }

  /** Whether a rule's text was accepted by name in an earlier review. */
  static trusts(memory: Memory): (content: string) => boolean {
    return (content) => memory.trusted.some((t) => sameText(t.content, content));
  }

  /** Whether a rule's text was turned down by name in an earlier review (a held rule's included). */
  static rejects(memory: Memory): (content: string) => boolean {
    return (content) => memory.rejected.some((r) => sameText(r.content, content));
  }

  /** After an accept: the rules as written, with the sessions behind them (a later deletion is then noticed). */
  async rememberAccepted(playbookText: string, support: Map<string, string[]>): Promise<void> {
    const memory = await this.load();
    const known = new Map(memory.accepted.map((a) => [a.id, a]));
    for (const section of parsePlaybook(playbookText).sections)
      for (const line of section.lines) {
        if (line.kind !== 'bullet') continue;
        const b = line.bullet;
        const traceIds = support.get(b.id) ?? known.get(b.id)?.traceIds ?? [];
        known.set(b.id, { id: b.id, content: b.content, traceIds, section: section.title });
      }
    memory.accepted = [...known.values()];
    await this.save(memory);
  }

  /** An accept was undone: its rules are gone from the playbook because of that, not deleted by the team. */
  /** Puts back the memory as it was (an undone decision: what it remembered is forgotten, exactly). */
  async restore(memory: Memory): Promise<void> {
    await this.save(memory);
  }

  async forgetAccepted(ids: string[]): Promise<void> {
    const memory = await this.load();
    memory.accepted = memory.accepted.filter((a) => !ids.includes(a.id));
    await this.save(memory);
  }

  /** Rules Combee wrote that are gone from the current playbook were deleted by the team: remember them. */
  async noticeDeletions(currentPlaybookText: string | undefined): Promise<Remembered[]> {
    const memory = await this.load();
    if (memory.accepted.length === 0) return [];
    const present = new Set(
      parsePlaybook(currentPlaybookText ?? '').sections.flatMap((s) =>
        s.lines.flatMap((l) => (l.kind === 'bullet' ? [l.bullet.id] : [])),
      ),
    );
    const gone = memory.accepted.filter((a) => !present.has(a.id));
    if (gone.length === 0) return [];
    const now = new Date().toISOString();
    const added = gone.map((g) => ({
      content: g.content,
      traceIds: g.traceIds,
      at: now,
      ...(g.section ? { section: g.section } : {}),
    }));
    memory.deleted.push(...added);
    memory.accepted = memory.accepted.filter((a) => present.has(a.id));
    await this.save(memory);
    return added;
  }

  /** Every decision against a rule, in the order recorded. */
  static decisions(memory: Memory): PriorDecision[] {
    const of = (kind: DecisionKind, list: Remembered[]) => list.map((r): PriorDecision => ({ kind, ...r }));
    return [...of('rejected', memory.rejected), ...of('retired', memory.retired), ...of('deleted', memory.deleted)];
  }

  /** What was decided before about the rule an op proposes (see learn/rules/priorDecisions.ts). */
  static judge(memory: Memory): (op: DeltaOp) => Judged | undefined {
    const decisions = ReviewMemory.decisions(memory);
    return (op) => judgedBefore(decisions, op);
  }

  /** The veto for a run: a reason to drop an op the team already turned down, on no new evidence. */
  static veto(memory: Memory): (op: DeltaOp) => string | undefined {
    const judge = ReviewMemory.judge(memory);
    return (op) => {
      const judged = judge(op);
      return judged && vetoReason(judged);
    };
  }
}
