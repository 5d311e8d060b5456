import { keyWords } from '../../learn/commandMatch';
import { COUNTERPARTS, ruleCommands, SAME_SUBCOMMAND } from '../../learn/ruleText';

// What an enforcement stops: a command whose leading words are a forbidden command's words. The words come from the
// rule's own commands (never a pattern taken from its text), each checked against a closed alphabet, and are compared
// as literal strings. The hook script (hookScript.ts) splits and compares commands exactly as this file does.

/** Leading words of a command an enforcement stops, lower case: `['npm', 'install']`. */
export type CommandMatcher = readonly string[];

/** A word a matcher may hold: no quote, `$`, backtick, glob, redirection, separator or space can get in. */
const SAFE_WORD = /^[a-z0-9._/-][a-z0-9._:@+/=-]*$/;
/** Characters that end one command and start another (a substitution's or a subshell's command stands alone). */
const SEPARATORS = new Set(['\n', '\r', ';', '&', '|', '(', ')', '`']);
/** Words that only run the next one: `sudo npm install` runs `npm install`. */
const WRAPPERS = new Set(['sudo', 'env', 'command', 'exec', 'time', 'nohup']);
const ASSIGNMENT = /^[a-z_][a-z0-9_]*=/;
/** The most of a command an enforcement reads: a longer one is read up to here (the hook reads the same). */
export const MAX_COMMAND_CHARS = 100_000;

export function isSafeMatcher(words: readonly string[]): boolean {
  return (
    words.length > 0 &&
    words.length <= 4 &&
    words.every((w) => w.length <= 64 && SAFE_WORD.test(w)) &&
    // a program is compared by its name (`/usr/bin/npm` runs `npm`): a path there would name nothing
    !words[0].includes('/')
  );
}

/** The words of each command in a command line, as the hook reads them: lower case, no quotes, no `sudo X=1`. */
export function commandWords(line: string): string[][] {
  const commands: string[][] = [];
  let current = '';
  const flush = () => {
    const words = current
      .split(/\s+/)
      .map((w) => w.replace(/["']/g, '').toLowerCase())
      .filter(Boolean);
    while (words.length > 0 && (ASSIGNMENT.test(words[0]) || WRAPPERS.has(words[0]))) words.shift();
    if (words.length > 0) {
      // `/usr/bin/npm` runs `npm`
      words[0] = words[0].slice(words[0].lastIndexOf('/') + 1);
      commands.push(words);
    }
    current = '';
  };
  for (const ch of line.slice(0, MAX_COMMAND_CHARS)) {
    if (SEPARATORS.has(ch)) flush();
    else current += ch;
  }
  flush();
  return commands;
}

/** Whether a command line runs one of the commands a matcher names. */
export function stops(line: string, matcher: CommandMatcher): boolean {
  return commandWords(line).some((words) => matcher.every((w, i) => words[i] === w));
}

/** `npm install` is also typed `npm i` and `npm add`. */
const INSTALL_ALIASES = ['install', 'i', 'add'];

/** The matchers a command stands for: its key words, with the install aliases of a package manager. */
function matchersOf(command: string): string[][] {
  const words = [...keyWords(command)];
  if (!isSafeMatcher(words)) return [];
  const [tool, sub] = words;
  if (tool && tool in COUNTERPARTS && sub && (sub === 'install' || SAME_SUBCOMMAND[sub] === 'install'))
    return INSTALL_ALIASES.map((alias) => [tool, alias, ...words.slice(2)]);
  return [words];
}

/**
 * The commands a rule forbids, as candidate matchers: what it names not to run (and, naming a tool, its counterparts:
 * "use pnpm" forbids `npm`), and the counterpart tools' command for a job it prescribes ("`pnpm test`" → `npm test`).
 * Only words that pass the safe alphabet; duplicates once, in the order the rule gives them.
 */
export function forbiddenMatchers(content: string): CommandMatcher[] {
  const { prescribed, forbidden } = ruleCommands(content);
  const found: string[][] = [];
  const add = (m: string[]) => {
    if (!found.some((f) => f.join(' ') === m.join(' '))) found.push(m);
  };
  for (const command of forbidden) for (const m of matchersOf(command)) add(m);
  for (const command of prescribed) {
    const [tool, ...rest] = keyWords(command);
    if (rest.length === 0) continue;
    for (const other of COUNTERPARTS[tool] ?? []) for (const m of matchersOf([other, ...rest].join(' '))) add(m);
  }
  // never one that would stop what the rule asks for
  return found.filter((m) => !prescribed.some((p) => stops(p, m)));
}
