import { classifyCommand, commandKey, firstCommand, type CommandKind } from '../../trace/commands';
import { canonicalCommand } from '../../trace/canonicalCommand';
import { jaccard, tokens } from '../../playbook/similarity';
import { nameTheSame } from './codeTerms';
import { procedureSteps } from './procedureSteps';
import { purposeOf } from './ruleText';
import { COUNTERPARTS, isCounterpartOf, matchesCommand, ruleCommands } from './ruleEvidence';
import { actionsWithin, actsOnNamesOf, differentActions } from './sameAction';

// Two statements an agent cannot both follow: one prescribes a command the other rules out ("Install with
// `npm install`" / "never npm, always pnpm"), or both name the one way to do a job and name different commands
// ("Run the tests with `npm test`" / "… with `pnpm test`"); and two that tell an agent the same thing. Found here;
// which side wins is `compareStanding`'s ranking, applied in service/learnRun/resolveConflicts.ts.

/** Jobs a repository has one way of doing: two rules naming different commands for one of them disagree. */
const ONE_WAY_KINDS: ReadonlySet<CommandKind> = new Set(['test', 'build', 'lint', 'typecheck', 'install', 'format']);

/** Words that make a rule conditional or a sequence: it does not claim to be the one way to do its job. */
const CONDITIONAL = /\b(?:before|after|when|whenever|if|unless|first|then|once|until|while|instead|not|never|only)\b/i;

/** A rule's commands, without the error lines it quotes ("… fails with `npm error code EUNSUPPORTEDPROTOCOL`"). */
export function statedCommands(content: string): ReturnType<typeof ruleCommands> {
  return ruleCommands(content.replace(/\bfail(?:s|ed)?\b[^`.;]{0,24}`[^`\n]*`/gi, 'fails'));
}

/**
 * Whether `a` rules out a command `b` prescribes in favour of a refinement of it (`TZ=UTC pnpm test`, not
 * `pnpm test`; `cargo test --features simd`, not `cargo test`): following `a` does what `b` asks, and more.
 */
export function refines(a: string, b: string): boolean {
  const own = statedCommands(a).prescribed;
  return statedCommands(b).prescribed.some(
    (plain) => ruleRulesOut(a, plain) && own.some((c) => c !== plain && matchesCommand(c, plain)),
  );
}

/** A command the rule would call breaking it: one it rules out, or its own job done with a counterpart tool. */
export function ruleRulesOut(content: string, command: string): boolean {
  // a global tool (`npm install -g x`, `sudo pip install x`) is not the repository's own way of installing
  if (/(?:^|\s)(?:-g|--global|--user)\b|^sudo\s/.test(command)) return false;
  const { prescribed, forbidden } = statedCommands(content);
  if (prescribed.some((c) => matchesCommand(command, c))) return false;
  return forbidden.some((f) => matchesCommand(command, f)) || prescribed.some((c) => isCounterpartOf(command, c));
}

/** The job and the command of a rule that names the one way to do a job ("Run the tests with `pnpm test`."). */
function oneWay(content: string): { kind: CommandKind; command: string } | undefined {
  const { prescribed } = statedCommands(content);
  const commands = prescribed.filter((c) => c.includes(' ') || !/^[a-z]+$/.test(c));
  if (commands.length !== 1 || CONDITIONAL.test(content)) return undefined;
  const command = canonicalCommand(commands[0]);
  // `npm install -g @acme/tools` or `sudo …` installs one thing: not the way the repository installs its dependencies
  if (/^sudo\b/.test(command) || command.split(/\s+/).some((w) => /[@/]/.test(w) && !w.startsWith('-')))
    return undefined;
  const kind = classifyCommand(command);
  return ONE_WAY_KINDS.has(kind) ? { kind, command } : undefined;
}

function rivals(a: string, b: string): boolean {
  const [toolA, toolB] = [firstCommand(a).split(' ')[0], firstCommand(b).split(' ')[0]];
  return (COUNTERPARTS[toolA] ?? []).includes(toolB);
}

/** Whether a rule only names the way to do a job ("Run the tests with `pnpm test`."), with no condition or reason. */
export function namesOnlyTheWay(content: string): boolean {
  return oneWay(content) !== undefined && statedCommands(content).forbidden.length === 0;
}

/** Why two statements cannot both be followed, in a few words naming the command; undefined when they can. */
export function conflictBetween(a: string, b: string): string | undefined {
  for (const [one, other] of [
    [a, b],
    [b, a],
  ]) {
    // "run `pnpm db:generate` before `pnpm test`" and "run `TZ=UTC pnpm test`, not `pnpm test`" agree: the second
    // only says how to run the first's `pnpm test`; "run the tests with `pnpm test`" does disagree with it
    const refinedThere = (c: string) =>
      statedCommands(other).prescribed.some((p) => p !== c && matchesCommand(p, c)) && oneWay(one) === undefined;
    const clash = statedCommands(one).prescribed.find((c) => ruleRulesOut(other, c) && !refinedThere(c));
    if (clash) return `one says to run \`${clash}\`, the other rules it out`;
  }
  const [x, y] = [oneWay(a), oneWay(b)];
  // `pnpm test --project unit` refines `pnpm test`; `npm test` and `pnpm test` are the same job with rival tools
  if (x && y && x.kind === y.kind && rivals(x.command, y.command))
    return `they name different commands for the same job (\`${x.command}\`, \`${y.command}\`)`;
  return undefined;
}

/** Words two wordings of one rule share at least, when neither is a plain statement of a job's command. */
const CLOSE_WORDING = 0.6;

type Purpose = { prescribed: ReadonlySet<string>; forbidden: ReadonlySet<string> };

/** Rules read once: a run compares every new rule with every other (bounded, cleared when full). */
const PURPOSES = new Map<string, Purpose>();

/** The commands a rule prescribes, in their general form: what it tells an agent to run, whatever the wording. */
function purpose(content: string): Purpose {
  let found = PURPOSES.get(content);
  if (!found) {
    if (PURPOSES.size >= 16_384) PURPOSES.clear();
    found = readPurpose(content);
    PURPOSES.set(content, found);
  }
  return found;
}

function readPurpose(content: string): Purpose {
  const { prescribed, forbidden } = statedCommands(content);
  // `pnpm add x` and `pnpm install` are the one job of installing with pnpm, as a lesson goes
  const job = (c: string) => {
    const general = canonicalCommand(c);
    // a global tool (`npm install -g @acme/cli`) is not the repository's install
    const global = /(?:^|\s)(?:-g|--global)\b|^sudo\s/.test(general);
    return purposeOf(general) === 'install' && !global ? `${commandKey(general).split(' ')[0]} install` : general;
  };
  const general = (list: readonly string[]) => new Set(list.map(job));
  // "uses pnpm … run pnpm install": the tool choice is said by its command already
  const commands = [...general(prescribed)];
  const said = commands.filter((c) => c.includes(' ') || !commands.some((d) => d.startsWith(`${c} `)));
  return { prescribed: new Set(said), forbidden: general(forbidden) };
}

/**
 * Whether two statements tell an agent the same thing: the same first command (in its general form), the commands of
 * one among the other's, and — unless one only names the way to do a job or the tool to use — the same names or nearly
 * the same words; statements without commands, the same names (`apiFetch`, `internal/logx`), and one without beside
 * one with, the same names other than paths and branches. `a-more` / `b-more`:
 * which one says more (more commands, more ruled out, or why); `same` when neither does; undefined when they differ.
 */
export function samePurpose(a: string, b: string): 'a-more' | 'b-more' | 'same' | undefined {
  // other targets of one tool (`make gen-001`, `make gen-002`) are other lessons, whatever names both rules share
  if (differentActions(a, b)) return undefined;
  const [x, y] = [purpose(a), purpose(b)];
  if (x.prescribed.size > 0 && y.prescribed.size > 0) {
    const [first, other] = [[...x.prescribed][0], [...y.prescribed][0]];
    // `RUST_MIN_STACK=8388608 cargo test` is `cargo test` run the way one of them says
    const narrows = (p: string, q: string) => q.includes(' ') && matchesCommand(p, q);
    const related = first === other || narrows(first, other) || narrows(other, first);
    const rest = (p: ReadonlySet<string>, head: string) => [...p].filter((c) => c !== head);
    const within = (p: string[], q: string[]) => p.every((c) => q.includes(c));
    const [restX, restY] = [rest(x.prescribed, first), rest(y.prescribed, other)];
    // other commands, but the same two or more names, and one's commands among the other's or acting on what it names
    // (`.env.local`, `.env.example`): one lesson told from two ends
    const sameCommands = related && (within(restX, restY) || within(restY, restX));
    // "use `--group docs` with uv" names a flag of the other's `uv run --group docs mkdocs build`: its lesson
    if (namesFlagOf(a, x, y) || namesFlagOf(b, y, x)) return conflictBetween(a, b) ? undefined : more(x, y, a, b);
    if (!sameCommands && !((actionsWithin(a, b) || actsOnNamesOf(a, b)) && nameTheSame(a, b, 2))) return undefined;
    // a refinement is the same lesson only where both name what it adds (`RUST_MIN_STACK=8388608`); `pnpm test
    // --project unit` to skip the e2e tests is not "run the tests with `pnpm test`"
    if (sameCommands && first !== other && !nameTheSame(a, b)) return undefined;
    // the same command under other conditions ("WIP commits use `git commit --no-verify`") is another rule, unless
    // both rule the same things out, or one only names the way to do a job or the tool to use
    const plain = (content: string, p: ReturnType<typeof purpose>) =>
      oneWay(content) !== undefined || [...p.prescribed].every((c) => !c.includes(' '));
    // what one rules out, the other rules out too (`npm install` is ruled out by a rule that rules out npm)
    const covers = (p: ReadonlySet<string>, q: ReadonlySet<string>) =>
      [...p].every((f) => [...q].some((g) => matchesCommand(f, g)));
    const sameRuledOut =
      x.forbidden.size > 0 &&
      y.forbidden.size > 0 &&
      (covers(x.forbidden, y.forbidden) || covers(y.forbidden, x.forbidden));
    const alike = jaccard(tokens(a), tokens(b)) >= CLOSE_WORDING || nameTheSame(a, b);
    if (!sameRuledOut && !plain(a, x) && !plain(b, y) && !alike) return undefined;
  } else {
    // a rule naming no command and a line running one on a path or branch (`git log release/v2`) are not one lesson
    // because both name the place: only the other names they share count then
    const oneRuns = (commandCount(x) === 0) !== (commandCount(y) === 0);
    if (!nameTheSame(a, b, 1, !oneRuns)) return undefined;
  }
  if (conflictBetween(a, b)) return undefined;
  return more(x, y, a, b);
}

/** Which of two statements of one lesson says more: more commands, more ruled out, or (by far) more words. */
function more(x: Purpose, y: Purpose, a: string, b: string): 'a-more' | 'b-more' | 'same' {
  const by = (p: number, q: number) => (p === q ? undefined : p > q ? 'a-more' : 'b-more');
  return (
    by(x.prescribed.size, y.prescribed.size) ??
    by(x.forbidden.size, y.forbidden.size) ??
    // the same commands either way: the longer wording carries the reason ("…: the plain form fails with …")
    (Math.abs(a.length - b.length) > 20 ? by(a.length, b.length) : undefined) ??
    'same'
  );
}

/**
 * Whether `text`, prescribing only tools (`uv`), names flags (`--group docs`) that are all part of a command `other`
 * prescribes with one of those tools: it tells that command's lesson without writing the command out.
 */
function namesFlagOf(text: string, own: Purpose, other: Purpose): boolean {
  const flags = [...text.matchAll(/`(-[^`\n]+)`/g)].map((m) => m[1].trim());
  const tools = [...own.prescribed];
  if (flags.length === 0 || tools.length === 0 || tools.some((t) => t.includes(' '))) return false;
  return flags.every((flag) =>
    [...other.prescribed].some(
      (c) => tools.some((t) => c.startsWith(`${t} `)) && c.split(/\s+/).join(' ').includes(flag),
    ),
  );
}

function commandCount(p: Purpose): number {
  return p.prescribed.size + p.forbidden.size;
}

/** Whether `rule` names a command (or a form or flag of one) `line` does not prescribe, or rules out one it does not. */
function addsCommands(rule: string, line: string): boolean {
  const [x, y] = [purpose(rule), purpose(line)];
  if ([...x.prescribed].some((c) => !y.prescribed.has(c))) return true;
  // choosing `uv` rules out pip and poetry by itself: a rival of a tool the line prescribes adds nothing
  const implied = (f: string) => [...y.prescribed].some((p) => rivals(p, f));
  return [...x.forbidden].some((f) => ![...y.forbidden].some((g) => matchesCommand(f, g)) && !implied(f));
}

/**
 * Whether `rule` tells an agent something `line` does not: a command, form, flag or ruled-out command it lacks, or a
 * condition where the team names the rule's commands only plainly (neither `line` nor any of `others` stating them all
 * says when). Conditions are weighed by being there, not word by word: "after editing" and "before committing" are
 * both the team's say on when. A line that says less does not restate the rule, however alike their purposes.
 */
export function saysMoreThan(rule: string, line: string, others: readonly string[] = []): boolean {
  if (addsCommands(rule, line)) return true;
  if (!CONDITIONAL.test(rule)) return false;
  return ![line, ...others].some((said) => CONDITIONAL.test(said) && !addsCommands(rule, said));
}

/**
 * Whether a procedure (a skill's steps, read whole, its shell blocks too) already tells an agent what `rule` does: it names every command the
 * rule prescribes (or a concrete form of one: `run.sh setup` for `run.sh <step>`) and rules out what the rule does.
 */
export function procedureStates(procedure: string, rule: string): boolean {
  const [steps, x] = [purpose(procedureSteps(procedure)), purpose(rule)];
  const said = (c: string, list: ReadonlySet<string>) => [...list].some((p) => p === c || matchesCommand(p, c));
  return (
    x.prescribed.size > 0 &&
    [...x.prescribed].every((c) => said(c, steps.prescribed)) &&
    [...x.forbidden].every((f) => said(f, steps.forbidden))
  );
}

/** How well a side of a conflict is evidenced, best first: the user's word, then what worked later, then before. */
export interface Standing {
  /** The user said it in a session (a correction or a stated convention). */
  userSaid: boolean;
  /** This run's sessions showed its way working after another way failed (a fix, a prerequisite, a variant). */
  fixedFailure: boolean;
  /** This run's sessions showed it working (a new rule's own support, or helpful evidence). */
  workedNow: boolean;
  /** This run's sessions showed it failing or corrected. */
  hurtNow: boolean;
  /** The team wrote it itself (outside Combee's block, or a pinned rule). */
  teamWord: boolean;
  /** Helpful minus harmful on its playbook line before this run. */
  record: number;
  /** Distinct sessions behind it in this run. */
  sessions: number;
}

function rank(s: Standing): number[] {
  if (s.hurtNow && !s.userSaid) return [-1];
  // more sessions where a way worked outweigh one where it fixed a failure: "not `x`" from one session is refuted
  // by the sessions where `x` passed
  return [s.userSaid ? 1 : 0, s.teamWord ? 1 : 0, s.workedNow ? 1 : 0, s.sessions, s.fixedFailure ? 1 : 0, s.record];
}

/** Negative when `a` is better evidenced, positive when `b` is, 0 when neither is. */
export function compareStanding(a: Standing, b: Standing): number {
  const [x, y] = [rank(a), rank(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++)
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0);
  return 0;
}
