import { join } from 'node:path';
import { z } from 'zod';
import type { Counters } from '../learn/rules/confirmedCounters';
import type { EvidenceEntry } from '../learn/rules/ruleCounting';
import { atomicWrite, readJsonFile } from '../util/io';
import type { WorkspaceState } from './workspaceState';

// The evidence ledger: every (rule, session) word a run counted, kept per workspace in the per-user store, never in
// the repository (the counters on the playbook line are what the team shares). It is what makes counting
// idempotent: a pair in it is never counted again, whichever run sees the session next.

const LedgerEntry = z.object({
  tag: z.enum(['helpful', 'harmful']),
  runId: z.string(),
});
const Ledger = z.object({
  version: z.literal(1),
  /** rule id → session key → the word counted */
  counted: z.record(z.string(), z.record(z.string(), LedgerEntry)),
});
type Ledger = z.infer<typeof Ledger>;

export class RuleLedger {
  private constructor(
    private readonly path: string,
    private readonly data: Ledger,
  ) {}

  static async load(state: WorkspaceState, workspace: string): Promise<RuleLedger> {
    const path = join(state.dir(workspace), 'rule-ledger.json');
    const parsed = Ledger.safeParse(await readJsonFile(path).catch(() => undefined));
    return new RuleLedger(path, parsed.success ? parsed.data : { version: 1, counted: {} });
  }

  counted(ruleId: string, sessionKey: string): boolean {
    return this.data.counted[ruleId]?.[sessionKey] !== undefined;
  }

  /** The sessions counted for the rule (their keys: a sub-session counts as its parent). */
  sessionKeys(ruleId: string): string[] {
    return Object.keys(this.data.counted[ruleId] ?? {}).sort();
  }

  /** How many sessions were counted for the rule. */
  sessions(ruleId: string): number {
    return Object.keys(this.data.counted[ruleId] ?? {}).length;
  }

  /** The helpful and harmful sessions counted for the rule: what confirms the counters its playbook line claims. */
  tally(ruleId: string): Counters {
    const counts = { helpful: 0, harmful: 0 };
    for (const entry of Object.values(this.data.counted[ruleId] ?? {})) counts[entry.tag]++;
    return counts;
  }

  /** Records a run's counted words (each under its session's key) and saves the ledger. */
  async record(runId: string, entries: ReadonlyArray<EvidenceEntry & { sessionKey: string }>): Promise<void> {
    let changed = false;
    for (const entry of entries) {
      if (!entry.counted || (entry.tag !== 'helpful' && entry.tag !== 'harmful')) continue;
      const byRule = (this.data.counted[entry.id] ??= {});
      if (byRule[entry.sessionKey]) continue;
      byRule[entry.sessionKey] = { tag: entry.tag, runId };
      changed = true;
    }
    if (changed) await atomicWrite(this.path, `${JSON.stringify(this.data)}\n`);
  }
}
