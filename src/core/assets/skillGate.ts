import { actionKeys } from '../learn/rules/sameAction';
import type { Lesson } from '../learn/types';
import { isNearDuplicate } from '../playbook/similarity';

// A Skill is worth an agent's attention only as a procedure: several distinct steps, seen in two or more sessions.
// One that restates one rule is that rule again; a step said twice is one step; an error quoted from one session's
// output is that task's, not the procedure's.

/** A step of a procedure and the lessons that say it. */
export interface ProcedureStep {
  lessons: Lesson[];
}

/** A quoted error: the span after "fails with", or one that reads as an error line. */
const QUOTED_FAILURE = /\bfail(?:s|ed|ing)?\b[^`.;]{0,24}`[^`\n]*`/i;
const ERROR_SPAN = /`(?:[^`\n]*\b(?:error|exception|traceback|fatal|panicked)\b[^`\n]*|E[A-Z]{3,}[^`\n]*)`/i;

export function quotesError(text: string): boolean {
  return QUOTED_FAILURE.test(text) || ERROR_SPAN.test(text);
}

const sessionsOf = (lessons: readonly Lesson[]) => new Set(lessons.map((l) => l.evidence.traceId)).size;

/** Lessons that say one step: the same words, or the same commands in other words. */
function sameStep(a: Lesson, b: Lesson): boolean {
  if (isNearDuplicate(a.content, b.content)) return true;
  const [x, y] = [actionKeys(a.content), actionKeys(b.content)];
  return x.length > 0 && x.join('\n') === y.join('\n');
}

/** A procedure's lessons as its distinct steps, in first-seen order; a step one session's error makes is left out. */
export function procedureSteps(cluster: readonly Lesson[]): ProcedureStep[] {
  const steps: ProcedureStep[] = [];
  for (const lesson of cluster) {
    const same = steps.find((s) => sameStep(s.lessons[0], lesson));
    if (same) same.lessons.push(lesson);
    else steps.push({ lessons: [lesson] });
  }
  return steps.filter((s) => !(quotesError(s.lessons[0].content) && sessionsOf(s.lessons) < 2));
}

/**
 * Why a procedure is no Skill, or undefined when it is one: fewer than two distinct steps, steps that all restate one
 * rule, or fewer than `minSessions` sessions behind the steps that are left.
 */
export function skillRejection(
  steps: ReadonlyArray<ProcedureStep & { ruleIds: readonly string[] }>,
  minSessions: number,
): string | undefined {
  if (steps.length < 2) return 'one step: a rule says it already';
  const cited = new Set(steps.flatMap((s) => s.ruleIds));
  if (cited.size === 1 && steps.every((s) => s.ruleIds.length === 1))
    return `its steps restate one rule ([${[...cited][0]}])`;
  const sessions = sessionsOf(steps.flatMap((s) => s.lessons));
  if (sessions < Math.max(2, minSessions)) return `seen in ${sessions} session(s): not a recurring procedure`;
  return undefined;
}
