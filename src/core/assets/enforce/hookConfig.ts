import {
  applyEdits,
  findNodeAtLocation,
  format,
  modify,
  parse,
  parseTree,
  type FormattingOptions,
  type ParseError,
} from 'jsonc-parser';

// Combee's entry in an agent's JSON hooks file (`.claude/settings.json`, `.codex/hooks.json`, `.cursor/hooks.json`,
// `.gemini/settings.json`, `.windsurf/hooks.json`), added or taken out by editing the text in place (jsonc-parser's
// edit API): only the lines of that entry change; the team's layout, comments, big integers and duplicate keys stay.

/** Where an agent keeps its hooks for one event, and what Combee's entry there looks like. */
export interface HookConfigShape {
  /** The key under `hooks` whose array holds the entries (`PreToolUse`, `beforeShellExecution`). */
  event: string;
  /** The entry Combee adds. */
  entry: Record<string, unknown>;
  /** Combee's hook command, by which its entry is known again. */
  command: string;
  /** Entries hold a `hooks` array of commands (Claude Code, Codex, Gemini CLI) rather than a command each. */
  nested: boolean;
  /** Top-level keys a file Combee creates starts with (Cursor's `"version": 1`). */
  base?: Record<string, unknown>;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Deeper than this, a settings file is not one a person wrote: refused before it is parsed. */
export const MAX_SETTINGS_DEPTH = 64;

/** How deep brackets nest outside strings (no recursion, so any depth is measured). */
export function nesting(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') max = Math.max(max, ++depth);
    else if (c === '}' || c === ']') depth--;
  }
  return max;
}

function read(text: string | undefined, event: string): { settings: Json } | { problem: string } {
  if (text === undefined || text.trim() === '') return { settings: {} };
  if (nesting(text) > MAX_SETTINGS_DEPTH) return { problem: `is nested deeper than ${MAX_SETTINGS_DEPTH} levels` };
  const errors: ParseError[] = [];
  const settings: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || !isObject(settings)) return { problem: 'is not a JSON object' };
  const hooks = settings.hooks;
  if (hooks !== undefined && !(isObject(hooks) && (hooks[event] === undefined || Array.isArray(hooks[event]))))
    return { problem: 'has `hooks` Combee cannot read' };
  return { settings };
}

/** Why the file's text can't take Combee's entry (too deep, not a JSON object), or undefined when it can. */
export function hookConfigProblem(text: string | undefined, event: string): string | undefined {
  const r = read(text, event);
  return 'problem' in r ? r.problem : undefined;
}

/** The file read as a JSON object, or undefined when it is not one Combee edits. */
export function readHookConfig(text: string | undefined, event: string): Json | undefined {
  const r = read(text, event);
  return 'settings' in r ? r.settings : undefined;
}

/**
 * The text without one array element: from the end of the one before it (or the start of the one after it) to its
 * own end, so the lines around stay as they were. (jsonc-parser's removal of a last element assumes a line break
 * before the `]` and cuts compact text wrong.)
 */
function withoutElement(text: string, path: Array<string | number>): string {
  const root = parseTree(text);
  const array = root && findNodeAtLocation(root, path.slice(0, -1));
  const items = array?.children ?? [];
  const at = path[path.length - 1] as number;
  const node = items[at];
  if (!array || !node) return text;
  const before = items[at - 1];
  const after = items[at + 1];
  if (before) return text.slice(0, before.offset + before.length) + text.slice(node.offset + node.length);
  if (after) return text.slice(0, node.offset) + text.slice(after.offset);
  return text.slice(0, array.offset + 1) + text.slice(array.offset + array.length - 1);
}

/** The file's own layout for what is added: its indentation and line ends (two spaces for a new file). */
function formatting(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  return {
    insertSpaces: !indent?.startsWith('\t'),
    tabSize: indent && !indent.startsWith('\t') ? indent.length : 2,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/**
 * The file's text with Combee's hook entry present (`on`) or absent; the text itself when that changes nothing,
 * `undefined` when it can't be read (see hookConfigProblem: left alone, the caller warns).
 */
export function withHookEntry(text: string | undefined, on: boolean, shape: HookConfigShape): string | undefined {
  const { event } = shape;
  const ours = (hook: unknown) => isObject(hook) && hook.command === shape.command;
  const entryIsOurs = (entry: unknown) =>
    shape.nested ? isObject(entry) && Array.isArray(entry.hooks) && entry.hooks.some(ours) : ours(entry);
  const r = read(text, event);
  if ('problem' in r) return undefined;
  const hooks = isObject(r.settings.hooks) ? r.settings.hooks : {};
  const pre: unknown[] = Array.isArray(hooks[event]) ? hooks[event] : [];
  const present = pre.some(entryIsOurs);
  if (present === on) return text ?? '';
  let out = text === undefined || text.trim() === '' ? '{}\n' : text;
  const layout = formatting(out);
  const edit = (path: Array<string | number>, value: unknown) => {
    // unformatted edits: jsonc-parser's own formatting would reflow the line before an insertion too
    const [change] = modify(out, path, value, {});
    if (!change) return;
    if (value === undefined) {
      out = typeof path[path.length - 1] === 'number' ? withoutElement(out, path) : applyEdits(out, [change]);
      return;
    }
    // what is added goes on lines of its own, laid out as the file is; nothing else is reformatted
    const comma = change.content.startsWith(',') ? ',' : '';
    const content = change.content.slice(comma.length);
    const lineStart = out.lastIndexOf('\n', change.offset - 1) + 1;
    const lineIndent = /^[ \t]*/.exec(out.slice(lineStart))?.[0] ?? '';
    const unit = layout.insertSpaces ? ' '.repeat(layout.tabSize ?? 2) : '\t';
    // after a sibling: its indentation; first in its container: one level in, the container's close on a line of its own
    const indent = comma ? lineIndent : lineIndent + unit;
    const tail = comma ? '' : `${layout.eol}${lineIndent}`;
    const head = `${out.slice(0, change.offset)}${comma}${layout.eol}${indent}`;
    out = `${head}${content}${tail}${out.slice(change.offset + change.length)}`;
    out = applyEdits(
      out,
      format(out, { offset: head.length - indent.length, length: indent.length + content.length }, layout),
    );
  };
  if (on) {
    const created = text === undefined || text.trim() === '';
    if (created) for (const [key, value] of Object.entries(shape.base ?? {})) edit([key], value);
    edit(['hooks', event, pre.length], shape.entry);
    return out;
  }
  // from the last entry back, so the indexes of those before stay right
  for (let i = pre.length - 1; i >= 0; i--) {
    const entry = pre[i];
    if (!entryIsOurs(entry)) continue;
    const left =
      shape.nested && isObject(entry) && Array.isArray(entry.hooks) ? entry.hooks.filter((h) => !ours(h)) : [];
    if (left.length === 0) edit(['hooks', event, i], undefined);
    else if (isObject(entry) && Array.isArray(entry.hooks))
      for (let j = entry.hooks.length - 1; j >= 0; j--)
        if (ours(entry.hooks[j])) edit(['hooks', event, i, 'hooks', j], undefined);
  }
  const after = read(out, event);
  const rest = 'settings' in after && isObject(after.settings.hooks) ? after.settings.hooks : {};
  const remaining = rest[event];
  if (Array.isArray(remaining) && remaining.length === 0) edit(['hooks', event], undefined);
  const left = read(out, event);
  if ('settings' in left && isObject(left.settings.hooks) && Object.keys(left.settings.hooks).length === 0)
    edit(['hooks'], undefined);
  return out;
}
