// Codex reads hooks from `.codex/hooks.json` and from inline `[hooks]` tables of `.codex/config.toml`, and warns at
// start when one config layer has both. So a repository whose config.toml holds its hooks gets Combee's there: one
// block of its own, between two marker comments, appended at the end of the file (an array-of-tables header closes
// whatever table came before, so nothing of the team's changes meaning) and cut out again by its markers. The team's
// text is never parsed and written back: no format-preserving TOML editor is among the project's dependencies.

export const CODEX_TOML_PATH = '.codex/config.toml';
export const CODEX_HOOKS_JSON_PATH = '.codex/hooks.json';
export const TOML_BLOCK_START =
  '# >>> combee-enforce: written by Combee from the playbook; edit the playbook, not this block';
export const TOML_BLOCK_END = '# <<< combee-enforce';

/** Lines that open a hooks table, or give `hooks` a value: `[hooks]`, `[[hooks.PreToolUse]]`, `hooks.Stop = …`. */
const INLINE_HOOKS = /^[ \t]*(?:\[\[?[ \t]*"?hooks"?[ \t]*[.\]]|"?hooks"?[ \t]*[.=])/m;

/**
 * Ways of writing PreToolUse that an appended `[[hooks.PreToolUse]]` would clash with: a static array or a table of
 * that name, or the whole `hooks` table inline.
 */
const CLASHES: Array<[RegExp, string]> = [
  [/^[ \t]*"?hooks"?[ \t]*=/m, 'sets `hooks` inline'],
  [/^[ \t]*(?:"?hooks"?[ \t]*\.[ \t]*)?"?PreToolUse"?[ \t]*=/m, 'sets `PreToolUse` as a value'],
  [/^[ \t]*\[[ \t]*"?hooks"?[ \t]*\.[ \t]*"?PreToolUse"?[ \t]*\][ \t]*(?:#.*)?$/m, 'has a `[hooks.PreToolUse]` table'],
];

/** Whether the repository's Codex hooks live in config.toml: Combee's block is there, or the team's hooks are and no hooks.json is. */
export function codexHooksInToml(readFile: (rel: string) => string | undefined): boolean {
  const toml = readFile(CODEX_TOML_PATH);
  if (toml === undefined) return false;
  if (toml.includes(TOML_BLOCK_START)) return true;
  return readFile(CODEX_HOOKS_JSON_PATH) === undefined && INLINE_HOOKS.test(stripStrings(toml));
}

/** The text with multi-line strings blanked, so a `[hooks]` inside one is not read as a table. */
function stripStrings(text: string): string {
  return text.replace(/"""[\s\S]*?"""|'''[\s\S]*?'''/g, '""');
}

/** Why Combee's block can't go into the file, or undefined when it can. */
export function tomlHookProblem(text: string): string | undefined {
  const start = text.indexOf(TOML_BLOCK_START);
  const end = text.indexOf(TOML_BLOCK_END);
  if (start < 0 !== end < 0 || end < start) return 'has a Combee block that was cut';
  const outside = stripStrings(start < 0 ? text : text.slice(0, start) + text.slice(end + TOML_BLOCK_END.length));
  return CLASHES.find(([pattern]) => pattern.test(outside))?.[1];
}

/** Combee's block: the hook run before each shell command (a TOML literal string: the command holds no quote `'`). */
function block(command: string, eol: string): string {
  if (command.includes("'") || /[\r\n]/.test(command)) throw new Error('a hook command TOML cannot hold literally');
  return [
    TOML_BLOCK_START,
    '[[hooks.PreToolUse]]',
    'matcher = "Bash"',
    '',
    '[[hooks.PreToolUse.hooks]]',
    'type = "command"',
    `command = '${command}'`,
    TOML_BLOCK_END,
  ].join(eol);
}

/**
 * config.toml with Combee's block (`on`) or without it; the text itself when that changes nothing, undefined when the
 * file can't take it (tomlHookProblem: left alone, the caller warns).
 */
export function withTomlHookBlock(text: string, on: boolean, command: string): string | undefined {
  if (tomlHookProblem(text) !== undefined) return undefined;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const start = text.indexOf(TOML_BLOCK_START);
  if (start >= 0) {
    const end = text.indexOf(TOML_BLOCK_END) + TOML_BLOCK_END.length;
    if (on) return text.slice(0, start) + block(command, eol) + text.slice(end);
    // the block goes with the blank line put before it and the line end after it
    const before = text.slice(0, start).replace(new RegExp(`(?:${eol})?${eol}$`), eol);
    const after = text.slice(end).replace(new RegExp(`^${eol}`), '');
    return (before === eol ? '' : before) + after;
  }
  if (!on) return text;
  const body = text === '' || text.endsWith(eol) ? text : `${text}${eol}`;
  return `${body}${body === '' ? '' : eol}${block(command, eol)}${eol}`;
}
