import {
  matchesCommand,
  ruleCommands,
  ruleEvidence,
  sessionSignals,
  type RuleEvidence,
} from '../learn/rules/ruleEvidence';
import { mineLessons } from '../llm/offline/miner';
import type { LessonKind } from '../playbook/delta';
import { emptyPlaybook } from '../playbook/markdown';
import type { Trace } from '../trace/model';
import { lessonCommands, sameCommands } from './lessonCommands';

// The replay: each later session judged as if the earlier part's rules had been in play. A rule would have
// prevented a session's mistake when the session did otherwise and paid for it — its evidence is 'violated' on the
// steps of the mistake, and the mistake's fix is the rule's own way — or when the session had to learn the very
// lesson the rule states. It would have misled the session when following it went wrong ('harmful'); it agreed when
// following it worked ('helpful').

export interface LearnedRule {
  id: string;
  section: string;
  content: string;
  /** The lesson key the learner gave it (the offline miner's), when it has one. */
  key?: string;
}

/** The kinds of lesson that record a mistake: a failure and its fix, or the user correcting the agent. */
export const MISTAKE_KINDS: readonly LessonKind[] = ['pitfall', 'procedure', 'preference'];

export interface Mistake {
  sessionId: string;
  kind: LessonKind;
  key?: string;
  /** The lesson the session had to learn, as the offline miner states it. */
  lesson: string;
  steps: number[];
  /** Ids of the rules that would have prevented it, in rule order. */
  preventedBy: string[];
}

export type Verdict = 'prevented' | 'misled' | 'agreed' | 'untouched';

export interface RuleReplay {
  id: string;
  section: string;
  content: string;
  key?: string;
  /** Session ids, in time order, where the rule would have prevented a mistake. */
  prevented: string[];
  /** Where following it would have gone wrong. */
  misled: string[];
  /** Where the session did what it says and that worked. */
  agreed: string[];
  /** Later sessions where it neither prevented a mistake, nor misled, nor agreed. */
  untouched: number;
  /** Mistakes of the later sessions it covers. */
  mistakesPrevented: number;
}

export interface Replay {
  rules: RuleReplay[];
  mistakes: Mistake[];
}

/** The rule says what the lesson says: the learner's key, or the same commands with the same fix. */
export function statesLesson(rule: LearnedRule, lesson: { key?: string; content: string }): boolean {
  if (rule.key !== undefined && rule.key === lesson.key) return true;
  return sameCommands(rule.content, lesson.content);
}

function overlaps(a: readonly number[], b: readonly number[]): boolean {
  const set = new Set(a);
  return b.some((x) => set.has(x));
}

/** The fix the lesson records is a way the rule prescribes (a rule forbidding a tool does not fix every failure). */
function fixedTheRulesWay(rule: LearnedRule, lesson: { content: string }): boolean {
  const fixes = lessonCommands(lesson.content).fixes.map((words) => words.join(' '));
  return ruleCommands(rule.content).prescribed.some((way) => fixes.some((fix) => matchesCommand(fix, way)));
}

/** The same rule in two runs (the backtest's and a proposal's): the same text, or the same lesson and commands. */
export function sameRule(a: { content?: string; key?: string }, b: { content?: string; key?: string }): boolean {
  const text = (t: string | undefined) => t?.replace(/\s+/g, ' ').trim();
  if (a.content !== undefined && text(a.content) === text(b.content)) return true;
  // a key names a purpose ("how the tests run"): the commands must agree too
  return a.key !== undefined && a.key === b.key && sameCommands(a.content ?? '', b.content ?? '');
}

/**
 * Whether a user's words the lesson cites corrected something the agent did (the lesson cites the agent's action): a
 * convention the user states up front, in each session, is no mistake of the agent's and prevents nothing.
 */
function correctsAnAction(trace: Trace, steps: readonly number[]): boolean {
  const cited = new Set(steps);
  return trace.steps.some((s) => cited.has(s.index) && s.kind === 'tool_call');
}

/** One session's verdict for each rule, and its mistakes with the rules that cover them. */
function replaySession(
  trace: Trace,
  rules: readonly LearnedRule[],
): { verdicts: Array<{ verdict: Verdict; covered: number }>; mistakes: Mistake[] } {
  const evidence = ruleEvidence(
    trace,
    rules.map((r) => ({ id: r.id, content: r.content })),
    sessionSignals(trace),
  );
  const lessons = mineLessons(trace, emptyPlaybook()).lessons.filter(
    (l) => MISTAKE_KINDS.includes(l.kind) && (l.kind !== 'preference' || correctsAnAction(trace, l.evidence.steps)),
  );
  // a rule the judge calls harmful here may still state the very lesson (the judge reads the command a rule warns
  // about, "when `a` fails", as one it prescribes): the lesson decides
  const covers = (rule: LearnedRule, said: RuleEvidence, lesson: (typeof lessons)[number]) =>
    (said.tag === 'violated' && overlaps(said.steps, lesson.evidence.steps) && fixedTheRulesWay(rule, lesson)) ||
    statesLesson(rule, lesson);
  const mistakes: Mistake[] = lessons.map((lesson) => ({
    sessionId: trace.id,
    kind: lesson.kind,
    ...(lesson.key !== undefined ? { key: lesson.key } : {}),
    lesson: lesson.content,
    steps: lesson.evidence.steps,
    preventedBy: rules.filter((rule, i) => covers(rule, evidence[i], lesson)).map((r) => r.id),
  }));
  const verdicts = rules.map((rule, i) => {
    const covered = mistakes.filter((m) => m.preventedBy.includes(rule.id)).length;
    const tag = evidence[i].tag;
    // prevented only where a mistake of the session shows it, so a rule's sessions add up to the total
    const verdict: Verdict =
      covered > 0 ? 'prevented' : tag === 'harmful' ? 'misled' : tag === 'helpful' ? 'agreed' : 'untouched';
    return { verdict, covered };
  });
  return { verdicts, mistakes };
}

/** Every later session (in the order given) judged against every rule. */
export function replay(rules: readonly LearnedRule[], later: readonly Trace[]): Replay {
  const figures: RuleReplay[] = rules.map((r) => ({
    id: r.id,
    section: r.section,
    content: r.content,
    ...(r.key !== undefined ? { key: r.key } : {}),
    prevented: [],
    misled: [],
    agreed: [],
    untouched: 0,
    mistakesPrevented: 0,
  }));
  const mistakes: Mistake[] = [];
  for (const trace of later) {
    const session = replaySession(trace, rules);
    mistakes.push(...session.mistakes);
    session.verdicts.forEach(({ verdict, covered }, i) => {
      const rule = figures[i];
      rule.mistakesPrevented += covered;
      if (verdict === 'untouched') rule.untouched++;
      else rule[verdict].push(trace.id);
    });
  }
  return { rules: figures, mistakes };
}
