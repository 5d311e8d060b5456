import { posix } from 'node:path';
import { parse } from 'unbash';

// A command line read by a bash parser (unbash: maintained, typed, synchronous, plain JavaScript, so it runs in the
// extension, the CLI and workers alike). The result is the simple commands the line runs, each with the folder a
// `cd` before it moved to. Heredoc bodies and quoted strings are data: only command substitutions run.

export interface SimpleCommand {
  /** Its words as the shell passes them: quotes removed, assignments first. */
  words: string[];
  /** Its text in the line. */
  text: string;
  /** The folder a `cd` earlier in the line moved to, relative to where the line started (or absolute). */
  cwd?: string;
}

export interface ParsedLine {
  commands: SimpleCommand[];
  /** The parser could not read the line: no command is claimed from it. */
  unparsed: boolean;
}

type Node = { type?: string; [key: string]: unknown };
interface Context {
  cwd?: string;
}

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

/** Commands that run inside a word: `$(…)`, backticks, `<(…)`. */
function substitutions(word: unknown, ctx: Context, out: SimpleCommand[], line: string): void {
  if (!isNode(word) || !Array.isArray(word.parts)) return;
  for (const part of word.parts as Node[]) {
    if ((part.type === 'CommandExpansion' || part.type === 'ProcessSubstitution') && isNode(part.script))
      walk(part.script, { ...ctx }, out, line);
    else substitutions(part, ctx, out, line);
  }
}

function wordValue(word: Node): string {
  return typeof word.value === 'string' ? word.value : typeof word.text === 'string' ? word.text : '';
}

function simpleCommand(node: Node, ctx: Context, out: SimpleCommand[], line: string): void {
  const words: string[] = [];
  // what runs inside its words comes after it: the command itself is what the line is about
  const inner: SimpleCommand[] = [];
  for (const p of (node.prefix as Node[] | undefined) ?? []) {
    if (p.type === 'Assignment' && typeof p.text === 'string') words.push(p.text);
    substitutions(p.value, ctx, inner, line);
  }
  if (isNode(node.name)) {
    words.push(wordValue(node.name));
    substitutions(node.name, ctx, inner, line);
  }
  for (const s of (node.suffix as Node[] | undefined) ?? []) {
    // redirections and heredocs feed the command; they are not its arguments
    if (s.type !== 'Word') continue;
    words.push(wordValue(s));
    substitutions(s, ctx, inner, line);
  }
  if (words.length === 0) return void out.push(...inner);
  const text =
    typeof node.pos === 'number' && typeof node.end === 'number' ? line.slice(node.pos, node.end) : words.join(' ');
  out.push(ctx.cwd === undefined ? { words, text } : { words, text, cwd: ctx.cwd }, ...inner);
  const name = isNode(node.name) ? wordValue(node.name) : '';
  if ((name === 'cd' || name === 'pushd') && words.length <= 2 + (words[1] === '--' ? 1 : 0)) {
    const target = words[words.length - 1];
    // `cd -` and `cd $DIR` go where this line does not say; `cd` alone and `cd ~/x` go to the home folder, a place
    // as fixed as `/x`
    const home = words.length === 1 ? '~' : /^~(?:\/|$)/.test(target) ? target : undefined;
    if (home !== undefined) ctx.cwd = posix.normalize(home);
    else if (target === '-' || /[$`~]/.test(target)) ctx.cwd = undefined;
    else if (target.startsWith('/') || ctx.cwd === undefined) ctx.cwd = posix.normalize(target);
    else ctx.cwd = posix.normalize(posix.join(ctx.cwd, target));
  }
}

function walk(node: Node, ctx: Context, out: SimpleCommand[], line: string): void {
  switch (node.type) {
    case 'Command':
      return simpleCommand(node, ctx, out, line);
    case 'HereDoc':
    case 'HereDocBody':
    case 'Function':
      // data, and a definition that runs nothing until called
      return;
    case 'Pipeline':
    case 'Subshell':
    case 'Coproc':
      // each runs in a subshell of its own: a `cd` there stays there
      for (const value of Object.values(node)) visit(value, { ...ctx }, out, line);
      return;
    default:
      for (const value of Object.values(node)) visit(value, ctx, out, line);
  }
}

function visit(value: unknown, ctx: Context, out: SimpleCommand[], line: string): void {
  if (Array.isArray(value)) for (const item of value) visit(item, ctx, out, line);
  else if (isNode(value) && typeof value.type === 'string') walk(value, ctx, out, line);
}

let unparsedLines = 0;
/** Lines the parser could not read since the process started (each is claimed as no command at all). */
export function unparsedCount(): number {
  return unparsedLines;
}

const PARSED = new Map<string, ParsedLine>();
const MAX_PARSED = 16_384;
/** The longest line read: past it, a line is treated as unreadable rather than read in part. */
export const MAX_LINE_CHARS = 100_000;

/** The simple commands a command line runs (remembered per line: sessions repeat their commands). */
export function parseLine(line: string): ParsedLine {
  const known = PARSED.get(line);
  if (known) return known;
  if (PARSED.size >= MAX_PARSED) PARSED.clear();
  const parsed = readLine(line);
  if (parsed.unparsed) unparsedLines++;
  PARSED.set(line, parsed);
  return parsed;
}

function readLine(line: string): ParsedLine {
  if (line.length > MAX_LINE_CHARS) return { commands: [], unparsed: true };
  try {
    const script = parse(line) as unknown as Node;
    if (Array.isArray(script.errors) && script.errors.length > 0) return { commands: [], unparsed: true };
    const commands: SimpleCommand[] = [];
    walk(script, {}, commands, line);
    return { commands, unparsed: false };
  } catch {
    return { commands: [], unparsed: true };
  }
}
