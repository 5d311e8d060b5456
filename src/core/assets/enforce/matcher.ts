import { keyWords } from '../../learn/rules/commandMatch';
import { COUNTERPARTS, isPlaceholder, ruleCommands } from '../../learn/rules/ruleText';
import { identities, KIT, parseLine } from '../../trace/shell';

// What an enforcement stops: a command that does what a forbidden command names, by the tool's grammar — the same
// identity or a narrower one (`npm install` stops `npm i lodash`, not `npm view`), with the flags the rule names
// (`git status -uall`) and without the ones it requires (`git push !--force-with-lease`). The words come from the
// rule's own commands (never a pattern taken from its text), each checked against a closed alphabet. The hook script
// (hookScript.ts) embeds the same grammar code; test/unit/enforce holds the two to one behaviour.

/** A forbidden command's words: program, subcommand, targets and flags; `!--flag` for a flag that must be absent. */
export type CommandMatcher = readonly string[];

/** A word a matcher may hold: no quote, `$`, backtick, glob, redirection, separator or space can get in. */
const SAFE_WORD = /^!?[A-Za-z0-9._/-][A-Za-z0-9._:@+/=-]*$/;
/** The most of a command an enforcement reads: a longer one is not read at all (the hook reads the same). */
export const MAX_COMMAND_CHARS = 100_000;

export function isSafeMatcher(words: readonly string[]): boolean {
  return (
    words.length > 0 &&
    words.length <= 8 &&
    words.every((w) => w.length <= 64 && SAFE_WORD.test(w)) &&
    // a program is compared by its name (`/usr/bin/npm` runs `npm`): a path there would name nothing
    !words[0].includes('/') &&
    !words[0].startsWith('!') &&
    !words[0].startsWith('-')
  );
}

/** The words of each command a line runs, as the parser reads them (quotes removed; heredocs and strings are data). */
export function commandWords(line: string): string[][] {
  if (line.length > MAX_COMMAND_CHARS) return [];
  return parseLine(line).commands.map((c) => c.words);
}

/** Whether a command line runs a command the matcher names. */
export function stops(line: string, matcher: CommandMatcher): boolean {
  if (line.length > MAX_COMMAND_CHARS) return false;
  const rule = KIT.ruleIdentity(matcher);
  return rule !== undefined && identities(line).some((id) => KIT.matches(id, rule));
}

/** The matcher a rule's command stands for: its words, placeholders left out (they stand for any value). */
function matcherOf(command: string): string[] | undefined {
  const first = parseLine(command.replace(/<[^<>'"`$\n]+>/g, (m) => `'${m}'`)).commands.filter(
    (c) => c.words[0] !== 'cd',
  )[0];
  if (!first) return undefined;
  const words = first.words.filter((w) => !isPlaceholder(w));
  return isSafeMatcher(words) ? words : undefined;
}

/**
 * The commands a rule forbids, as candidate matchers: what it names not to run (and, naming a tool, its counterparts:
 * "use pnpm" forbids `npm`), and the counterpart tools' command for a job it prescribes ("`pnpm test`" → `npm test`).
 * Only words that pass the safe alphabet; duplicates once, in the order the rule gives them.
 */
export function forbiddenMatchers(content: string): CommandMatcher[] {
  const { prescribed, forbidden } = ruleCommands(content);
  const found: string[][] = [];
  const add = (m: string[] | undefined) => {
    if (m && !found.some((f) => f.join(' ') === m.join(' '))) found.push(m);
  };
  for (const command of forbidden) add(matcherOf(command));
  for (const command of prescribed) {
    const [tool, ...rest] = keyWords(command);
    if (rest.length === 0) continue;
    for (const other of COUNTERPARTS[tool] ?? []) add(matcherOf([other, ...rest].join(' ')));
  }
  // never one that would stop what the rule asks for
  return found.filter((m) => !prescribed.some((p) => stops(p, m)));
}
