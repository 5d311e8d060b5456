import { matchesCommand } from '../learn/rules/commandMatch';
import { ruleEvidence, sessionSignals, type RuleEvidence } from '../learn/rules/ruleEvidence';
import { ruleCommands } from '../learn/rules/ruleText';
import { commandRuns } from '../learn/sessionSignals';
import { classifyCommand } from '../trace/commands';
import { rulePurpose } from '../learn/rules/sameRule';
import { isNearDuplicate } from '../playbook/similarity';
import type { Bullet } from '../playbook/model';
import type { Trace } from '../trace/model';
import type { RuleFlag } from '../trust/kinds';
import type { MemoryItem, MemorySessionEvidence, MemoryVerdict } from './types';

// A memory is judged as the rule it would be: each stored session of the workspace is read by the same evidence
// reading the playbook's rules get (ruleEvidence.ts), as if the memory had been in play there.

function supports(evidence: RuleEvidence): boolean {
  // the rule was right and the session broke it: only when its own way then fixed what the other way broke
  return evidence.tag === 'helpful' || (evidence.tag === 'violated' && evidence.fix !== undefined);
}

/** A rule already says it: near the same words, or the same command for the same purpose (a memory has no section). */
function statesSame(memory: string, rule: string): boolean {
  if (isNearDuplicate(memory, rule)) return true;
  const purpose = rulePurpose(memory);
  return purpose !== undefined && purpose === rulePurpose(rule);
}

/** Whether some session of the workspace ran the command (as its key words lead a command part) and it passed. */
function ranAndPassed(command: string, traces: readonly Trace[]): boolean {
  return traces.some((t) =>
    commandRuns(t.steps).some((run) => !run.failed && run.parts.some((part) => matchesCommand(part, command))),
  );
}

/** `export NODE_OPTIONS=…`, `FOO=1`: a code span that sets a variable is an act too, though no command. */
const ASSIGNMENT = /^(?:export\s+|set\s+|setx\s+|\$env:)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(\S*)/;

function assignments(text: string): string[] {
  return [...text.matchAll(/`([^`\n]+)`/g)].flatMap((m) => (ASSIGNMENT.test(m[1].trim()) ? [m[1].trim()] : []));
}

/** Whether a session's passing command set the variable to the same value. */
function setIn(assignment: string, traces: readonly Trace[]): boolean {
  const [, name, value] = ASSIGNMENT.exec(assignment) ?? [];
  return traces.some((t) =>
    commandRuns(t.steps).some(
      (run) =>
        !run.failed && run.parts.some((part) => ASSIGNMENT.exec(part)?.slice(1, 3).join('=') === `${name}=${value}`),
    ),
  );
}

/**
 * The flag of a memory that names a command no session here ran and passed: one borne-out command must not carry
 * another ("before `pnpm db:seed`, run `export NODE_OPTIONS=…`").
 */
function unprovenFlag(text: string, traces: readonly Trace[]): RuleFlag | undefined {
  const unproven = [
    ...ruleCommands(text).prescribed.filter((c) => !ranAndPassed(c, traces)),
    ...assignments(text).filter((a) => !setIn(a, traces)),
  ];
  if (unproven.length === 0) return undefined;
  return {
    kind: 'untrusted-source',
    reason: `it names ${unproven.map((c) => `\`${c}\``).join(', ')}, which no session of this workspace ran and passed`,
  };
}

/** A command that says nothing of a project (`git status`, `ls`, `node`): any project's sessions run it. */
function isGeneric(command: string): boolean {
  const kind = classifyCommand(command);
  return kind === 'other' || kind === 'vcs';
}

/**
 * Each memory's verdict: supported when more sessions bear it out than go against it; contradicted when as many or
 * more go against it; unverified when none says anything; flagged (never judged, never proposed) when its text
 * screened as risky, or names a command no session here ran and passed. A memory of a file kept for every project is
 * supported only by a command of this project's own (a test, a build, a script), never by a generic one alone.
 * Sessions are read in id order, so the same memories and sessions give the same verdicts.
 */
export function judgeMemories(
  items: readonly MemoryItem[],
  traces: readonly Trace[],
  playbook: readonly Bullet[] = [],
): MemoryVerdict[] {
  const judged = items.filter((i) => i.flags.length === 0);
  const support = new Map<string, MemorySessionEvidence[]>(judged.map((i) => [i.id, []]));
  const against = new Map<string, MemorySessionEvidence[]>(judged.map((i) => [i.id, []]));
  const rules = judged.map((i) => ({ id: i.id, content: i.text }));
  const sorted = [...traces].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (rules.length > 0)
    for (const trace of sorted) {
      for (const evidence of ruleEvidence(trace, rules, sessionSignals(trace))) {
        const entry = { traceId: trace.id, steps: evidence.steps, reason: evidence.reason };
        if (supports(evidence)) support.get(evidence.id)?.push(entry);
        else if (evidence.tag === 'harmful') against.get(evidence.id)?.push(entry);
      }
    }
  return items.map((item) => {
    const sameAs = playbook.find((b) => statesSame(item.text, b.content))?.id;
    if (item.flags.length > 0) return { item, verdict: 'flagged', support: [], against: [], sameAs };
    const pro = support.get(item.id) ?? [];
    const con = against.get(item.id) ?? [];
    const verdict =
      con.length > 0 && con.length >= pro.length ? 'contradicted' : pro.length > 0 ? 'supported' : 'unverified';
    if (verdict !== 'supported') return { item, verdict, support: pro, against: con, sameAs };
    const unproven = unprovenFlag(item.text, sorted);
    if (unproven)
      return { item: { ...item, flags: [unproven] }, verdict: 'flagged', support: [], against: con, sameAs };
    if (item.scope === 'global' && ruleCommands(item.text).prescribed.every(isGeneric))
      return { item, verdict: 'unverified', support: [], against: con, sameAs };
    return { item, verdict, support: pro, against: con, sameAs };
  });
}
