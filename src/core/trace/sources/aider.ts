import { dirname } from 'node:path';
import { readLines } from '../lines';
import type { Step, StepInput, TraceDraft } from '../model';
import { shortHash } from '../../util/hash';
import { storedOutput } from './common';
import type { ReadContext, SessionFile, SourceReader } from './types';
import { titleLine } from '../../util/text';
import { pushStep } from './sessionDraft';

// Aider appends every session of a repo to one Markdown file, `.aider.chat.history.md` (research §7):
// `# aider chat started at <local time>` opens a session, `#### ` lines are what the user typed, `> ` lines are aider's
// own output (banner, commands and their output, errors) and everything else is the model's reply. There are no ids,
// per-message times or tool structure; commands are recovered from `> Running <cmd>` / `> ## Running: <cmd>` lines and
// from the user's `/run`, `/test` and `!` commands, their output being the `> ` lines that follow.

const SESSION_HEADER = /^# aider chat started at (\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\s*$/;
const RUNNING = /^(## )?Running:? (.+?)\s*$/;
const USER_COMMAND = /^(?:\/(run|test)\s+([\s\S]+)|!([\s\S]+))$/;
/** Slash commands that carry a real request rather than steering the tool. */
const PROMPT_COMMANDS = /^\/(?:ask|code|architect|context)\b/;
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
  startedAt?: string;
  steps: Step[];
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
  command?: Command;
}

export const aiderReader: SourceReader = {
  agent: 'aider',

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
    endSession(p);
    if (result.skippedLongLines > 0)
      ctx.warn(`${file.path}: ${result.skippedLongLines} line(s) over ${ctx.maxLineBytes} bytes skipped`);
    if (p.preamble > 0)
      ctx.warn(`${file.path}: ${p.preamble} line(s) before the first "# aider chat started at" header skipped`);
    const seen = new Map<string, number>();
    const traces: TraceDraft[] = [];
    for (const session of p.sessions) {
      // Two sessions can start in the same second: the later ones get a suffix so ids stay unique.
      const n = (seen.get(session.start) ?? 0) + 1;
      seen.set(session.start, n);
      if (session.steps.length === 0) continue;
      const hash = shortHash(`${file.path}${session.start}${n > 1 ? `#${n}` : ''}`, 16);
      if (traces.length === 0 && p.preamble > 0) session.unknown['preamble-lines'] = p.preamble;
      traces.push({
        id: `aider:${hash}`,
        agent: 'aider',
        agentVersion: session.version,
        cwd: dirname(file.path),
        title: session.title,
        startedAt: session.startedAt,
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
  for (let n = p.lastLineNo + 1; n < lineNo; n++) processLine(p, '');
  p.lastLineNo = lineNo;
  processLine(p, text);
}

function processLine(p: Parser, raw: string): void {
  const header = SESSION_HEADER.exec(raw);
  if (header) {
    endSession(p);
    const [, y, mo, d, h, mi, s] = header;
    // Local time without a zone: read it in this machine's zone, where aider most likely wrote it.
    const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
    p.current = {
      start: `${y}-${mo}-${d} ${h}:${mi}:${s}`,
      startedAt: Number.isNaN(date.getTime()) ? undefined : date.toISOString(),
      steps: [],
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
  if (p.inFence && !isQuote) {
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
  pushStep(session.steps, step);
}

function flushUser(p: Parser): void {
  const session = p.current;
  if (!session || p.user.length === 0) return;
  const text = p.user.join('\n').trim();
  p.user = [];
  if (!text) return;
  const command = USER_COMMAND.exec(text);
  const meta = (text.startsWith('/') && !PROMPT_COMMANDS.test(text)) || text.startsWith('!');
  if (!meta) session.title ??= titleLine(text);
  push(session, { kind: 'user', text, isMeta: meta ? true : undefined });
  if (command) {
    const tool = command[1] ?? 'run';
    openCommand(p, tool, (command[2] ?? command[3]).trim());
  }
}

function openCommand(p: Parser, tool: string, commandLine: string): void {
  const session = p.current;
  if (!session) return;
  closeCommand(p);
  const callId = `aider-${tool}-${++session.calls}`;
  push(session, {
    kind: 'tool_call',
    callId,
    tool,
    command: commandLine,
    input: JSON.stringify({ command: commandLine }),
  });
  p.command = { callId, lines: [] };
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
  for (const line of lines) {
    const running = line.head ? RUNNING.exec(line.text) : null;
    if (running) {
      applyNotices(p, notices);
      notices = [];
      openCommand(p, running[1] ? 'lint' : 'shell', running[2]);
    } else if (p.command) {
      p.command.lines.push(line.text);
    } else {
      notices.push(line);
    }
  }
  applyNotices(p, notices);
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
