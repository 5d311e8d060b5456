import { parseTOML, type AST } from 'toml-eslint-parser';
import { MAX_SETTINGS_DEPTH } from '../enforce/hookConfig';
import type { MaskedValue } from './maskedValue';
import { maskTag, type ValuePath } from './secretNames';

// The secret values of a TOML config file (Codex's `.codex/config.toml`), found on the parser's syntax tree: the file
// is never rewritten, only the values' own text is replaced. Strings are the values masked, one-line and multi-line
// alike (a multi-line one is replaced whole, quotes and all); numbers, booleans and dates stay as they are.

/**
 * TOML 1.1 as the parser reads it (a draft): TOML 1.0 files and, as the reader before it did, inline tables over
 * several lines with a trailing comma. Named, not left to the parser's default, which follows new TOML versions.
 */
const TOML_VERSION = '1.1.0';

/**
 * Longer texts read as unreadable. The parser spreads each string's characters into one call's arguments, so a string
 * near 125,000 characters overflows the stack, sooner the deeper the caller: a bound on the whole text keeps the same
 * text readable or not wherever it is read (64 KiB leaves half the stack to the callers).
 */
export const MAX_TOML_TEXT = 64 * 1024;

type Entry = { node: AST.TOMLContentNode; path: ValuePath; depth: number };

const keyNames = (key: AST.TOMLKey): string[] => key.keys.map((k) => (k.type === 'TOMLBare' ? k.name : k.value));

function parsed(text: string): AST.TOMLProgram | undefined {
  if (text.length > MAX_TOML_TEXT) return undefined;
  try {
    return parseTOML(text, { tomlVersion: TOML_VERSION });
  } catch {
    // a syntax error, or a stack overflow on arrays nested thousands deep (deeper than read below anyway)
    return undefined;
  }
}

/** The values to mask in a TOML text, in order; undefined when it can't be read. */
export function tomlMaskedValues(text: string): MaskedValue[] | undefined {
  const program = parsed(text);
  if (!program) return undefined;
  const top: Entry[] = [];
  for (const item of program.body[0].body) {
    const pairs = item.type === 'TOMLTable' ? item.body : [item];
    const table = item.type === 'TOMLTable' ? item.resolvedKey : [];
    for (const pair of pairs) top.push({ node: pair.value, path: [...table, ...keyNames(pair.key)], depth: 0 });
  }
  const values: MaskedValue[] = [];
  // a stack, not recursion, and the same bound on nesting as the JSON configs'
  const stack = top.reverse();
  while (stack.length > 0) {
    const { node, path, depth } = stack.pop()!;
    if (node.type === 'TOMLValue') {
      const tag = node.kind === 'string' ? maskTag(path, true) : undefined;
      if (tag) values.push({ path, start: node.range[0], end: node.range[1], tagged: JSON.stringify(tag) });
      continue;
    }
    if (depth >= MAX_SETTINGS_DEPTH) return undefined;
    const children: Entry[] =
      node.type === 'TOMLArray'
        ? node.elements.map((child, i) => ({ node: child, path: [...path, i], depth: depth + 1 }))
        : node.body.map((pair) => ({ node: pair.value, path: [...path, ...keyNames(pair.key)], depth: depth + 1 }));
    stack.push(...children.reverse());
  }
  return values;
}
