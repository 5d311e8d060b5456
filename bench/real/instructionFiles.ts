import { posix } from 'node:path';
import { parseLine } from '../../src/core/trace/shell';
import { homeOf } from '../../src/core/trace/homePaths';
import type { Trace, ToolCallStep, ToolResultStep } from '../../src/core/trace/model';

// The repository's instruction files as the sessions themselves show them: the newest whole read of each. The
// repositories are not here, so a benchmark workspace holds only what an agent was seen reading in full; a partial
// read (a line range, a cut output) is not the file, and a file never read in full stays absent.

/** Repository-relative paths of the files agents load as instructions. A fixed set: trace text only picks among them. */
const INSTRUCTION_PATH =
  /^(?:(?:[\w.@-]+\/)*(?:CLAUDE|AGENTS|CONVENTIONS|GEMINI)\.md|\.github\/copilot-instructions\.md|\.claude\/skills\/[\w.@-]+\/SKILL\.md|\.cursor\/rules\/[\w.@-]+)$/;

export function isInstructionPath(rel: string): boolean {
  return INSTRUCTION_PATH.test(rel) && !rel.split('/').some((part) => part === '..' || part === '.');
}

/** The forms a session writes its working folder in: as recorded, and with its home folder shown as `~` or `$HOME`. */
function rootForms(cwd: string): string[] {
  const home = homeOf(cwd);
  const rest = home === undefined ? undefined : cwd.slice(home.length);
  return [cwd, ...(rest === undefined ? [] : [`~${rest}`, `$HOME${rest}`])].map((f) => f.replace(/\/+$/, ''));
}

/** `path` relative to the session's working folder (`.` for the folder itself), or undefined outside it. */
function insideRoot(path: string, cwd: string): string | undefined {
  if (!/^[/~$]/.test(path)) return posix.normalize(path);
  const root = rootForms(cwd).find((form) => path === form || path.startsWith(`${form}/`));
  return root === undefined ? undefined : posix.normalize(`./${path.slice(root.length)}`);
}

/** The instruction file `path` names, relative to the working folder; `workdir` is where a shell call ran. */
function repositoryPath(path: string, cwd: string, workdir: string | undefined): string | undefined {
  const base = workdir === undefined ? '.' : insideRoot(workdir, cwd);
  const rel = base === undefined ? undefined : /^[/~$]/.test(path) ? insideRoot(path, cwd) : posix.join(base, path);
  return rel !== undefined && isInstructionPath(rel) ? rel : undefined;
}

/** Claude Code's Read result: `<padded line number>→<line>` per line, then any `<system-reminder>` it appends. */
const NUMBERED = /^ *(\d+)→(.*)$/;
/** Claude Code reads 2,000 lines unless told otherwise: a result that long may be cut. */
const READ_DEFAULT_LINES = 2000;

export function numberedReadText(output: string): string | undefined {
  const lines = output.split('\n');
  const text: string[] = [];
  for (const line of lines) {
    const m = NUMBERED.exec(line);
    if (!m) break;
    if (Number(m[1]) !== text.length + 1) return undefined; // not from line 1, or a gap: not the whole file
    text.push(m[2]);
  }
  if (text.length === 0 || text.length >= READ_DEFAULT_LINES) return undefined;
  // what follows the numbered lines may only be the client's own reminders
  const rest = lines.slice(text.length).join('\n').trim();
  if (rest !== '' && !/^(?:<system-reminder>[\s\S]*?<\/system-reminder>\s*)+$/.test(rest)) return undefined;
  return `${text.join('\n')}\n`;
}

function claudeRead(call: ToolCallStep, result: ToolResultStep, cwd: string): [string, string] | undefined {
  let input: { file_path?: unknown; offset?: unknown; limit?: unknown };
  try {
    input = JSON.parse(call.input) as typeof input;
  } catch {
    return undefined;
  }
  if (typeof input.file_path !== 'string' || input.offset !== undefined || input.limit !== undefined) return undefined;
  const rel = repositoryPath(input.file_path, cwd, undefined);
  const text = rel === undefined ? undefined : numberedReadText(result.output);
  return rel === undefined || text === undefined ? undefined : [rel, text];
}

/** Codex's shell output: a header (exit code, wall time, and a line count when it cut the output) before `Output:`. */
const CODEX_HEADER = /^Exit code: 0\nWall time: [^\n]*\n((?:Total output lines: \d+\n)?)Output:\n/;

/** A `cat <file>` or `sed -n '1,Np' <file>` alone on its line (a pipe or a second command changes what it prints). */
function printedFile(command: string): { path: string; lastLine?: number } | undefined {
  const parsed = parseLine(command);
  if (parsed.unparsed || parsed.commands.length !== 1 || parsed.commands[0].cwd !== undefined) return undefined;
  const words = parsed.commands[0].words;
  if (words[0] === 'cat' && words.length === 2 && !words[1].startsWith('-')) return { path: words[1] };
  const range = words[0] === 'sed' && words.length === 4 && words[1] === '-n' ? /^1,(\d+)p$/.exec(words[2]) : null;
  return range ? { path: words[3], lastLine: Number(range[1]) } : undefined;
}

function shellRead(call: ToolCallStep, result: ToolResultStep, cwd: string): [string, string] | undefined {
  const printed = call.command === undefined ? undefined : printedFile(call.command);
  const rel = printed === undefined ? undefined : repositoryPath(printed.path, cwd, call.workdir);
  if (rel === undefined) return undefined;
  const header = CODEX_HEADER.exec(result.output);
  // Codex notes a line count only when it cut the output in its middle
  if (!header || header[1] !== '') return undefined;
  const text = result.output.slice(header[0].length);
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  // `sed -n '1,Np'` printed the whole file only if the file ended before line N
  if (printed?.lastLine !== undefined && lines >= printed.lastLine) return undefined;
  return text.trim() === '' ? undefined : [rel, text];
}

const timeOf = (trace: Trace, step: { time?: string }) =>
  Date.parse(step.time ?? trace.endedAt ?? trace.startedAt ?? '') || 0;

/**
 * Each instruction file (repository-relative path → text) as the newest whole read of it in `traces` showed it: a
 * Claude Code Read without offset or limit, its line numbers stripped, or a `cat`/`sed -n '1,Np'` that printed all
 * of it. Outputs cut by the reader or the agent are left out: they are not the file.
 */
export function instructionFiles(traces: readonly Trace[]): Map<string, string> {
  const reads: Array<{ rel: string; text: string; at: number; order: string }> = [];
  for (const trace of traces) {
    if (trace.cwd === undefined) continue;
    const calls = new Map(trace.steps.flatMap((s) => (s.kind === 'tool_call' ? [[s.callId, s] as const] : [])));
    for (const step of trace.steps) {
      if (step.kind !== 'tool_result' || step.isError || step.truncatedFrom !== undefined) continue;
      const call = calls.get(step.callId);
      if (!call || call.sidechain !== step.sidechain) continue;
      const read = call.tool === 'Read' ? claudeRead(call, step, trace.cwd) : shellRead(call, step, trace.cwd);
      if (read)
        reads.push({
          rel: read[0],
          text: read[1],
          at: timeOf(trace, step),
          order: `${trace.id}\u0000${String(step.index).padStart(9, '0')}`,
        });
    }
  }
  // newest last; ties in time by session and step, so the same corpus gives the same files
  reads.sort((a, b) => a.at - b.at || (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  return new Map(reads.map((r) => [r.rel, r.text]));
}
