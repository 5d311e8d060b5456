import { parse } from 'unbash';

/**
 * What a bash parser (unbash) tells about a command line: how each stretch of it is quoted, and which of its words
 * may name a file. A heredoc body and the text inside an argument are data: they name no file the command touched.
 */

/** How the shell reads a stretch of a command: the context a home folder written there must keep its meaning in. */
export type Quoting = 'unquoted' | 'double' | 'single' | 'ansi-c' | 'heredoc' | 'literal-heredoc';

interface Stretch {
  start: number;
  end: number;
  quoting: Quoting;
}

export interface ParsedCommand {
  /** The quoting at `index` (the innermost stretch holding it); undefined past a syntax error. */
  quotingAt(index: number): Quoting | undefined;
  /** The whole line parsed without a syntax error. */
  readable: boolean;
  /** Each word's value (quotes removed) that may name a file: arguments, redirection targets, assignment values. */
  fileWords: string[];
}

type Node = { type?: string; pos?: number; end?: number; [key: string]: unknown };

const SHELLS = /^(?:.*\/)?(?:bash|sh|zsh|dash|ksh)$/;

/** Parses `command`; undefined when it is no shell syntax the parser can read at all. */
export function parseCommand(command: string): ParsedCommand | undefined {
  let script: Node;
  try {
    script = parse(command) as unknown as Node;
  } catch {
    return undefined;
  }
  const errors = (script.errors as Array<{ pos: number }> | undefined) ?? [];
  const readableUntil = errors.length === 0 ? command.length : Math.min(...errors.map((e) => e.pos));
  const stretches: Stretch[] = [];
  const fileWords: string[] = [];
  walk(script, stretches, fileWords);
  // innermost first: a command substitution inside double quotes is unquoted again
  stretches.sort((a, b) => a.end - a.start - (b.end - b.start));
  return {
    readable: errors.length === 0,
    fileWords,
    quotingAt(index) {
      if (index >= readableUntil) return undefined;
      return stretches.find((s) => s.start <= index && index < s.end)?.quoting ?? 'unquoted';
    },
  };
}

function walk(node: unknown, stretches: Stretch[], fileWords: string[]): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, stretches, fileWords);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const n = node as Node;
  const start = n.pos ?? 0;
  const end = n.end ?? start;
  switch (n.type) {
    case 'SingleQuoted':
      stretches.push({ start: start + 1, end: end - 1, quoting: 'single' });
      return;
    case 'AnsiCQuoted':
      stretches.push({ start: start + 2, end: end - 1, quoting: 'ansi-c' });
      return;
    case 'DoubleQuoted':
    case 'LocaleString':
      stretches.push({ start, end, quoting: 'double' });
      break;
    case 'CommandExpansion':
    case 'ProcessSubstitution':
      stretches.push({ start, end, quoting: 'unquoted' });
      break;
    case 'HereDoc': {
      const body = n.body as Node | undefined;
      const quoted = (n.delimiter as { quoted?: boolean } | undefined)?.quoted === true;
      if (body)
        stretches.push({ start: body.pos ?? 0, end: body.end ?? 0, quoting: quoted ? 'literal-heredoc' : 'heredoc' });
      // the body is data: only what it expands (`$(…)`) is walked
      if (!quoted && body) walk(body.parts, stretches, []);
      return;
    }
    case 'Command':
      commandFileWords(n, fileWords);
      break;
  }
  // `parts` and `script` are lazy getters of unbash's nodes, not own properties
  for (const key of new Set([...Object.keys(n), 'parts', 'script']))
    if (key !== 'args' && key !== 'redirects') walk(n[key], stretches, fileWords);
}

/** The words of one simple command that may name a file; `sh -c '…'` is read as the script it runs. */
function commandFileWords(command: Node, fileWords: string[]): void {
  const words: string[] = [];
  const name = command.name as { value?: string } | undefined;
  if (name?.value !== undefined) words.push(name.value);
  for (const item of [...((command.prefix as Node[]) ?? []), ...((command.suffix as Node[]) ?? [])]) {
    if (item.type === 'Word') words.push(String(item.value ?? ''));
    else if (item.type === 'Redirect') words.push(String((item.target as { value?: string } | undefined)?.value ?? ''));
    else if (item.type === 'Assignment')
      words.push(String((item.value as { value?: string } | undefined)?.value ?? ''));
  }
  const runsScript = name?.value !== undefined && SHELLS.test(name.value);
  words.forEach((word, i) => {
    if (runsScript && i > 0 && /^-[a-z]*c[a-z]*$/.test(words[i - 1] ?? '')) {
      fileWords.push(...(parseCommand(word)?.fileWords ?? []));
      return;
    }
    // `--env-file=.env`: the value of a flag
    const value = word.startsWith('-') && word.includes('=') ? word.slice(word.indexOf('=') + 1) : word;
    const last = value.slice(value.replace(/\\/g, '/').lastIndexOf('/') + 1);
    // a message or a script passed as an argument ("fix the token refresh") is data, not a path
    if (value && !/\s/.test(last) && !value.includes('\n')) fileWords.push(value);
  });
}
