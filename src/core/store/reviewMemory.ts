import { z } from 'zod';
import type { DeltaOp } from '../playbook/delta';
import { parsePlaybook } from '../playbook/markdown';
import { bullets } from '../playbook/model';
import { isNearDuplicate } from '../playbook/similarity';
import type { WorkspaceState } from './workspaceState';
import { atomicWrite, readJsonFile } from '../util/io';

const Remembered = z.object({ content: z.string(), traceIds: z.array(z.string()), at: z.string() });
type Remembered = z.infer<typeof Remembered>;

const Memory = z.object({
  version: z.literal(1),
  /** Rule changes the team rejected in review: never proposed again. */
  rejected: z.array(Remembered),
  /** Rules the team deleted from the playbook: not proposed again from the same evidence. */
  deleted: z.array(Remembered),
  /** Rules of the playbook as Combee last wrote it, to notice deletions. */
  accepted: z.array(z.object({ id: z.string(), content: z.string(), traceIds: z.array(z.string()) })),
  /** Flagged rules the user accepted by name: their text is not held back again (the user's own store, not the repo). */
  trusted: z.array(z.object({ content: z.string(), at: z.string() })).default([]),
});
type Memory = z.infer<typeof Memory>;

const empty = (): Memory => ({ version: 1, rejected: [], deleted: [], accepted: [], trusted: [] });

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

  async rememberRejected(changes: Array<{ content?: string; support: Array<{ traceId: string }> }>): Promise<void> {
    const memory = await this.load();
    for (const c of changes)
      if (c.content)
        memory.rejected.push({
          content: c.content,
          traceIds: c.support.map((s) => s.traceId),
          at: new Date().toISOString(),
        });
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

  /** After an accept: the rules as written, with the sessions behind them (a later deletion is then noticed). */
  async rememberAccepted(playbookText: string, support: Map<string, string[]>): Promise<void> {
    const memory = await this.load();
    const known = new Map(memory.accepted.map((a) => [a.id, a]));
    for (const b of bullets(parsePlaybook(playbookText)))
      known.set(b.id, { id: b.id, content: b.content, traceIds: support.get(b.id) ?? known.get(b.id)?.traceIds ?? [] });
    memory.accepted = [...known.values()];
    await this.save(memory);
  }

  /** An accept was undone: its rules are gone from the playbook because of that, not deleted by the team. */
  async forgetAccepted(ids: string[]): Promise<void> {
    const memory = await this.load();
    memory.accepted = memory.accepted.filter((a) => !ids.includes(a.id));
    await this.save(memory);
  }

  /** Rules Combee wrote that are gone from the current playbook were deleted by the team: remember them. */
  async noticeDeletions(currentPlaybookText: string | undefined): Promise<Remembered[]> {
    const memory = await this.load();
    if (memory.accepted.length === 0) return [];
    const present = new Set(bullets(parsePlaybook(currentPlaybookText ?? '')).map((b) => b.id));
    const gone = memory.accepted.filter((a) => !present.has(a.id));
    if (gone.length === 0) return [];
    const now = new Date().toISOString();
    const added = gone.map((g) => ({ content: g.content, traceIds: g.traceIds, at: now }));
    memory.deleted.push(...added);
    memory.accepted = memory.accepted.filter((a) => present.has(a.id));
    await this.save(memory);
    return added;
  }

  /** The veto for a run: a reason to drop an op the team already turned down. */
  static veto(memory: Memory): (op: DeltaOp) => string | undefined {
    return (op) => {
      if (op.op !== 'ADD' && op.op !== 'UPDATE' && op.op !== 'MERGE') return undefined;
      const rejected = memory.rejected.find((r) => isNearDuplicate(r.content, op.content));
      if (rejected) return 'rejected in an earlier review';
      const deleted = memory.deleted.find((d) => isNearDuplicate(d.content, op.content));
      if (deleted && op.support.every((s) => deleted.traceIds.includes(s.traceId)))
        return 'deleted by the team; no new evidence';
      return undefined;
    };
  }
}
