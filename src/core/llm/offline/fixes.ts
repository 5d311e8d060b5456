import { isAutoFix, sectionOfCommandKind, type CommandKind } from '../../trace/commands';
import type { ToolCallStep, ToolResultStep, Trace } from '../../trace/model';
import { editedFiles } from '../../trace/edits';
import { canonicalCommand } from '../../trace/canonicalCommand';
import { identityKey } from '../../trace/shell';
import type { Lesson } from '../../learn/types';
import { changeBetween, type Action } from './actions';
import { carriesOut, namedFixes } from './hints';
import { isTypoFix } from './typos';
import { errorKey, errorLine } from './errorLine';
import { relativeCommand, relativeFolder } from './workspacePaths';
import { escapeRegExp } from '../../util/regExp';

// The fix is what changed. A failing run teaches something only when the same action passes soon after, before any
// edit (an edit explains a pass by itself): whatever differs between the two — a command run in between, a variable, a
// flag, a wrapper, the folder, the program — is the lesson. Two different actions (reading another file, another
// subcommand) are never paired: the second passing says nothing of the first failing.

/** How far after a failure we look for the same action passing. */
const FIX_WINDOW = 14;

export interface Run {
  call: ToolCallStep;
  result: ToolResultStep;
  command: string;
  kind: CommandKind;
  failed: boolean;
  /** Passed by the record: no failure, and some output or a status when the session was exported by another tool. */
  passed: boolean;
  action?: Action;
}

/** A user's correction: where it was said and its words. */
export interface Said {
  index: number;
  text: string;
}

/** One failure and the runs soon after it, as the pairing reads them. */
interface FailureScene {
  trace: Trace;
  failure: Run;
  failing: Action;
  error: string | undefined;
  /** The runs soon after the failure with no edit between (an edit explains a pass by itself). */
  later: Run[];
  /** What changed from the failing action to a later one (undefined: another action). */
  changeOf: (r: Run) => ReturnType<typeof changeBetween>;
  /** A run that carries out a step the failure's output named. */
  hinted: (r: Run) => boolean;
  /** The same command given what the failure named (`deno add jsr:@std/xml` after "did you mean jsr:…?"). */
  namedForm: (r: Run) => boolean;
  evidence: (...steps: number[]) => Lesson['evidence'];
}

function sceneOf(trace: Trace, runs: readonly Run[], i: number, edits: readonly number[]): FailureScene | undefined {
  const failure = runs[i];
  if (!failure.failed || !failure.action) return undefined;
  const failing = failure.action;
  const editedBefore = (r: Run) => edits.some((e) => e > failure.call.index && e < r.call.index);
  const later = runs
    .slice(i + 1)
    .filter((r) => r.call.index - failure.call.index <= FIX_WINDOW && !editedBefore(r) && r.action);
  const fixes = namedFixes(failure.result.output);
  const hinted = (r: Run) => fixes.some((fix) => carriesOut(r.command, fix));
  return {
    trace,
    failure,
    failing,
    error: errorLine(failure.result.output),
    later,
    changeOf: (r) => changeBetween(failing, r.action as Action),
    hinted,
    namedForm: (r) =>
      r.passed && identityKey(failing.identity) === identityKey((r.action as Action).identity) && hinted(r),
    evidence: (...steps) => ({ traceId: trace.id, steps: [...new Set(steps)].sort((a, b) => a - b) }),
  };
}

/**
 * The first run of the same action that passed, or that failed again with another error (a set-up step fixed what it
 * failed with first: the client generated, the tests now fail on the task's own bug).
 */
function retryOf(scene: FailureScene): Run | undefined {
  const { failure, later, hinted, changeOf, namedForm, error } = scene;
  // a step the failure named, then a check of the same kind passing: the output said what fixed it
  const named = later.findIndex((r) => !r.failed && hinted(r));
  const sameJob = (r: Run, at: number) =>
    named >= 0 && at > named && r.passed && r.kind === failure.kind && r.kind !== 'other' && !hinted(r);
  return later.find((r, at) => {
    if (sameJob(r, at) || namedForm(r)) return true;
    const change = changeOf(r);
    if (!change) return false;
    if (r.passed) return true;
    return change === 'same' && errorKey(errorLine(r.result.output) ?? '') !== errorKey(error ?? '');
  });
}

/** No retry passed, but the user's correction named a command that then worked: that replaces the failing one. */
function correctionLesson(scene: FailureScene, corrections: readonly Said[], stated: Set<number>): Lesson | undefined {
  const { trace, failure, later, error } = scene;
  const said = correctionAfter(failure, later, corrections);
  const named = said && namedIn(said, later);
  const [failed, worked] = [display(failure, trace.cwd), named && display(named, trace.cwd)];
  if (!said || !named || failed === undefined || worked === undefined || failed === worked) return undefined;
  stated.add(said.index);
  return {
    section: sectionOfCommandKind(failure.kind) ?? 'Pitfalls',
    kind: 'pitfall',
    key: `replace:${keyOf(failure)}=>${keyOf(named)}`,
    content: `Run \`${worked}\`, not \`${failed}\`${error ? `: it fails with \`${error}\`` : ''}.`,
    evidence: scene.evidence(failure.call.index, failure.result.index, named.call.index, named.result.index),
  };
}

/** What the change between the failure and its retry teaches: a step before it, a repair, a folder, a program, a form. */
function retryLesson(scene: FailureScene, retry: Run): Lesson | undefined {
  const { trace, failure, failing, error, later, hinted, changeOf, namedForm } = scene;
  const change = changeOf(retry) ?? (namedForm(retry) ? 'replace' : 'same');
  if (change !== 'same' && isTypoFix(failure.command, retry.command, failure.result.output)) return undefined;
  const folder = (r: Run) => relativeFolder(r.action?.cwd, trace.cwd);
  const shown = (r: Run) => display(r, trace.cwd);
  const failed = shown(failure);
  const worked = shown(retry);
  if (failed === undefined || worked === undefined) return undefined;
  const errorText = error ? ` with \`${error}\`` : '';
  const section = sectionOfCommandKind(failure.kind) ?? 'Pitfalls';
  const cite = (...more: Run[]) =>
    scene.evidence(...[failure, ...more, retry].flatMap((r) => [r.call.index, r.result.index]));
  // a repair run between (`bun run lint:fix`) is a fix like a set-up step: the check passing next says it worked
  const repairs = (r: Run) => isAutoFix(r.command) && r.kind !== 'other';
  const between = later.filter(
    (r) => r.call.index < retry.call.index && !r.failed && (isSetup(r) || hinted(r) || repairs(r)) && !changeOf(r),
  );
  const prep = between.find(hinted) ?? between[between.length - 1];
  const autofix = (repair: Run): Lesson | undefined => {
    const [check, fix] = [shown(failure), shown(repair)];
    if (check === undefined || fix === undefined || check === fix) return undefined;
    return {
      section: 'Pitfalls',
      kind: 'pitfall',
      key: `autofix:${keyOf(failure)}=>${keyOf(repair)}`,
      content: `When \`${check}\` fails, run \`${fix}\`, then \`${check}\` again.`,
      evidence: cite(repair),
    };
  };
  const prerequisite = (step: Run): Lesson | undefined => {
    const before = shown(step);
    if (before === undefined || folder(step) !== folder(failure)) return undefined;
    return {
      section,
      kind: 'procedure',
      // the step and what it fixes: the same missing step before `cargo build` and `cargo test` is one lesson
      key: `prereq:${keyOf(step)}=>${errorKey(error ?? keyOf(failure))}`,
      content: `Run \`${before}\` before \`${failed}\`: without it \`${failed}\` fails${errorText}.`,
      evidence: cite(step),
    };
  };
  // only a check is repaired so: a commit that passes after a fix was refused by a hook, whose check is the lesson
  const repairable = failure.kind === 'lint' || failure.kind === 'typecheck' || failure.kind === 'test';
  if (change === 'same' && prep && repairs(prep) && repairable) return autofix(prep);
  if (change === 'same' || between.some(hinted)) return prep && prerequisite(prep);
  if (change === 'folder') {
    const [from, to] = [folder(failure), folder(retry)];
    if (from === undefined || to === undefined || from === to) return undefined;
    const where = (f: string) => (f === '.' ? 'from the repository root' : `in \`${f}/\``);
    return {
      section,
      kind: 'pitfall',
      key: `workdir:${keyOf(failure)}@${to}`,
      content: `Run \`${worked}\` ${where(to)}: ${where(from)} it fails${errorText}.`,
      evidence: cite(),
    };
  }
  // another program given the same input: when the first is not there at all, that is the lesson; else it is
  // another way to do the same job (`pnpm test` where `yarn test` fails)
  const gone = failing.words[0];
  const instead = retry.action?.words[0] ?? '';
  const missing =
    failure.result.exitCode === 127 ||
    new RegExp(`\\b${escapeRegExp(gone)}:? (?:command )?not found`).test(failure.result.output);
  // the same input (a heredoc's script too): `node` running what `python` could not read is another job
  if (change === 'program' && failure.call.command?.replace(gone, instead).trim() !== retry.call.command?.trim())
    return undefined;
  if (change === 'program' && missing)
    return {
      section: 'Pitfalls',
      kind: 'pitfall',
      key: `program:${gone}=>${instead}`,
      content: `Run \`${instead}\`, not \`${gone}\`: it is not installed here (it fails${errorText}).`,
      evidence: cite(),
    };
  if (failed === worked) return undefined;
  if (isAutoFix(retry.command) && failure.kind !== 'format')
    return {
      section: 'Pitfalls',
      kind: 'pitfall',
      key: `autofix:${keyOf(failure)}=>${keyOf(retry)}`,
      content: `When \`${failed}\` fails${errorText}, \`${worked}\` resolves it.`,
      evidence: cite(),
    };
  return {
    section,
    kind: 'pitfall',
    key:
      change === 'variant'
        ? `variant:${keyOf(failure)}+${added(failing, retry)}`
        : `${change}:${keyOf(failure)}=>${keyOf(retry)}`,
    content:
      change === 'variant'
        ? `Run \`${worked}\`, not \`${failed}\`: the plain form fails${errorText}.`
        : `Run \`${worked}\`, not \`${failed}\`: it fails${errorText}.`,
    evidence: cite(),
  };
}

/**
 * The lessons of a session's failures, and the corrections whose named command became one (the record states that
 * correction's lesson: the user's words would only say it again).
 */
export function failureLessons(
  trace: Trace,
  runs: readonly Run[],
  corrections: readonly Said[] = [],
  edits: readonly number[] = editSteps(trace),
): { lessons: Lesson[]; stated: Set<number> } {
  const stated = new Set<number>();
  const lessons: Lesson[] = [];
  runs.forEach((_, i) => {
    const scene = sceneOf(trace, runs, i, edits);
    if (!scene) return;
    const retry = retryOf(scene);
    const lesson = retry ? retryLesson(scene, retry) : correctionLesson(scene, corrections, stated);
    if (lesson) lessons.push(lesson);
  });
  return { lessons, stated };
}

/** What a variant adds to the failing command (`TZ=UTC`, `--group docs`), whichever command it was added to. */
function added(failing: Action, retry: Run): string {
  const have = new Set(failing.words);
  return (retry.action?.words ?? [])
    .filter((w) => !have.has(w))
    .join(' ')
    .toLowerCase();
}

/** The steps of a session that edited a file: an edit between a failure and a pass explains the pass by itself. */
export function editSteps(trace: Trace): number[] {
  return trace.steps.filter((s) => s.kind === 'tool_call' && editedFiles(s, trace.cwd).length > 0).map((s) => s.index);
}

/** A user's correction right after the failure, before the agent ran anything else. */
function correctionAfter(failure: Run, later: readonly Run[], corrections: readonly Said[]): Said | undefined {
  const next = later[0]?.call.index ?? Infinity;
  return corrections.find((c) => c.index > failure.result.index && c.index < next);
}

/**
 * Another command the user named in that correction, run and passed next: the user said what fixes it ("use `deno
 * task dev`"), so the two commands are paired though they are different actions.
 */
function namedIn(said: Said, later: readonly Run[]): Run | undefined {
  const text = said.text.toLowerCase().replace(/\s+/g, ' ');
  // the command as typed (its first words: `pnpm biome check`), not as its grammar names it (`pnpm run biome`)
  const named = (r: Run) => r.action !== undefined && text.includes(r.action.words.slice(0, 3).join(' ').toLowerCase());
  return later.find((r) => r.passed && named(r));
}

/** The identity a lesson is keyed by: the same action's lesson from two sessions merges. */
function keyOf(run: Run): string {
  return run.action ? identityKey(run.action.identity) : run.command.toLowerCase();
}

/**
 * A run's main command as a rule names it: output redirections and filters left out, paths into the workspace made
 * relative to the folder it ran in, a check's one-task selectors dropped. Undefined when it names a path outside the
 * workspace or ran outside it: such a command runs on one machine only.
 */
export function display(run: Run, workspace: string | undefined): string | undefined {
  if (!run.action) return undefined;
  const folder = relativeFolder(run.action.cwd, workspace);
  if (folder === undefined) return undefined;
  const text = relativeCommand(run.action.text, workspace, folder);
  return text === undefined ? undefined : canonicalCommand(text);
}

/** Steps that set things up for a check (install, generate, build, load an environment), never another check. */
export function isSetup(run: Run): boolean {
  if (['install', 'codegen', 'build', 'run'].includes(run.kind)) return true;
  if (/^\s*(?:source|\.|export|set -a|direnv|docker compose up|docker-compose up)\b/.test(run.command)) return true;
  // a migration, or a tool run through the project's runner (`uv run alembic upgrade head`, `cargo xtask codegen`)
  return (
    /\b(?:migrate|migrations?|alembic|upgrade head|db:[\w:]+|db push|seed|flyway|goose|diesel)\b/i.test(run.command) ||
    /^\s*(?:uv|poetry|pipenv|pdm|hatch) run\s|^\s*(?:bundle exec|cargo xtask|just|task)\s/.test(run.command)
  );
}
