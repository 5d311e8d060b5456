import { dirname } from 'node:path';
import { readLines } from '../lines';
import type { Step, StepInput, TraceDraft } from '../model';
import { shortHash } from '../../util/hash';
import { storedOutput } from './common';
import type { ReadContext, SessionFile, SourceReader } from './types';
import { titleLine } from '../../util/text';
import { pushStep } from './sessionDraft';
import { atZone, commitTimes, sessionClock, type LocalTime } from './aiderClock';
import { appliedEdit, commitNotice, confirmation, dirtyCommit, shellWord, slashCommand } from './aiderNotices';

// Aider appends every session of a repo to one Markdown file, `.aider.chat.history.md` (research §7):
// `# aider chat started at <local time>` opens a session, `#### ` lines are what the user typed, `> ` lines are aider's
// own output (banner, commands and their output, errors) and everything else is the model's reply. There are no ids,
// per-message times or tool structure; commands are recovered from `> Running <cmd>` / `> ## Running: <cmd>` lines and
// from the user's `/run`, `/test`, `/git` and `!` commands, their output being the `> ` lines that follow. Aider's own
// edits ("Applied edit to") and commits ("Commit <hash>") become tool calls, its yes/no prompts confirmation steps,
// and `/undo` the user undoing the last edit. Every entry Aider writes ends with a newline: a last line without one
// was cut, and is dropped with a warning.

const SESSION_HEADER = /^# aider chat started at (\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\s*$/;
const RUNNING = /^(## )?Running:? (.+?)\s*$/;
/** Slash commands that run a command whose output follows, under the tool name they are stored with. */
const RUN_COMMANDS: Record<string, string> = { run: 'run', test: 'test', git: 'git' };
/** Slash commands that carry a real request rather than steering the tool. */
const PROMPT_COMMANDS = new Set(['ask', 'code', 'architect', 'context']);
const OUTPUT_ERROR = /\berror\b|\bfailed\b|\bexit code: [1-9]|\btraceback\b/i;
const NOTICE_ERROR = /\berror\b|\bexception\b|did not conform to the edit format|SEARCH\/REPLACE blocks? failed/i;
/** Notice lines that merely name things (commit subjects, file names) and can contain "error" harmlessly. */
const NAMING_NOTICE =
  /^(?:Commit [0-9a-f]+ |Applied edit to |Added |Dropping |You can use \/undo|Repo-map:|Git repo:|Tokens:|https?:\/\/)/;
const MAX_ERROR_CHARS = 2000;

interface Command {
  callId: string;
  lines: string[];
}

/** A `> ` line (head) or an unquoted continuation line of the same message. */
interface QuoteLine {
  text: string;
  head: boolean;
}

interface Session {
  start: string;
  local: LocalTime;
  steps: Step[];
  /** Commits the session made, as Aider printed their hashes: the clock's best evidence. */
  hashes: string[];
  /** Files the next commit holds: those edited, or committed before editing, since the last commit. */
  toCommit: string[];
  /** The question of a confirmation Aider echoed as user input (a group's "all"): its `> ` line is the same one. */
  echoed?: string;
  unknown: Record<string, number>;
  version?: string;
  model?: string;
  title?: string;
  calls: number;
}

interface Parser {
  file: SessionFile;
  ctx: ReadContext;
  sessions: Session[];
  current?: Session;
  preamble: number;
  user: string[];
  quote: QuoteLine[];
  /** Plain lines: the model's reply, pushed when the next block starts. */
  plain: string[];
  inFence: boolean;
  /** Inside the unquoted rest of a multi-line `> ` message. */
  continuing: boolean;
  twoSpaceBreaks: boolean;
  lastLineNo: number;
  /** The last line read, processed once the next one comes: a file cut mid-line ends on a partial one. */
  pending?: { text: string; lineNo: number };
  command?: Command;
}

export const aiderReader: SourceReader = {
  agent: 'aider',
  // 2: edits, commits, undos, confirmations and session time zones
  version: 2,

  accepts(path) {
    return path.endsWith('.md');
  },

  sniff(_path, head) {
    return /^(?:\uFEFF)?# aider chat started at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/m.test(head);
  },

  claims(path) {
    return path.endsWith('.aider.chat.history.md');
  },

  async read(file: SessionFile, ctx: ReadContext): Promise<TraceDraft[]> {
    const p: Parser = {
      file,
      ctx,
      sessions: [],
      preamble: 0,
      user: [],
      quote: [],
      plain: [],
      inFence: false,
      continuing: false,
      twoSpaceBreaks: false,
      lastLineNo: 0,
    };
    const result = await readLines(file.path, ({ text, lineNo }) => onLine(p, text, lineNo), {
      maxLineBytes: ctx.maxLineBytes,
    });
    const cut = result.trailingBytes > 0 && p.pending?.lineNo === result.lines;
    if (p.pending && !cut) processPending(p);
    const cutSession = cut ? p.current : undefined;
    endSession(p);
    if (result.skippedLongLines > 0)
      ctx.warn(`${file.path}: ${result.skippedLongLines} line(s) over ${ctx.maxLineBytes} bytes skipped`);
    if (p.preamble > 0)
      ctx.warn(`${file.path}: ${p.preamble} line(s) before the first "# aider chat started at" header skipped`);
    if (cut) {
      const which = cutSession ? `of the session started at ${cutSession.start}` : 'before any session';
      ctx.warn(`${file.path}: the file ends mid-line (cut): the last line, ${which}, was dropped`);
    }
    const commits = await commitTimes(
      dirname(file.path),
      p.sessions.map((session) => session.local),
    );
    const seen = new Map<string, number>();
    const traces: TraceDraft[] = [];
    for (const session of p.sessions) {
      // Two sessions can start in the same second: the later ones get a suffix so ids stay unique.
      const n = (seen.get(session.start) ?? 0) + 1;
      seen.set(session.start, n);
      // Prompts answered at start-up (add .aider* to .gitignore?) are no session of their own.
      if (session.steps.every((step) => step.kind === 'user' && step.confirmation)) continue;
      const hash = shortHash(`${file.path}${session.start}${n > 1 ? `#${n}` : ''}`, 16);
      if (traces.length === 0 && p.preamble > 0) session.unknown['preamble-lines'] = p.preamble;
      const clock = sessionClock(session.local, session.hashes, commits);
      traces.push({
        id: `aider:${hash}`,
        agent: 'aider',
        agentVersion: session.version,
        cwd: dirname(file.path),
        title: session.title,
        startedAt: atZone(session.local, clock.zone),
        clock,
        source: { path: file.path, bytes: file.bytes },
        steps: session.steps,
        unknown: session.unknown,
        warnings: [],
      });
    }
    return traces;
  },
};

/** readLines drops empty lines; the gap in line numbers puts them back (blank lines end blocks here). */
function onLine(p: Parser, text: string, lineNo: number): void {
  if (p.pending) processPending(p);
  p.pending = { text, lineNo };
}

function processPending(p: Parser): void {
  const { text, lineNo } = p.pending!;
  p.pending = undefined;
  for (let n = p.lastLineNo + 1; n < lineNo; n++) processLine(p, '');
  p.lastLineNo = lineNo;
  processLine(p, text);
}

function processLine(p: Parser, raw: string): void {
  const header = SESSION_HEADER.exec(raw);
  if (header) {
    endSession(p);
    const [, y, mo, d, h, mi, s] = header;
    // Local time without a zone: placed on the clock once the file is read (aiderClock).
    p.current = {
      start: `${y}-${mo}-${d} ${h}:${mi}:${s}`,
      local: { y: Number(y), mo: Number(mo), d: Number(d), h: Number(h), mi: Number(mi), s: Number(s) },
      steps: [],
      hashes: [],
      toCommit: [],
      unknown: {},
      calls: 0,
    };
    return;
  }
  if (!p.current) {
    if (raw.trim()) p.preamble++;
    return;
  }
  const isUser = raw.startsWith('#### ') || raw === '####';
  const isQuote = raw.startsWith('> ') || raw === '>';
  if (p.continuing && !isUser && !isQuote) {
    // aider quotes only the first line of a multi-line message and ends the message with two spaces.
    p.quote.push({ text: raw.replace(/ {2}$/, ''), head: false });
    // The closing two spaces follow text: aider rstrips the message before adding them.
    if (/\S {2}$/.test(raw)) p.continuing = false;
    return;
  }
  p.continuing = false;
  const line = raw.replace(/ {2}$/, '');
  // Aider writes the user's input after a blank line, each line ending in two spaces: in a file seen to use those
  // breaks, such a line inside a fence is the user after a reply cut mid-fence (interrupted), not code.
  const userAfterCutReply =
    isUser && p.twoSpaceBreaks && / {2}$/.test(raw) && p.plain.length > 0 && p.plain[p.plain.length - 1] === '';
  if (p.inFence && !isQuote && !userAfterCutReply) {
    // Inside a code fence of the reply, `#### ` is code, not the user.
    if (/^\s*```/.test(line)) p.inFence = false;
    p.plain.push(line);
    return;
  }
  if (isUser) {
    settlePlain(p);
    flushQuote(p);
    closeCommand(p);
    p.user.push(line.slice(5));
  } else if (isQuote) {
    flushUser(p);
    settlePlain(p);
    p.quote.push({ text: line.slice(2), head: true });
    if (/ {2}$/.test(raw)) p.twoSpaceBreaks = true;
    // Only trusted once the file is seen to use the two-space line breaks (older histories may not).
    else if (p.twoSpaceBreaks && raw !== '>') p.continuing = true;
  } else {
    flushUser(p);
    flushQuote(p);
    if (line.trim() === '' && p.plain.length === 0) return;
    if (/^\s*```/.test(line)) p.inFence = true;
    p.plain.push(line);
  }
}

function push(session: Session, step: StepInput): void {
  session.echoed = undefined;
  pushStep(session.steps, step);
}

function flushUser(p: Parser): void {
  const session = p.current;
  if (!session || p.user.length === 0) return;
  const text = p.user.join('\n').trim();
  p.user = [];
  if (!text) return;
  // A prompt answered for a whole group ("all") is echoed as user input before its own `> ` line.
  const echo = text.includes('\n') ? undefined : confirmation(text);
  if (echo) {
    closeCommand(p);
    push(session, { kind: 'user', text, isMeta: true, confirmation: true });
    session.echoed = echo.question;
    return;
  }
  const command = slashCommand(text);
  const meta = command !== undefined && !(command.name && PROMPT_COMMANDS.has(command.name));
  if (!meta) session.title ??= titleLine(text);
  const undo = command?.name === 'undo' ? true : undefined;
  push(session, { kind: 'user', text, isMeta: meta ? true : undefined, undo });
  const tool = command?.name ? RUN_COMMANDS[command.name] : undefined;
  if (tool && command?.args) openCommand(p, tool, tool === 'git' ? `git ${command.args}` : command.args);
}

function openCommand(p: Parser, tool: string, commandLine: string): void {
  const session = p.current;
  if (!session) return;
  closeCommand(p);
  p.command = { callId: pushCall(session, tool, { command: commandLine }, commandLine), lines: [] };
}

/** A tool call; its id numbers it within the session. */
function pushCall(session: Session, tool: string, input: Record<string, unknown>, command?: string): string {
  const callId = `aider-${tool.replace(/\s+/g, '-')}-${++session.calls}`;
  push(session, { kind: 'tool_call', callId, tool, command, input: JSON.stringify(input) });
  return callId;
}

/** An edit or commit Aider reports done: a call with its successful result, the notice itself. */
function pushDone(p: Parser, tool: string, input: Record<string, unknown>, notice: string, command?: string): void {
  const session = p.current;
  if (!session) return;
  closeCommand(p);
  const callId = pushCall(session, tool, input, command);
  push(session, { kind: 'tool_result', callId, output: notice, isError: false });
}

function closeCommand(p: Parser): void {
  const session = p.current;
  const command = p.command;
  p.command = undefined;
  if (!session || !command) return;
  const output = command.lines.join('\n').replace(/^\n+|\s+$/g, '');
  if (!output) return;
  push(session, {
    kind: 'tool_result',
    callId: command.callId,
    ...storedOutput(output, p.ctx.maxOutputChars),
    isError: OUTPUT_ERROR.test(output),
  });
}

/** Plain lines are the model's reply; it also ends the open command's output. */
function settlePlain(p: Parser): void {
  const session = p.current;
  p.inFence = false;
  if (!session || p.plain.length === 0) return;
  const lines = p.plain;
  p.plain = [];
  closeCommand(p);
  const text = lines.join('\n').trim();
  if (text) push(session, { kind: 'assistant', text, model: session.model });
}

function flushQuote(p: Parser): void {
  const session = p.current;
  if (!session || p.quote.length === 0) return;
  const lines = p.quote;
  p.quote = [];
  let notices: QuoteLine[] = [];
  // what Aider did, and the prompts it asked, come in order with its other messages: those before are settled first
  const settle = () => {
    applyNotices(p, notices);
    notices = [];
  };
  for (const line of lines) {
    if (!line.head) {
      if (p.command) p.command.lines.push(line.text);
      else notices.push(line);
      continue;
    }
    const running = RUNNING.exec(line.text);
    const asked = confirmation(line.text, true);
    const edited = appliedEdit(line.text);
    const commit = commitNotice(line.text);
    if (running) {
      settle();
      openCommand(p, running[1] ? 'lint' : 'shell', running[2]);
    } else if (asked) {
      settle();
      closeCommand(p);
      if (session.echoed === asked.question) session.echoed = undefined;
      else push(session, { kind: 'user', text: line.text, isMeta: true, confirmation: true });
    } else if (edited !== undefined) {
      settle();
      pushDone(p, 'edit', { file_path: edited }, line.text);
      if (!session.toCommit.includes(edited)) session.toCommit.push(edited);
    } else if (commit) {
      settle();
      const files = session.toCommit;
      session.toCommit = [];
      session.hashes.push(commit.hash);
      const command = `git commit -m ${shellWord(commit.message)}`;
      const input = { command, message: commit.message, hash: commit.hash, ...(files.length > 0 ? { files } : {}) };
      pushDone(p, 'git commit', input, line.text, command);
    } else if (p.command) {
      p.command.lines.push(line.text);
    } else {
      const dirty = dirtyCommit(line.text);
      if (dirty !== undefined && !session.toCommit.includes(dirty)) session.toCommit.push(dirty);
      notices.push(line);
    }
  }
  settle();
}

/** aider's own messages outside command output: banner facts, interrupts and errors (judged by a message's first line). */
function applyNotices(p: Parser, lines: QuoteLine[]): void {
  const session = p.current;
  if (!session || lines.length === 0) return;
  let interrupted = false;
  let errorAt = -1;
  lines.forEach((line, i) => {
    if (!line.head) return;
    const version = /^Aider v(\S+)/.exec(line.text);
    if (version) session.version = version[1];
    const model = /^(?:Main model|Models?): (\S+)/.exec(line.text);
    if (model) session.model = model[1];
    if (/^\^C (?:KeyboardInterrupt|again to exit)/.test(line.text)) interrupted = true;
    else if (errorAt === -1 && !NAMING_NOTICE.test(line.text) && NOTICE_ERROR.test(line.text)) errorAt = i;
  });
  if (errorAt !== -1) {
    const text = lines
      .slice(errorAt)
      .map((l) => l.text)
      .join('\n')
      .trim();
    push(session, { kind: 'error', text: text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…` : text });
  }
  if (interrupted) push(session, { kind: 'error', text: 'turn aborted: ^C' });
}

function endSession(p: Parser): void {
  if (!p.current) return;
  flushUser(p);
  flushQuote(p);
  settlePlain(p);
  closeCommand(p);
  p.sessions.push(p.current);
  p.current = undefined;
  p.inFence = false;
  p.continuing = false;
}
