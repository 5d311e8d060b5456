import { classifyCommand, firstCommand, type CommandKind } from '../trace/commands';
import { exitIsAnswer, parseLine } from '../trace/shell';
import { editedFiles } from '../trace/edits';
import type { Step, ToolCallStep, ToolResultStep, Trace } from '../trace/model';
import { correctionSteps } from '../trace/turns/classify';

// What a session's outcome says, independent of any rule: its edits, checks, corrections, acceptances and reverts.

/** What the session's outcome says, independent of any rule. All indexes are step indexes, ascending. */
export interface SessionSignals {
  /** Tool calls that edited files. */
  edits: number[];
  /** Check runs (test/build/lint/typecheck) that passed after the last edit (all of them without edits). */
  checksPassedAfterLastEdit: number[];
  /** The last run of each check kind, when it failed: the session ended with that check failing. */
  checksFailingAtEnd: number[];
  /** User messages that corrected the agent. */
  corrections: number[];
  /** User messages that thanked or accepted ("thanks", "lgtm", "works now"). */
  acceptances: number[];
  /** Tool results that failed. */
  toolErrors: number[];
  interrupted: boolean;
  /** The session ends on a failing tool result or an error, with no later success or acceptance. */
  abandoned: boolean;
  /**
   * What threw away edits made earlier in the session: commands (git checkout --, restore, reset --hard, stash) and
   * the user's undo of the last edit (Aider's `/undo`).
   */
  reverted: number[];
}

export const CHECK_KINDS: readonly CommandKind[] = ['test', 'build', 'lint', 'typecheck'];

export interface Run {
  call: ToolCallStep;
  result: ToolResultStep;
  /** The command's first line, split at `&&`, `||`, `;` and `|`: each part is a command of its own. */
  parts: string[];
  kind: CommandKind;
  failed: boolean;
}

/** Shell commands paired with their results, as the offline miner reads them (first line of each command). */
export function commandRuns(steps: readonly Step[]): Run[] {
  const calls = new Map<string, ToolCallStep>();
  const runs: Run[] = [];
  for (const step of steps) {
    if (step.kind === 'tool_call' && step.command) calls.set(step.callId, step);
    if (step.kind !== 'tool_result') continue;
    const call = calls.get(step.callId);
    if (!call?.command) continue;
    const line = call.command.split('\n')[0].trim();
    runs.push({
      call,
      result: step,
      parts: commandParts(call.command),
      kind: classifyCommand(line),
      failed: failedResult(step, call.command),
    });
  }
  return runs;
}

/** Each command a line runs, as its text (a line the parser cannot read stays whole: it matches no rule's command). */
function commandParts(command: string): string[] {
  const parsed = parseLine(command);
  if (parsed.unparsed) return [command.split('\n')[0].trim()].filter(Boolean);
  return parsed.commands.map((c) => c.text.trim()).filter(Boolean);
}

/** A tool result that failed: an error, unless its exit status is the tool's answer (`rg` found nothing). */
export function failedResult(step: ToolResultStep, command?: string): boolean {
  if (command !== undefined && exitIsAnswer(command, step.exitCode)) return false;
  return step.isError || (step.exitCode !== undefined && step.exitCode !== 0);
}

const ACCEPTANCE =
  /\b(?:thanks|thank you|thx|perfect|lgtm|looks good|works now|that works|it works|great|awesome|ship it)\b/i;

/** What the session's outcome says, independent of any rule. */
export function sessionSignals(trace: Trace): SessionSignals {
  const runs = commandRuns(trace.steps);
  const edits: number[] = [];
  const editedSoFar: Array<{ index: number; files: string[] }> = [];
  const corrections: number[] = [];
  const acceptances: number[] = [];
  const toolErrors: number[] = [];
  const undone: number[] = [];
  let interrupted = trace.outcome.interrupted;
  let endsFailing = false;
  let sawAgentWork = false;
  const commands = new Map<string, string>();
  const corrected = correctionSteps(trace.steps);
  for (const step of trace.steps) {
    switch (step.kind) {
      case 'tool_call': {
        sawAgentWork = true;
        if (step.command) commands.set(step.callId, step.command);
        const files = editedFiles(step, trace.cwd);
        if (files.length > 0) {
          edits.push(step.index);
          editedSoFar.push({ index: step.index, files });
        }
        break;
      }
      case 'tool_result':
        endsFailing = failedResult(step, commands.get(step.callId));
        if (endsFailing) toolErrors.push(step.index);
        if (step.interrupted) interrupted = true;
        break;
      case 'error':
        endsFailing = true;
        break;
      case 'assistant':
        sawAgentWork = true;
        break;
      case 'user':
        // the user undoing the agent's last edit corrects it and throws that edit away
        if (step.undo && editedSoFar.length > 0) undone.push(step.index);
        // the opening request can sound like a correction ("don't use npm"): its place says it is not one
        if (!sawAgentWork) break;
        if (corrected.has(step.index)) corrections.push(step.index);
        else if (step.isMeta || step.confirmation) break;
        else if (ACCEPTANCE.test(step.text.slice(0, 300))) {
          acceptances.push(step.index);
          endsFailing = false;
        }
        break;
      default:
        break;
    }
  }
  const lastEdit = edits.length > 0 ? edits[edits.length - 1] : -1;
  const checks = runs.filter((r) => CHECK_KINDS.includes(r.kind));
  const lastOfKind = new Map<CommandKind, Run>();
  for (const run of checks) lastOfKind.set(run.kind, run);
  const reverted = runs
    .filter((run) => !run.failed)
    .filter((run) => {
      const before = editedSoFar.filter((e) => e.index < run.call.index).flatMap((e) => e.files);
      return before.length > 0 && run.parts.some((part) => revertsAny(part, before, trace.cwd));
    })
    .map((run) => run.call.index)
    .concat(undone)
    .sort((a, b) => a - b);
  return {
    edits,
    checksPassedAfterLastEdit: checks.filter((r) => !r.failed && r.call.index > lastEdit).map((r) => r.call.index),
    checksFailingAtEnd: [...lastOfKind.values()]
      .filter((r) => r.failed)
      .map((r) => r.call.index)
      .sort((a, b) => a - b),
    corrections,
    acceptances,
    toolErrors,
    interrupted,
    abandoned: endsFailing,
    reverted,
  };
}

/** Whether a git command throws away the working-tree changes to any of `files`. */
function revertsAny(part: string, files: readonly string[], cwd?: string): boolean {
  const words = firstCommand(part)
    .split(/\s+/)
    .map((w) => w.replace(/^['"]|['"]$/g, ''));
  if (words[0] !== 'git') return false;
  const [sub, ...rest] = words.slice(1);
  const flags = rest.filter((w) => w.startsWith('-'));
  const paths = rest.filter((w) => !w.startsWith('-'));
  switch (sub) {
    case 'reset':
      return flags.includes('--hard');
    case 'stash':
      // a bare `git stash` (or push/save) stashes every change; pop, apply, list and show do not
      if (paths.length === 0) return true;
      if (!['push', 'save'].includes(paths[0])) return false;
      return paths.length === 1 || paths.slice(1).some((p) => touchesAny(p, files, cwd));
    case 'restore':
      // `--staged` alone only unstages
      if (flags.includes('--staged') && !flags.includes('--worktree')) return false;
      return paths.some((p) => touchesAny(p, files, cwd));
    case 'checkout':
      // `git checkout main` switches branches; only a path that the session edited (or `.`) reverts
      return paths.some((p) => touchesAny(p, files, cwd));
    default:
      return false;
  }
}

function touchesAny(path: string, files: readonly string[], cwd?: string): boolean {
  let arg = cwd && path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
  arg = arg.replace(/^\.\//, '').replace(/\/$/, '');
  if (arg === '.' || arg === '') return true;
  return files.some((f) => f === arg || f.startsWith(`${arg}/`) || f.endsWith(`/${arg}`) || arg.endsWith(`/${f}`));
}
