import type { Step } from '../model';
import { agentAsked } from './asked';
import { changedCourse } from './course';
import { hasCorrectionCue, isContentless, movesOn } from './cues';
import { sentencesOf } from './sentences';
import { standingSentences } from './standing';

// A user turn read by its place in the dialogue, not by its words alone: what the agent said and did just before,
// and what it did next. When unsure, a turn is a task request, never a standing instruction.

export type TurnKind =
  /** Words the user did not type: injected context, boilerplate (see boilerplate.ts). */
  | 'context'
  /** An answer to the agent tool's own yes/no prompt. */
  | 'confirmation'
  /** An answer to the agent's question or choice. */
  | 'reply'
  /** Work asked of this task. */
  | 'task'
  /** A halt or correction of the agent's last action, followed by a change of course. */
  | 'correction'
  /** A rule stated as general, not about this task. */
  | 'standing';

export interface Turn {
  /** The user step. */
  index: number;
  kind: TurnKind;
  /** The user step whose words carry the turn's content: the next one for a contentless "no, wait". */
  contentIndex: number;
  /** The content's words ('' for an undo). */
  text: string;
  /** The content's sentences that state a standing instruction (any kind of turn may hold some). */
  standing: string[];
}

/** The user spoke while the agent was acting (its last step an action, not words handing the turn back). */
function midWork(steps: readonly Step[], position: number): boolean {
  for (let i = position - 1; i >= 0; i--) {
    const step = steps[i];
    if (step.kind === 'user' && step.isMeta) continue;
    return step.kind === 'tool_call' || step.kind === 'tool_result';
  }
  return false;
}

function interrupted(steps: readonly Step[], position: number): boolean {
  const step = steps[position];
  if (step.kind === 'user' && /\[Request interrupted by user/.test(step.text)) return true;
  const before = steps[position - 1];
  return (
    (before?.kind === 'tool_result' && before.interrupted === true) ||
    (before?.kind === 'error' && /^turn aborted/i.test(before.text))
  );
}

/** The user's next typed turn after `position`, if any. */
function nextTyped(steps: readonly Step[], position: number): number | undefined {
  for (let i = position + 1; i < steps.length; i++) {
    const step = steps[i];
    if (step.kind === 'user' && !step.isMeta && !step.confirmation && !step.undo) return i;
  }
  return undefined;
}

export function classifyTurns(steps: readonly Step[]): Turn[] {
  const turns: Turn[] = [];
  let sawAgent = false;
  steps.forEach((step, position) => {
    if (step.kind === 'assistant' || step.kind === 'tool_call') sawAgent = true;
    if (step.kind !== 'user') return;
    const turn = (kind: TurnKind, contentIndex = step.index, text = step.text): Turn => ({
      index: step.index,
      kind,
      contentIndex,
      text,
      standing: kind === 'context' || kind === 'confirmation' ? [] : standingSentences(text),
    });
    // an undo is a correction without words, whatever else marks the step; before any agent work it undoes nothing
    if (step.undo) return turns.push(sawAgent ? turn('correction', step.index, '') : turn('context'));
    if (step.isMeta) return turns.push(turn('context'));
    if (step.confirmation) return turns.push(turn('confirmation'));
    const own = turn('task');
    // the opening turn asks for the work; it is standing only when every sentence of it is
    if (!sawAgent) {
      const said = sentencesOf(step.text);
      return turns.push(
        own.standing.length > 0 && own.standing.length === said.length ? { ...own, kind: 'standing' } : own,
      );
    }
    const halted = step.queued === true || interrupted(steps, position);
    const cue = hasCorrectionCue(step.text);
    const course = changedCourse(steps, position);
    const asked = agentAsked(steps, position);
    // words cutting into the agent's work, or refusing what it did, then a change of course: a correction
    // (words alone that cut in, with no refusal in them, need the change of course seen: "great" at the end is not one)
    const corrects =
      halted || cue ? course !== false : midWork(steps, position) && course === true && !movesOn(step.text);
    if (corrects && !(asked && !halted)) {
      const next = isContentless(step.text) ? nextTyped(steps, position) : undefined;
      const content = next === undefined ? undefined : steps[next];
      return turns.push(
        content?.kind === 'user' ? turn('correction', content.index, content.text) : turn('correction'),
      );
    }
    if (asked) return turns.push(turn('reply'));
    const said = sentencesOf(step.text);
    return turns.push(
      own.standing.length > 0 && own.standing.length === said.length ? { ...own, kind: 'standing' } : own,
    );
  });
  return turns;
}

/** The user steps read as corrections, by index. */
export function correctionSteps(steps: readonly Step[]): Set<number> {
  return new Set(
    classifyTurns(steps)
      .filter((t) => t.kind === 'correction')
      .map((t) => t.index),
  );
}
