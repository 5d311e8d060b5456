import type { Lesson } from '../../learn/types';
import type { Step, ToolCallStep } from '../../trace/model';
import { inputValues } from '../../trace/toolInput';
import { errorKey, errorLine } from './errorLine';
import { escapeRegExp } from '../../util/regExp';

// An agent tool (not a shell command) asked for one thing that is not there: `Skill` with `commit` failing with
// "Unknown skill: commit". When the error names what was asked for, the thing is missing here, not the tool having a
// bad moment ("File has been modified since read" names nothing of the call); once two sessions ask for it, the next
// agent will too. One session's is a slip, so the lesson asks for two.

const MIN_SESSIONS = 2;
/** A value short enough to be a name (a skill, an agent, a command), not a document. */
const NAME = /^[\w@./:-]{1,60}$/;

/** The one named thing a call asks for: its input's only field, when that is a short name. */
function askedFor(call: ToolCallStep): string | undefined {
  const values = inputValues(call);
  if (values.length !== 1 || typeof values[0] !== 'string') return undefined;
  return NAME.test(values[0]) ? values[0] : undefined;
}

export function toolFailureLessons(traceId: string, steps: readonly Step[]): Lesson[] {
  const calls = new Map<string, ToolCallStep>();
  const lessons: Lesson[] = [];
  for (const step of steps) {
    if (step.kind === 'tool_call' && !step.command) calls.set(step.callId, step);
    if (step.kind !== 'tool_result' || !step.isError) continue;
    const call = calls.get(step.callId);
    const asked = call && askedFor(call);
    const error = errorLine(step.output.replace(/<\/?[\w_]+>/g, ' '));
    if (!call || !asked || !error) continue;
    const named = new RegExp(`(?:^|[^\\w.-])${escapeRegExp(asked)}(?:$|[^\\w-])`, 'i');
    if (!named.test(error)) continue;
    lessons.push({
      section: 'Pitfalls',
      kind: 'pitfall',
      key: `tool:${call.tool}:${asked}:${errorKey(error)}`,
      content: `There is no \`${asked}\` for the \`${call.tool}\` tool here: asking for it fails with \`${error}\`.`,
      minSupport: MIN_SESSIONS,
      evidence: { traceId, steps: [call.index, step.index] },
    });
  }
  return lessons;
}
