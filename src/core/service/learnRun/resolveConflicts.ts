import {
  compareStanding,
  conflictBetween,
  namesOnlyTheWay,
  procedureStates,
  refines,
  samePurpose,
  saysMoreThan,
  type Standing,
} from '../../learn/rules/conflicts';
import { isSkillFile } from '../../learn/rules/teamFiles';
import { unionSupport } from '../../playbook/support';
import type { LearnResult } from '../../learn/run';
import { applyDelta, type AppliedOp } from '../../playbook/apply';
import type { DeltaOp, Evidence } from '../../playbook/delta';
import { pinnedIds } from '../../playbook/marks';
import { bullets, type Bullet } from '../../playbook/model';
import { confirmCounters, type LocalCounts } from '../../learn/rules/confirmedCounters';
import { ruleCommands } from '../../learn/rules/ruleEvidence';
import { pushApplyNode } from './applyNode';

// One rule per purpose, and no contradiction leaves a proposal. After a run (and its upkeep), every rule it adds is
// held against the playbook, the run's other new rules and the team's own text outside Combee's block. One that tells
// agents what another tells them is merged into it (a team rule that only named the command takes its better words),
// or left out where the team's text says it already. Of two an agent cannot both follow, the better evidenced wins
// (`compareStanding`: what a user said, the team's word, what this run showed working and in how many sessions, what
// worked before), settled best first so a loser takes no other rule down with it; a pinned rule never loses. A losing
// playbook rule is proposed for removal with the sessions that overruled it; a losing new rule is withdrawn, its reason
// in the tree; a new rule that overrules the team's text keeps a note naming the line (the lint notes show it).

/** Sessions that make a pattern of what one session showed. */
const PATTERN_SESSIONS = 2;

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

function sides(result: LearnResult, local: LocalCounts): Side[] {
  const pinned = pinnedIds(result.playbook);
  // only a rule the run adds can be withdrawn; one it reworded is the playbook's, with its new words
  const fresh = new Map<string, AppliedOp>();
  for (const a of result.applied) if (a.status === 'applied' && a.id && a.op.op === 'ADD') fresh.set(a.id, a);
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
        // what this machine counted of the line's claim: a forged `helpful=40` wins no conflict
        record: change ? 0 : confirmedNet(b, local),
        sessions: new Set([...support.map((s) => s.traceId), ...(words?.helpful ?? [])]).size,
      },
    };
  });
}

function confirmedNet(bullet: Bullet, local: LocalCounts): number {
  const { confirmed } = confirmCounters(bullet, local(bullet.id));
  return confirmed.helpful - confirmed.harmful;
}

export interface ConflictOutcome {
  /** Playbook rules reworded by a new rule that says the same and more (the new one merged into them). */
  reworded: Array<{ id: string; content: string; support: Evidence[] }>;
  /** New rules withdrawn, with why. */
  withdrawn: Array<{ id: string; reason: string }>;
  /** Rules of the playbook proposed for removal, with the rule that overruled them. */
  removed: Array<{ id: string; by: string; reason: string }>;
  /** New rules that overrule a line of the team's text (kept, with a note). */
  overrulingTeam: Array<{ id: string; path: string; line: string; reason: string }>;
  /** New rules withdrawn because a line of the team's text outweighs them (among `withdrawn` too). */
  overruledByTeam: Array<{ id: string; content: string; path: string; line: string; reason: string }>;
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
  /** This machine's counts: the playbook's counters weigh only as far as they confirm them (confirmedCounters.ts). */
  local: LocalCounts,
): ConflictOutcome {
  const outcome: ConflictOutcome = {
    reworded: [],
    withdrawn: [],
    removed: [],
    overrulingTeam: [],
    overruledByTeam: [],
  };
  const all = sides(result, local);
  const gone = new Set<string>();
  const fresh = all.filter((s) => s.isNew);
  const statements = teamStatements(team);
  const procedures = team.filter(({ path }) => isSkillFile(path));
  mergeSamePurpose(result, all, fresh, statements, procedures, gone, outcome);
  // first what the team wrote: a new rule it outweighs is withdrawn before it can outweigh any other
  for (const rule of fresh) {
    if (gone.has(rule.id)) continue;
    for (const { path, line } of statements) {
      const why = conflictBetween(rule.content, line);
      if (!why) continue;
      if (compareStanding(rule.standing, TEAM_TEXT) < 0) {
        outcome.overrulingTeam.push({ id: rule.id, path, line, reason: why });
        continue;
      }
      gone.add(rule.id);
      outcome.withdrawn.push({ id: rule.id, reason: `contradicts the team's own text in ${path} ("${line}"): ${why}` });
      outcome.overruledByTeam.push({ id: rule.id, content: rule.content, path, line, reason: why });
      break;
    }
  }
  // then the rules, the best evidenced first: a rule that loses never takes another down with it
  const order = new Map(all.map((s, i) => [s, i]));
  const ranked = all
    .filter((s) => !gone.has(s.id))
    .sort(
      (a, b) =>
        compareStanding(a.standing, b.standing) ||
        Number(a.isNew) - Number(b.isNew) ||
        (order.get(a) ?? 0) - (order.get(b) ?? 0),
    );
  for (const [i, rule] of ranked.entries()) {
    if (gone.has(rule.id)) continue;
    for (const other of ranked.slice(i + 1)) {
      if (gone.has(other.id) || (!rule.isNew && !other.isNew)) continue;
      const why = conflictBetween(rule.content, other.content);
      if (!why) continue;
      // a refinement seen in more than one session wins: following it does what the plain form asks, and more
      const otherRefines = refines(other.content, rule.content) && other.standing.sessions >= PATTERN_SESSIONS;
      // a pinned rule is the team's: it never loses, whatever the evidence
      const otherWins = other.pinned || (!rule.pinned && otherRefines);
      const [winner, loser] = otherWins ? [other, rule] : [rule, other];
      gone.add(loser.id);
      if (loser.isNew)
        outcome.withdrawn.push({
          id: loser.id,
          reason: `contradicts [${winner.id}], which is better evidenced: ${why}`,
        });
      else outcome.removed.push({ id: loser.id, by: winner.id, reason: `overruled by [${winner.id}]: ${why}` });
      if (loser === rule) break;
    }
  }
  applyOutcome(result, outcome, all);
  return outcome;
}

/** A new rule saying what another says is merged into it (see the file's comment); changes `gone` and `outcome`. */
function mergeSamePurpose(
  result: LearnResult,
  all: readonly Side[],
  fresh: readonly Side[],
  statements: ReadonlyArray<{ path: string; line: string }>,
  procedures: ReadonlyArray<{ path: string; text: string }>,
  gone: Set<string>,
  outcome: ConflictOutcome,
): void {
  const lines = statements.map(({ line }) => line);
  const appliedOf = (id: string) => result.applied.find((a) => a.status === 'applied' && a.id === id);
  for (const rule of fresh) {
    if (gone.has(rule.id)) continue;
    for (const other of all) {
      if (other.id === rule.id || gone.has(other.id) || (other.isNew && fresh.indexOf(other) < fresh.indexOf(rule)))
        continue;
      const same = samePurpose(rule.content, other.content);
      if (!same) continue;
      if (!other.isNew) {
        gone.add(rule.id);
        outcome.withdrawn.push({
          id: rule.id,
          reason: `says what [${other.id}] says (the same commands): merged into it`,
        });
        // the team's wording is kept unless it only named the command ("Run the tests with `TZ=UTC pnpm test`.")
        if (same === 'a-more' && !other.pinned && namesOnlyTheWay(other.content))
          outcome.reworded.push({ id: other.id, content: rule.content, support: rule.support });
        break;
      }
      // the better-evidenced one stays (a user's words are never folded into a rule the user did not say); of two
      // alike, the one that says more
      const order = compareStanding(rule.standing, other.standing);
      const keepRule = order < 0 || (order === 0 && same !== 'b-more');
      const [keep, drop] = keepRule ? [rule, other] : [other, rule];
      gone.add(drop.id);
      outcome.withdrawn.push({
        id: drop.id,
        reason: `says what [${keep.id}] says (the same commands): merged into it`,
      });
      // the sessions behind the one left out stand behind the one kept
      const kept = appliedOf(keep.id);
      if (kept) kept.op = { ...kept.op, support: unionSupport(kept.op.support, drop.support) };
      if (drop === rule) break;
    }
    if (gone.has(rule.id)) continue;
    // a line that says less (no one-test form, no flag, no condition the rule adds) does not say the rule already
    const said = statements.find(
      ({ line }) => samePurpose(rule.content, line) && !saysMoreThan(rule.content, line, lines),
    );
    if (said) {
      gone.add(rule.id);
      outcome.withdrawn.push({
        id: rule.id,
        reason: `the team's own text in ${said.path} says it already ("${said.line}")`,
      });
      continue;
    }
    const skill = procedures.find(({ text }) => procedureStates(text, rule.content));
    if (skill) {
      gone.add(rule.id);
      outcome.withdrawn.push({ id: rule.id, reason: `the skill ${skill.path} says it already (its steps)` });
    }
  }
}

/** New rules withdrawn before any conflict is weighed (the precision gates): never proposed, each with its reason. */
export function withdrawNewRules(result: LearnResult, withdrawn: ConflictOutcome['withdrawn']): void {
  applyOutcome(result, { reworded: [], withdrawn, removed: [], overrulingTeam: [], overruledByTeam: [] }, []);
}

function applyOutcome(result: LearnResult, outcome: ConflictOutcome, all: readonly Side[]): void {
  if (outcome.withdrawn.length === 0 && outcome.removed.length === 0 && outcome.reworded.length === 0) return;
  const supportOf = new Map(all.map((s) => [s.id, s.support]));
  const withdraw = new Map(outcome.withdrawn.map((w) => [w.id, w.reason]));
  const ops: DeltaOp[] = [
    ...outcome.reworded.map((r): DeltaOp => ({ op: 'UPDATE', id: r.id, content: r.content, support: r.support })),
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
      // the summary's "left out" counts it, as the warning saying so does
      result.record.totals.skipped++;
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
  const changes = applied.applied.filter((a) => !(a.op.op === 'REMOVE' && withdraw.has(a.id ?? '')));
  if (changes.length === 0) return;
  result.applied.push(...changes);
  const removed = changes.filter((a) => a.op.op === 'REMOVE').length;
  pushApplyNode(
    result,
    'conflicts',
    `${removed} rule(s) overruled by better-evidenced ones, ${changes.length - removed} reworded by a new rule saying more`,
    changes,
  );
}
