import type { Step, Trace } from '../../../trace/model';
import { exitIsAnswer, identities, parseLine } from '../../../trace/shell';
import { heredocsWithoutBody } from '../../../trace/shell/heredocs';
import type { Gate, GateContext } from './types';

// A rule that tells an agent to run a command names one that runs: complete as written (the parser reads it, its
// heredocs have a body, its builtins their operand) and, when sessions ran it, that worked there at least once (exit
// 0, and a search that found something). A command cut from a longer line, or a failed search, is no check.

/** A command the rule prescribes: the backticked span right after a verb of running or using it. */
const PRESCRIBED =
  /(?:\b(?:run|runs|running|execute|exec|use|using|call|invoke|type)\b|\b(?:lance[rz]?|ex[ée]cute[rz]?|utilise[rz]?)\b|(?:запусти(?:те)?|выполни(?:те)?|используй(?:те)?)|运行|执行|使用|跑)\s*`([^`\n]+)`/giu;

/** Shell builtins that only act on an operand: alone, they check nothing (`export`, `cd`). */
const NEEDS_OPERAND = new Set(['cd', 'pushd', 'export', 'source', '.', 'unset', 'alias', 'eval', 'exec', 'set']);

/** An ellipsis leaves words out (Go's `./...` is a package pattern, not one): the form is a sketch. */
const ELLIPSIS = /…|(?<!\/)\.\.\./;
/** A form with a placeholder or an ellipsis stands for commands; it is not one to find in a session. */
const SCHEMATIC = new RegExp(`${ELLIPSIS.source}|<[^<>\\s][^<>]*>`);

/** Searches: found nothing is a failed check even when the status says 0. */
const SEARCHES = new Set(['rg', 'grep', 'egrep', 'fgrep', 'ag', 'ack', 'git grep', 'find', 'fd']);

const squeeze = (text: string) => text.trim().replace(/\s+/g, ' ');

/** A prohibition or the rejected side of a contrast just before the verb ("never run", "instead of using"). */
const RULED_OUT =
  /(?:\bnever|\bnot|n't|\bno|\bavoid|\binstead of|\brather than|\bjamais|\bpas|\bne|не|никогда|不要|别|禁止|不)\s*$/iu;

export function prescribedCommands(content: string): string[] {
  return [...content.matchAll(PRESCRIBED)]
    .filter((m) => !RULED_OUT.test(content.slice(Math.max(0, (m.index ?? 0) - 16), m.index)))
    .map((m) => squeeze(m[1]))
    .filter((c) => c.length > 0);
}

/** Why the command is not complete as written, or undefined. */
export function incompleteness(command: string): string | undefined {
  // `<pkg>` would read as a redirection: quoted, it is the word it stands for
  const line = command.replace(/<[^<>'"`$\n]+>/g, (m) => `'${m}'`);
  const parsed = parseLine(line);
  if (parsed.unparsed) return 'the shell cannot read it (cut short: an open quote or a dangling operator)';
  if (heredocsWithoutBody(line) > 0) return 'its heredoc has no body';
  if (parsed.commands.length === 0) return 'it runs no program';
  // the text, not the words: the parser keeps a declaration's assignments (`export A=1`) out of its words
  const bare = parsed.commands.find((c) => NEEDS_OPERAND.has(c.words[0]) && c.text.trim() === c.words[0]);
  if (bare) return `\`${bare.words[0]}\` alone does nothing to check`;
  return undefined;
}

function isSearch(command: string): boolean {
  const last = identities(command).at(-1);
  if (!last) return false;
  const program = last.words[0] === 'git' ? `git ${last.words[1] ?? ''}` : last.words[0];
  return SEARCHES.has(program);
}

type Outcome = 'worked' | 'failed' | 'found nothing';

function outcomeOf(command: string, result: Extract<Step, { kind: 'tool_result' }> | undefined): Outcome {
  if (!result) return 'failed';
  const code = result.exitCode ?? (result.isError ? 1 : 0);
  if (code !== 0) return exitIsAnswer(command, code) ? 'found nothing' : 'failed';
  if (result.isError) return 'failed';
  return isSearch(command) && result.output.trim() === '' ? 'found nothing' : 'worked';
}

/** How the sessions' runs of exactly this line went (a search is about its pattern: no looser match will do). */
function runsOf(command: string, traces: Iterable<Trace>): Outcome[] {
  const outcomes: Outcome[] = [];
  for (const trace of traces) {
    const results = new Map(trace.steps.flatMap((s) => (s.kind === 'tool_result' ? [[s.callId, s] as const] : [])));
    for (const step of trace.steps)
      if (step.kind === 'tool_call' && step.command && squeeze(step.command) === command)
        outcomes.push(outcomeOf(step.command, results.get(step.callId)));
  }
  return outcomes;
}

/**
 * A command no session ran is left to the screen, which holds back an act no session bore out; here, only what the
 * sessions show of it counts.
 */
function failedRuns(command: string, context: GateContext): string | undefined {
  if (SCHEMATIC.test(command)) return undefined;
  const outcomes = runsOf(command, context.traces.values());
  if (outcomes.length === 0 || outcomes.includes('worked')) return undefined;
  const what = outcomes.includes('found nothing') ? 'found nothing' : 'failed';
  return `it ran ${outcomes.length} time(s) in the sessions and ${what} every time`;
}

export const completeCommandGate: Gate = {
  name: 'complete-command',
  check: (rule, context) => {
    for (const command of prescribedCommands(rule.content)) {
      const why = (ELLIPSIS.test(command) ? undefined : incompleteness(command)) ?? failedRuns(command, context);
      if (why) return `it prescribes \`${command}\`, which is no check: ${why}`;
    }
    return undefined;
  },
};
