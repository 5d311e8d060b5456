import type { Step, ToolCallStep } from '../model';

// Whether the agent changed course after a user turn: its next words acknowledge being set right, or its next action
// differs from the one the turn came after. Undefined when nothing follows (the session ends on the turn).

/** An agent owning up, in the corpora's languages. */
const ACKNOWLEDGES =
  /^(?:you'?re right|you are right|sorry|my (?:mistake|bad)|good (?:point|catch)|got it|understood|right,|ah,? |oops|i see|noted|vous avez raison|d[ée]sol[ée]|compris|d'accord|entendu|понял|понятно|верно|извин|хорошо,|明白|好的|抱歉|对不起|了解|收到)/i;

/** What an action does, to compare two: the program and its subcommand, or the tool and all it was given (an edit
 * of the same file that writes other text is a change of course). */
function actionOf(call: ToolCallStep): string {
  if (call.command) {
    const words = call.command
      .trim()
      .split(/\s+/)
      .filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
    return words.slice(0, 2).join(' ');
  }
  return `${call.tool} ${call.input}`;
}

export function changedCourse(steps: readonly Step[], position: number): boolean | undefined {
  let before: ToolCallStep | undefined;
  for (let i = position - 1; i >= 0 && !before; i--) {
    const step = steps[i];
    if (step.kind === 'tool_call') before = step;
    if (step.kind === 'user' && !step.isMeta) break;
  }
  for (let i = position + 1; i < steps.length; i++) {
    const step = steps[i];
    if (step.kind === 'assistant' && ACKNOWLEDGES.test(step.text.trim())) return true;
    if (step.kind === 'tool_call') return before === undefined || actionOf(step) !== actionOf(before);
  }
  return undefined;
}
