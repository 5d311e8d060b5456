import { exitCodeAtEnd, isRecord } from './common';
import type { ToolBlock } from './specStoryTurns';

// What a tool block says, in the layouts SpecStory renders it in:
// - the VS Code / Cursor extension: `Parameters:` and `Result:` labels each before a ```json fence (the call's
//   arguments, VS Code's record of its result), `Additional data:`, and `Status: **completed**`;
// - the CLI's generic tools: `**Input:**` then `- key: value` lines, and `**Result:**` or `**Error:**` before a fence;
// - the CLI's own renderings: a description line, the command as `` `cmd` `` or a ```bash fence, the output in a
//   ```text (Claude Code) or bare fence (Cursor, Codex); a written file's content in a fence of its language.
// The summary is `Tool use: **name** • what it did` (Cursor: `• Run command: …`).

const SHELL_LANGS = new Set(['bash', 'sh', 'shell', 'zsh', 'console', 'powershell', 'ps1', 'pwsh', 'cmd', 'bat']);
const OUTPUT_LANGS = new Set(['', 'text', 'txt', 'output', 'log', 'plaintext']);
const OK_STATUS = new Set(['completed', 'complete', 'success', 'succeeded', 'done']);
const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const LABEL = /^(?:\*\*)?(Parameters|Additional data|Result|Input|Error|Output)(?:\*\*)?:(?:\*\*)?\s*$/i;
const STATUS = /^Status:\s*\*\*([^*]+)\*\*\s*$/;
const SHELL_NAME =
  /^(?:bash|shell|run_terminal_cmd|run_in_terminal|run_shell_command|exec_command|shell_command|local_shell|execute_command|terminal)$/i;

export interface ToolReading {
  tool: string;
  input: string;
  command?: string;
  /** Absent when the export shows no result for the call. */
  output?: string;
  isError: boolean;
  exitCode?: number;
}

interface Fence {
  lang: string;
  text: string;
  label?: string;
}

export function readToolBlock(block: ToolBlock): ToolReading {
  const summary = unescapeHtml(block.summary);
  const detail = summary.replace(/^Tool use:\s*\*\*[^*]*\*\*\s*(?:•\s*)?/, '').trim();
  const { fences, notes, inputList, status } = sections(block.body);
  const shell = block.type === 'shell' || SHELL_NAME.test(block.name);

  const params = fences.find((f) => f.label === 'parameters');
  const errorFence = fences.find((f) => f.label === 'error');
  let command = params ? commandOfParams(params.text) : undefined;
  command ??= commandOfInputList(inputList);
  if (shell) command ??= shellCommand(detail, fences, notes);

  const inputs: string[] = [];
  const outputs: string[] = [];
  for (const fence of fences) {
    if (fence.label === 'parameters') inputs.push(fence.text);
    else if (fence.label === 'result' || fence.label === 'output' || fence.label === 'error') outputs.push(fence.text);
    else if (fence.label === 'additional data') continue;
    else if (fence.label === 'input') inputs.push(fence.text);
    else if (shell && command !== undefined && fence.text.trim() === command.trim()) continue;
    else if (OUTPUT_LANGS.has(fence.lang) && block.type !== 'write') outputs.push(fence.text);
    else inputs.push(fence.text);
  }
  if (!params) {
    if (inputList.length > 0) inputs.unshift(inputList.join('\n'));
    const said = [detail, ...notes.filter((n) => n !== '' && !(command !== undefined && n === `\`${command}\``))]
      .filter((n) => n !== '')
      .join('\n');
    if (said !== '') inputs.unshift(said);
  }
  const output = outputs.length > 0 ? outputs.join('\n') : status !== undefined ? `Status: ${status}` : undefined;
  const exitCode = output !== undefined && shell ? exitCodeOf(output) : undefined;
  const failedStatus = status !== undefined && !OK_STATUS.has(status.toLowerCase());
  return {
    tool: block.name,
    input: inputs.join('\n\n'),
    command,
    output,
    isError: errorFence !== undefined || failedStatus || (exitCode !== undefined && exitCode !== 0),
    exitCode,
  };
}

/** The body's fences (with the label line before each, if any), its other lines, `- key: value` inputs and status. */
function sections(body: string[]): { fences: Fence[]; notes: string[]; inputList: string[]; status?: string } {
  const fences: Fence[] = [];
  const notes: string[] = [];
  const inputList: string[] = [];
  let status: string | undefined;
  let label: string | undefined;
  for (let i = 0; i < body.length; i++) {
    const line = body[i];
    const open = FENCE.exec(line);
    if (open) {
      const marker = open[1];
      const text: string[] = [];
      for (i++; i < body.length; i++) {
        const t = body[i].trim();
        if (t.length >= marker.length && t === marker[0].repeat(t.length)) break;
        text.push(body[i]);
      }
      fences.push({ lang: open[2].toLowerCase(), text: text.join('\n'), label });
      label = undefined;
      continue;
    }
    const labelled = LABEL.exec(line.trim());
    if (labelled) {
      label = labelled[1].toLowerCase();
      continue;
    }
    const st = STATUS.exec(line.trim());
    if (st) {
      status = st[1].trim();
      continue;
    }
    if (label === 'input' && /^- /.test(line)) {
      inputList.push(line.slice(2));
      continue;
    }
    const note = line.trim();
    if (note !== '') notes.push(note);
  }
  return { fences, notes, inputList, status };
}

/** The command in a call's JSON arguments: `command`, `cmd` (string or argv), VS Code's `commandLine.original`. */
function commandOfParams(text: string): string | undefined {
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(args)) return undefined;
  const line = isRecord(args.commandLine) ? (args.commandLine.original ?? args.commandLine.toolEdited) : undefined;
  const value = line ?? args.command ?? args.cmd;
  if (typeof value === 'string' && value.trim() !== '') return unescapeHtml(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return unescapeHtml(value.join(' '));
  return undefined;
}

/** `command: \`npm test\`` among a generic tool's `**Input:**` lines. */
function commandOfInputList(lines: string[]): string | undefined {
  for (const line of lines) {
    const m = /^(?:command|cmd):\s*`(.+)`\s*$/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

/** A shell tool's command: Cursor's `Run command: …` summary, a ```bash fence, or a `` `cmd` `` line (Claude Code). */
function shellCommand(detail: string, fences: Fence[], notes: string[]): string | undefined {
  const run = /^Run command:\s*(.+)$/.exec(detail);
  if (run) return run[1].trim();
  const fenced = fences.find((f) => f.label === undefined && SHELL_LANGS.has(f.lang));
  if (fenced) return fenced.text;
  for (const note of notes) {
    const m = /^`([^`].*)`$/.exec(note);
    if (m) return m[1];
  }
  const inline = /`([^`]+)`/.exec(detail);
  return inline?.[1];
}

/** Claude Code's failing output starts `Exit code N`; other shells print it last. */
function exitCodeOf(output: string): number | undefined {
  const first = /^Exit code (-?\d+)\b/.exec(output.trimStart());
  return first ? Number(first[1]) : exitCodeAtEnd(output);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** SpecStory escapes summaries and argument strings as HTML (`&amp;&amp;`, `&#96;`): the command as it was run. */
export function unescapeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}
