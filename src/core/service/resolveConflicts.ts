import { compareStanding, conflictBetween, type Standing } from '../learn/conflicts';
import type { LearnResult } from '../learn/run';
import { applyDelta, type AppliedOp } from '../playbook/apply';
import type { DeltaOp, Evidence } from '../playbook/delta';
import { pinnedIds } from '../playbook/marks';
import { bullets } from '../playbook/model';
import { ruleCommands } from '../learn/ruleEvidence';
import { pushApplyNode } from './applyNode';

// No contradiction leaves a proposal. After a run (and its upkeep), every rule it added or reworded is held against
// the rest of the playbook, against the other new rules, and against the team's own text outside Combee's block. The
// better-evidenced side wins: what a user said, then the team's written word, then what this run's sessions showed
// working, then what worked before. A losing rule of the playbook is proposed for removal, with the sessions that
// overruled it; a losing new rule is withdrawn, with the reason in the tree; a new rule that overrules the team's
// text, which Combee may not edit, keeps a note naming the line (the lint notes show it in the review).

interface Side {
  id: string;
  content: string;
  standing: Standing;
  isNew: boolean;
  pinned: boolean;
  support: Evidence[];
}

/** Lines of the team's files that prescribe or rule out a command: each a statement of its own. */
function teamStatements(team: ReadonlyArray<{ path: string; text: string }>): Array<{ path: string; line: string }> {
  return team.flatMap(({ path, text }) =>
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => {
        const { prescribed, forbidden } = ruleCommands(line);
        return prescribed.length + forbidden.length > 0;
      })
      .map((line) => ({ path, line })),
  );
}

function sides(result: LearnResult): Side[] {
  const pinned = pinnedIds(result.playbook);
  const fresh = new Map<string, AppliedOp>();
  for (const a of result.applied)
    if (a.status === 'applied' && a.id && (a.op.op === 'ADD' || a.op.op === 'UPDATE' || a.op.op === 'MERGE'))
      fresh.set(a.id, a);
  const said = new Map<string, { helpful: Set<string>; harmful: Set<string> }>();
  for (const batch of result.record.batches)
    for (const e of batch.evidence ?? []) {
      const entry = said.get(e.id) ?? { helpful: new Set<string>(), harmful: new Set<string>() };
      if (e.tag === 'helpful') entry.helpful.add(e.traceId);
      if (e.tag === 'harmful') entry.harmful.add(e.traceId);
      said.set(e.id, entry);
    }
  return bullets(result.playbook).map((b) => {
    const change = fresh.get(b.id);
    const words = said.get(b.id);
    const support = change?.op.support ?? [];
    return {
      id: b.id,
      content: b.content,
      isNew: change !== undefined,
      pinned: pinned.has(b.id),
      support,
      standing: {
        userSaid: change !== undefined && change.op.op === 'ADD' && change.op.kind === 'preference',
        fixedFailure:
          change !== undefined &&
          change.op.op === 'ADD' &&
          (change.op.kind === 'pitfall' || change.op.kind === 'procedure'),
        workedNow: change !== undefined || (words?.helpful.size ?? 0) > 0,
        hurtNow: (words?.harmful.size ?? 0) > 0,
        teamWord: pinned.has(b.id),
        record: change ? 0 : b.helpful - b.harmful,
        sessions: new Set([...support.map((s) => s.traceId), ...(words?.helpful ?? [])]).size,
      },
    };
  });
}

export interface ConflictOutcome {
  /** New rules withdrawn, with why. */
  withdrawn: Array<{ id: string; reason: string }>;
  /** Rules of the playbook proposed for removal, with the rule that overruled them. */
  removed: Array<{ id: string; by: string; reason: string }>;
  /** New rules that overrule a line of the team's text (kept, with a note). */
  overrulingTeam: Array<{ id: string; path: string; line: string; reason: string }>;
}

const TEAM_TEXT: Standing = {
  userSaid: false,
  fixedFailure: false,
  workedNow: false,
  hurtNow: false,
  teamWord: true,
  record: 0,
  sessions: 0,
};

/** Resolves every conflict a run's new rules take part in, changing `result` (playbook, applied, record) in place. */
export function resolveConflicts(
  result: LearnResult,
  team: ReadonlyArray<{ path: string; text: string }>,
): ConflictOutcome {
  const outcome: ConflictOutcome = { withdrawn: [], removed: [], overrulingTeam: [] };
  const all = sides(result);
  const gone = new Set<string>();
  const fresh = all.filter((s) => s.isNew);
  for (const rule of fresh) {
    if (gone.has(rule.id)) continue;
    for (const other of all) {
      if (other.id === rule.id || gone.has(other.id) || (other.isNew && fresh.indexOf(other) < fresh.indexOf(rule)))
        continue;
      const why = conflictBetween(rule.content, other.content);
      if (!why) continue;
      const order = compareStanding(rule.standing, other.standing);
      // a tie keeps what is there (an existing rule), or the earlier of two new ones
      const ruleWins = order < 0 && !other.pinned;
      if (ruleWins && !other.isNew) {
        gone.add(other.id);
        outcome.removed.push({ id: other.id, by: rule.id, reason: `overruled by [${rule.id}]: ${why}` });
      } else if (ruleWins) {
        gone.add(other.id);
        outcome.withdrawn.push({ id: other.id, reason: `contradicts [${rule.id}], which is better evidenced: ${why}` });
      } else {
        gone.add(rule.id);
        outcome.withdrawn.push({ id: rule.id, reason: `contradicts [${other.id}], which is better evidenced: ${why}` });
        break;
      }
    }
  }
  for (const rule of fresh) {
    if (gone.has(rule.id)) continue;
    for (const { path, line } of teamStatements(team)) {
      const why = conflictBetween(rule.content, line);
      if (!why) continue;
      if (compareStanding(rule.standing, TEAM_TEXT) < 0) {
        outcome.overrulingTeam.push({ id: rule.id, path, line, reason: why });
        continue;
      }
      gone.add(rule.id);
      outcome.withdrawn.push({ id: rule.id, reason: `contradicts the team's own text in ${path} ("${line}"): ${why}` });
      break;
    }
  }
  applyOutcome(result, outcome, all);
  return outcome;
}

function applyOutcome(result: LearnResult, outcome: ConflictOutcome, all: readonly Side[]): void {
  if (outcome.withdrawn.length === 0 && outcome.removed.length === 0) return;
  const supportOf = new Map(all.map((s) => [s.id, s.support]));
  const withdraw = new Map(outcome.withdrawn.map((w) => [w.id, w.reason]));
  const ops: DeltaOp[] = [
    ...outcome.withdrawn.map((w): DeltaOp => ({ op: 'REMOVE', id: w.id, reason: w.reason, support: [] })),
    ...outcome.removed.map((r): DeltaOp => ({
      op: 'REMOVE',
      id: r.id,
      reason: r.reason,
      support: supportOf.get(r.by) ?? [],
    })),
  ];
  const applied = applyDelta(result.playbook, { ops, tags: [] });
  result.playbook = applied.playbook;
  // a withdrawn rule was never proposed: its ADD is skipped, in the result and in the tree
  for (const a of result.applied)
    if (a.status === 'applied' && a.id && withdraw.has(a.id) && a.op.op !== 'REMOVE') {
      a.status = 'skipped';
      a.reason = withdraw.get(a.id);
      result.record.totals.applied--;
    }
  for (const node of result.record.nodes) {
    if (node.kind !== 'apply' || !Array.isArray(node.detail)) continue;
    for (const entry of node.detail as Array<{ id?: unknown; status?: unknown; reason?: unknown; op?: unknown }>)
      if (
        typeof entry.id === 'string' &&
        withdraw.has(entry.id) &&
        entry.status === 'applied' &&
        entry.op !== 'REMOVE'
      ) {
        entry.status = 'skipped';
        entry.reason = withdraw.get(entry.id);
      }
  }
  const removals = applied.applied.filter((a) => a.op.op === 'REMOVE' && !withdraw.has(a.id ?? ''));
  if (removals.length === 0) return;
  result.applied.push(...removals);
  pushApplyNode(result, 'conflicts', `${removals.length} rule(s) overruled by better-evidenced ones`, removals);
}
