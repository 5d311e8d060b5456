import type { Step } from '../model';
import { isQuestion, sentencesOf } from './sentences';

// Whether the agent's last words before a user turn asked something: a question in its closing lines, or a set of
// options to choose from. An agent that asked and went on working did not wait for the answer: only its words after
// its last action count.

/** Two or more numbered or lettered choices, or "A or B?" with a question mark (any language). */
const OPTIONS =
  /(?:^|\n)\s*(?:\(?[1-9a-c][.)]|[-*]\s*\*{0,2}option)\s+\S[\s\S]*?\n\s*(?:\(?[2-9b-d][.)]|[-*]\s*\*{0,2}option)\s+\S/i;

export function agentAsked(steps: readonly Step[], position: number): boolean {
  for (let i = position - 1; i >= 0; i--) {
    const step = steps[i];
    if (step.kind === 'user' && !step.isMeta) return false;
    if (step.kind === 'tool_call' || step.kind === 'tool_result') return false;
    if (step.kind !== 'assistant') continue;
    const closing = step.text
      .trim()
      .split(/\n\s*\n/)
      .slice(-2)
      .join('\n');
    return sentencesOf(closing).some((s) => /[?？]\s*\**$/.test(s) || isQuestion(s)) || OPTIONS.test(closing);
  }
  return false;
}
