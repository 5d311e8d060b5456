import { modelOfHeader, specStoryTime, splitHeaderDetails } from './specStoryHeader';

// The body of a SpecStory history: turns opened by `_**User (time)**_` / `_**Agent (model time)**_` (older exports:
// `_**Assistant**_`; a subagent's: `_**Agent - sidechain …**_`), separated by `---` lines. An agent turn holds text,
// thinking (`<think><details>…</details></think>`) and tool calls (`<tool-use data-tool-type=… data-tool-name=…>`
// around `<details><summary>…</summary>…</details>`; the Cursor extension's first exports had bare `<details>` blocks,
// `Read file: …` lines and `_****_` between the parts of one answer). Fenced code is text: nothing in it is structure,
// except a role header, so an unclosed fence in someone's message cannot swallow the rest of the chat.

const ROLE = /^_\*\*(User|Agent|Assistant)( - sidechain)?(?: \((.*)\))?\*\*_\s*$/;
const PART_SEPARATOR = /^_\*\*\*\*_\s*$/;
const SEPARATOR = /^-{3,}\s*$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})(.*)$/;
const TOOL_OPEN = /^<tool-use\b([^>]*)>/;
const LEGACY_READ = /^Read file: (.+)$/;

export interface ToolBlock {
  /** `data-tool-name`; for a bare `<details>` block, the words its summary starts with. */
  name: string;
  /** `data-tool-type`: write, read, search, shell, task, generic, unknown (absent in older exports). */
  type?: string;
  summary: string;
  body: string[];
  /** Its end was never found (a cut file): what was read up to the next turn is kept. */
  unclosed?: boolean;
}

export type TurnPart = { kind: 'text'; text: string } | { kind: 'tool'; tool: ToolBlock };

export interface Turn {
  role: 'user' | 'agent';
  time?: string;
  model?: string;
  sidechain: boolean;
  parts: TurnPart[];
}

export interface ParsedBody {
  turns: Turn[];
  /** Non-blank lines before the first turn that are not the head's own (title, comments). */
  preambleLines: number;
  /** Thinking blocks left out: reasoning, not what the agent said or did. */
  thinking: number;
}

interface State {
  out: ParsedBody;
  turn?: Turn;
  text: string[];
  fence?: string;
  /** Inside a block that ends at a closing tag: tool use, bare details, or thinking. */
  block?: { kind: 'tool' | 'details' | 'think'; tool: ToolBlock; fence?: string; summaryDone: boolean };
}

export function parseTurns(lines: string[]): ParsedBody {
  const s: State = { out: { turns: [], preambleLines: 0, thinking: 0 }, text: [] };
  for (const raw of lines) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const role = ROLE.exec(line);
    if (role) {
      startTurn(s, role[1] === 'User' ? 'user' : 'agent', role[2] !== undefined, role[3] ?? '');
      continue;
    }
    if (s.block) {
      blockLine(s, line);
      continue;
    }
    if (!s.turn) {
      if (line.trim() !== '' && !/^<!--.*-->\s*$/.test(line) && !/^# /.test(line)) s.out.preambleLines++;
      continue;
    }
    if (s.fence !== undefined) {
      s.text.push(line);
      if (closesFence(line, s.fence)) s.fence = undefined;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      s.fence = fence[1];
      s.text.push(line);
      continue;
    }
    if (SEPARATOR.test(line) || PART_SEPARATOR.test(line)) {
      flushText(s);
      continue;
    }
    if (openBlock(s, line)) continue;
    const read = s.turn.role === 'agent' ? LEGACY_READ.exec(line) : null;
    if (read) {
      flushText(s);
      s.turn.parts.push({ kind: 'tool', tool: { name: 'Read file', summary: read[1].trim(), body: [] } });
      continue;
    }
    s.text.push(line);
  }
  endTurn(s);
  return s.out;
}

function startTurn(s: State, role: 'user' | 'agent', sidechain: boolean, details: string): void {
  endTurn(s);
  const { time, rest } = splitHeaderDetails(details);
  s.turn = {
    role,
    time: time ?? specStoryTime(details),
    model: role === 'agent' ? modelOfHeader(rest) : undefined,
    sidechain,
    parts: [],
  };
  s.out.turns.push(s.turn);
}

function endTurn(s: State): void {
  if (s.block) {
    s.block.tool.unclosed = true;
    closeBlock(s);
  }
  flushText(s);
  s.fence = undefined;
}

function flushText(s: State): void {
  const text = s.text.join('\n').trim();
  s.text = [];
  if (text !== '' && s.turn) s.turn.parts.push({ kind: 'text', text });
}

function openBlock(s: State, line: string): boolean {
  const tool = TOOL_OPEN.exec(line);
  if (tool) {
    const attrs = tool[1];
    s.block = {
      kind: 'tool',
      tool: {
        name: attr(attrs, 'data-tool-name') ?? 'unknown',
        type: attr(attrs, 'data-tool-type'),
        summary: '',
        body: [],
      },
      summaryDone: false,
    };
  } else if (/^<think>/.test(line)) {
    s.block = { kind: 'think', tool: { name: '', summary: '', body: [] }, summaryDone: true };
  } else if (/^<details>/.test(line) && s.turn?.role === 'agent') {
    s.block = { kind: 'details', tool: { name: '', summary: '', body: [] }, summaryDone: false };
  } else return false;
  flushText(s);
  blockLine(s, line.slice(tool ? tool[0].length : 0));
  return true;
}

function blockLine(s: State, line: string): void {
  const block = s.block as NonNullable<State['block']>;
  if (block.fence !== undefined) {
    if (closesFence(line, block.fence)) block.fence = undefined;
    block.tool.body.push(line);
    return;
  }
  const closing = block.kind === 'tool' ? '</tool-use>' : block.kind === 'think' ? '</think>' : '</details>';
  const end = line.indexOf(closing);
  let content = end === -1 ? line : line.slice(0, end);
  if (!block.summaryDone) {
    const summary = /<summary>(.*?)(?:<\/summary>|$)/.exec(content);
    if (summary) {
      block.tool.summary = summary[1].trim();
      block.summaryDone = content.includes('</summary>');
      content = content.slice(summary.index + summary[0].length);
    } else if (block.tool.summary !== '' && content.includes('</summary>')) {
      // a summary over several lines
      const [rest, after] = content.split('</summary>', 2);
      block.tool.summary += ` ${rest.trim()}`;
      block.summaryDone = true;
      content = after;
    }
  }
  content = content.replace(/^\s*<details>/, '').replace(/<\/details>\s*$/, '');
  if (content.trim() !== '' || (end === -1 && block.summaryDone)) {
    const fence = FENCE.exec(content);
    if (fence) block.fence = fence[1];
    block.tool.body.push(content);
  }
  if (end !== -1) closeBlock(s);
}

function closeBlock(s: State): void {
  const block = s.block as NonNullable<State['block']>;
  s.block = undefined;
  if (block.kind === 'think') {
    s.out.thinking++;
    return;
  }
  const tool = block.tool;
  if (block.kind === 'details') tool.name = legacyToolName(tool.summary);
  // trailing blank lines are layout, not output
  while (tool.body.length > 0 && tool.body[tool.body.length - 1].trim() === '') tool.body.pop();
  while (tool.body.length > 0 && tool.body[0].trim() === '') tool.body.shift();
  s.turn?.parts.push({ kind: 'tool', tool });
}

function closesFence(line: string, fence: string): boolean {
  const t = line.trim();
  return t.length >= fence.length && t === fence[0].repeat(t.length);
}

function attr(attrs: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1];
}

/** `Searched codebase "x" • **5** results` → `Searched codebase`: the action, without its arguments. */
function legacyToolName(summary: string): string {
  const words = summary
    .replace(/[`"'•*(].*$/, '')
    .trim()
    .split(/\s+/)
    .slice(0, 2)
    .join(' ');
  return words === '' ? 'details' : words;
}
