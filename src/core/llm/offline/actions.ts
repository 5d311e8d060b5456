import { posix } from 'node:path';
import { GRAMMARS } from '../../trace/shell/grammars';
import { identityKey, folderOf, KIT, parseLine, type Identity } from '../../trace/shell';

// What a command line does, read by the shell parser: its main command (past `cd`s, with output filters such as
// `| tail` left out), that command's identity and targets, and the folder it ran in. Two runs are the same action when
// they do the same thing to the same targets; what differs between a failing run and a passing one of the same action
// (a flag, a variable, a wrapper, the folder, the program) is the fix.

/** Programs that only shape another command's output: `x | tail -20` is `x`. */
const FILTERS = new Set([
  'tail',
  'head',
  'grep',
  'rg',
  'sort',
  'uniq',
  'wc',
  'cat',
  'less',
  'more',
  'tee',
  'cut',
  'tr',
]);

export interface Action {
  /** The main command's words as the shell passes them (assignments first). */
  words: string[];
  /** The main command as typed, output redirections left out. */
  text: string;
  identity: Identity;
  /** Folder of the main command: the call's own working folder moved by any `cd` before it. */
  cwd?: string;
  /** Other commands the line runs (not `cd`, not output filters): such a line is compared whole. */
  others: string[];
}

/** What changed between a failing action and a passing one. */
export type Change = 'same' | 'folder' | 'variant' | 'replace' | 'wrapper' | 'program';

const REDIRECT = /\s+\d?>{1,2}&?\s*(?:\d\b|\/dev\/null\b)|\s+&>\s*\/dev\/null\b/g;

/** Commands that set up the environment of the next one (`source .env && x`): part of how it runs. */
const ENVIRONMENT = new Set(['source', '.', 'export', 'set']);

export function actionOf(line: string, workdir?: string): Action | undefined {
  const commands = parseLine(line).commands.filter((c) => c.words[0] !== 'cd' && c.words[0] !== 'pushd');
  let start = 0;
  while (start < commands.length - 1 && ENVIRONMENT.has(commands[start].words[0])) start++;
  const setup = commands.slice(0, start);
  const [main, ...rest] = commands.slice(start);
  if (!main) return undefined;
  const invocation = KIT.invocation(main.words);
  if (!invocation) return undefined;
  const others = rest.filter((c) => !FILTERS.has(posix.basename(c.words[0] ?? ''))).map((c) => c.words.join(' '));
  const cwd = folderOf(workdir, main.cwd);
  return {
    words: [...setup.flatMap((c) => c.words), ...main.words],
    text: [...setup.map((c) => c.text), main.text.replace(REDIRECT, '').trim()].join(' && '),
    identity: KIT.identify(invocation),
    ...(cwd === undefined ? {} : { cwd }),
    others,
  };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((w, i) => w === b[i]);
const sorted = (a: readonly string[]) => [...a].sort();

/** The longest run of words both end with. */
function commonTail(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/** Whether `passing` is `failing` with settings added: flags with their values, or `NAME=value` words. */
function addsSettings(failing: readonly string[], passing: readonly string[]): boolean {
  const left = [...failing];
  let added = 0;
  for (let i = 0; i < passing.length; i++) {
    const at = left.indexOf(passing[i]);
    if (at >= 0) {
      left.splice(at, 1);
      continue;
    }
    const setting = passing[i].startsWith('-') || /^[A-Za-z_]\w*=/.test(passing[i]);
    const valueOfAdded = i > 0 && passing[i - 1].startsWith('-') && !failing.includes(passing[i - 1]);
    if (!setting && !valueOfAdded) return false;
    added++;
  }
  return left.length === 0 && added > 0;
}

/**
 * How `passing` differs from `failing` when both do the same thing; undefined when they are different actions (another
 * file read, another subcommand, another program with other arguments): then the pass says nothing of the failure.
 */
export function changeBetween(failing: Action, passing: Action): Change | undefined {
  if (!sameList(sorted(failing.others), sorted(passing.others))) return undefined;
  const sameFolder = (failing.cwd ?? '.') === (passing.cwd ?? '.');
  if (sameList(failing.words, passing.words)) return sameFolder ? 'same' : 'folder';
  // one change at a time: a run in another folder with other words could have been fixed by either
  if (!sameFolder) return undefined;
  const [f, p] = [failing.identity, passing.identity];
  const onlyAdded = addsSettings(failing.words, passing.words);
  // `uv run --group docs mkdocs build`: a launcher's setting added is the same command run differently
  if (onlyAdded) return 'variant';
  if (identityKey(f) === identityKey(p)) {
    if (sameList(sorted(f.targets), sorted(p.targets)))
      return failing.words.every((w) => passing.words.includes(w)) ? 'variant' : 'replace';
  }
  // `rtk bun run test` and `bun run test`: the same command through another wrapper (a tool's own words at the tail)
  const tail = commonTail(failing.words, passing.words);
  const shorter = Math.min(failing.words.length, passing.words.length);
  const at = failing.words.length - tail;
  if (tail >= 2 && (tail === shorter || Object.prototype.hasOwnProperty.call(GRAMMARS, failing.words[at])))
    return failing.words.every((w) => passing.words.includes(w)) ? 'variant' : 'wrapper';
  // `python - <<'PY'` and `python3 - <<'PY'`: another program given the same arguments
  if (tail === failing.words.length - 1 && tail === passing.words.length - 1 && tail >= 1) return 'program';
  return undefined;
}
