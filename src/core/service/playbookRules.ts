import { confirmCounters, localCounts, type Counters } from '../learn/rules/confirmedCounters';
import { STALE_AFTER_RUNS, type RuleStanding } from '../learn/rules/ruleStanding';
import { ruleStandings } from '../learn/rules/standings';
import { ruleAuthorships, UNKNOWN_AUTHOR, type Authorship } from '../playbook/authorMark';
import { parsePlaybook } from '../playbook/markdown';
import { pinnedIds } from '../playbook/marks';
import { ReviewMemory } from '../store/reviewMemory';
import { RuleLedger } from '../store/ruleLedger';
import { loadRunRecords } from '../store/runs';
import type { WorkspaceState } from '../store/workspaceState';
import { holdBack } from '../trust/hold';
import type { RuleFlag } from '../trust/kinds';

/**
 * One rule of a workspace's playbook as every view shows it: its counters as this machine confirms them, what the file
 * claims, its standing and its flags.
 */
export interface PlaybookRule {
  id: string;
  section: string;
  content: string;
  /** Confirmed by this machine's ledger: what every view counts by. */
  helpful: number;
  harmful: number;
  /** What the playbook line says (more than `helpful`/`harmful` when the repository claims what was not counted here). */
  claimed: Counters;
  /** The trust screen's reasons when the rule is held out of the other assets (a cloned repository is untrusted). */
  flags: RuleFlag[];
  /** Kept by the team (a pin mark): Combee proposes neither retiring nor replacing it. */
  pinned: boolean;
  standing: RuleStanding;
  /** Which model wrote it and last changed it, as its model mark claims (unknown without one). */
  authorship: Authorship;
}

/**
 * The rules of a playbook (its text as read from the workspace), screened the same way every render screens them,
 * with their standing from this workspace's runs. The Rules view, the helpfulness panel and the CLI share it.
 */
export async function playbookRules(
  state: WorkspaceState,
  workspace: string,
  text: string,
  staleAfterRuns = STALE_AFTER_RUNS,
): Promise<{ rules: PlaybookRule[]; runs: number }> {
  const playbook = parsePlaybook(text);
  const held = holdBack({
    playbook,
    rules: [],
    isTrusted: ReviewMemory.trusts(await new ReviewMemory(state, workspace).load()),
  });
  const flagsOf = new Map(held.existing.map((h) => [h.id, h.flags]));
  const pinned = pinnedIds(playbook);
  const authorships = ruleAuthorships(playbook);
  const records = await loadRunRecords(state, workspace);
  const local = localCounts(await RuleLedger.load(state, workspace), records);
  const rules: Array<Omit<PlaybookRule, 'standing'>> = [];
  for (const section of playbook.sections)
    for (const entry of section.lines) {
      if (entry.kind !== 'bullet') continue;
      const { id, content, helpful, harmful } = entry.bullet;
      const flags = flagsOf.get(id) ?? [];
      const { confirmed } = confirmCounters({ helpful, harmful }, local(id));
      const claimed = { helpful, harmful };
      const authorship = authorships.get(id) ?? { written: UNKNOWN_AUTHOR };
      rules.push({
        id,
        section: section.title,
        content,
        ...confirmed,
        claimed,
        flags,
        pinned: pinned.has(id),
        authorship,
      });
    }
  const standings = ruleStandings(
    records,
    rules.map((r) => ({
      ...r,
      counters: { claimed: r.claimed, confirmed: { helpful: r.helpful, harmful: r.harmful } },
      flagged: r.flags.length > 0,
    })),
    staleAfterRuns,
  );
  return { rules: rules.map((r) => ({ ...r, standing: standings.get(r.id) as RuleStanding })), runs: records.length };
}
