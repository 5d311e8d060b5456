import { posix } from 'node:path';
import { GRAMMARS } from './grammars';
import { shellKit, type Identity } from './kit';
import { parseLine } from './parse';

// A command line as the invocations it runs, each with its identity by its tool's grammar: the one reading of a
// command that evidence, merging, conflicts, the backtest and the enforcement matcher share.

export type { Identity, Invocation } from './kit';
export { parseLine, unparsedCount } from './parse';

export const KIT = shellKit(GRAMMARS);

export interface LineIdentity extends Identity {
  /** The folder it ran in: the agent's own `workdir` for the call, moved by any `cd` before it on the line. */
  cwd?: string;
}

const IDENTITIES = new Map<string, readonly LineIdentity[]>();

/** The identity of each command a line runs, `cd` included (remembered per line). */
function lineIdentities(line: string): readonly LineIdentity[] {
  let found = IDENTITIES.get(line);
  if (!found) {
    if (IDENTITIES.size >= 16_384) IDENTITIES.clear();
    found = parseLine(line).commands.flatMap((c) => {
      const inv = KIT.invocation(c.words);
      return inv ? [{ ...KIT.identify(inv), ...(c.cwd === undefined ? {} : { cwd: c.cwd }) }] : [];
    });
    IDENTITIES.set(line, found);
  }
  return found;
}

/** The commands a line runs, `cd`s left out, each in its folder (`workdir` the folder the call itself ran in). */
export function identities(line: string, workdir?: string): LineIdentity[] {
  return lineIdentities(line)
    .filter((id) => id.words[0] !== 'cd' && id.words[0] !== 'pushd')
    .map((id) => {
      const cwd = folderOf(workdir, id.cwd);
      return cwd === undefined ? id : { ...id, cwd };
    });
}

/**
 * The folder a command ran in: the call's own folder moved by the line's `cd`. A `cd ~/x` is as absolute as `cd /x`:
 * the home folder is not under the call's folder.
 */
export function folderOf(workdir: string | undefined, cd: string | undefined): string | undefined {
  if (workdir === undefined || cd === undefined) return cd ?? workdir;
  if (cd === '~' || cd.startsWith('~/') || cd.startsWith('/')) return cd;
  // a relative workdir stays relative: resolving it would put it under this process's own folder
  return posix.normalize(posix.join(workdir, cd));
}

/** The line's first command, past its `cd`s; undefined when it runs none the parser could read. */
export function mainIdentity(line: string, workdir?: string): LineIdentity | undefined {
  return identities(line, workdir)[0];
}

/** An identity as one string: launcher, program, subcommand or script or targets (`uv run pytest`, `make gen-001`). */
export function identityKey(id: Identity): string {
  return [...id.launcher, ...id.words].join(' ');
}

/**
 * A rule's command (a backticked span) as an identity: `<pkg>`-style placeholders stand for any value, and
 * `!--flag` words name flags that must be absent.
 */
export function ruleIdentity(command: string): LineIdentity | undefined {
  // `<pkg>` would read as a redirection: quoted, it is the word it stands for
  const quoted = command.replace(/<[^<>'"`$\n]+>/g, (m) => `'${m}'`);
  const parsed = parseLine(quoted).commands.filter((c) => c.words[0] !== 'cd');
  const first = parsed[0];
  if (!first) return undefined;
  const id = KIT.ruleIdentity(first.words);
  return id && (first.cwd === undefined ? id : { ...id, cwd: first.cwd });
}

const RULE_IDS = new Map<string, LineIdentity | null>();
function cachedRuleIdentity(command: string): LineIdentity | undefined {
  let id = RULE_IDS.get(command);
  if (id === undefined) {
    if (RULE_IDS.size >= 16_384) RULE_IDS.clear();
    id = ruleIdentity(command) ?? null;
    RULE_IDS.set(command, id);
  }
  return id ?? undefined;
}

/** Whether a command a session ran does what a rule's command names (in the rule's folder, when it names one). */
export function runsRuleCommand(line: string, ruleCommand: string, workdir?: string): boolean {
  const rule = cachedRuleIdentity(ruleCommand);
  if (!rule) return false;
  return identities(line, workdir).some(
    (id) => KIT.matches(id, rule) && (rule.cwd === undefined || (id.cwd !== undefined && inFolder(id.cwd, rule.cwd))),
  );
}

/** `/home/x/repo/web` is in `web`; `web/src` is not `web`. */
function inFolder(cwd: string, folder: string): boolean {
  const want = posix.normalize(folder).replace(/\/$/, '');
  const have = posix.normalize(cwd).replace(/\/$/, '');
  return have === want || have.endsWith(`/${want}`);
}

/** Whether a failed exit status is the tool's answer (`rg` found nothing, `diff` found a difference). */
export function exitIsAnswer(line: string, exitCode: number | undefined): boolean {
  if (exitCode === undefined || exitCode === 0) return false;
  // the line's status is its last command's
  const last = lineIdentities(line).at(-1);
  return last !== undefined && KIT.exitAnswers(last, exitCode);
}
