import {
  classifyCommand,
  commandKey,
  firstCommand,
  isAutoFix,
  sectionOfCommandKind,
  type CommandKind,
} from '../../trace/commands';
import type { Step, ToolCallStep, ToolResultStep, Trace } from '../../trace/model';
import { editedFiles } from '../../trace/edits';
import { classifyTurns } from '../../trace/turns/classify';
import { withoutHalt } from '../../trace/turns/cues';
import { isQuestion, sentencesOf } from '../../trace/turns/sentences';
import { isReport } from '../../trace/turns/standing';
import type { Playbook } from '../../playbook/model';
import { bullets } from '../../playbook/model';
import type { BulletTag } from '../../playbook/delta';
import { ruleEvidence } from '../../learn/ruleEvidence';
import type { Lesson, Reflection } from '../../learn/types';
import { canonicalCommand } from '../../trace/canonicalCommand';
import { failedResult } from '../../learn/sessionSignals';
import { identities, identityKey } from '../../trace/shell';
import { carriesOut, namedFixes } from './hints';
import { asSentence, statedConventions } from './statements';
import { isTypoFix } from './typos';
import { coChanges } from './coChanges';
import { errorKey, errorLine } from './errorLine';

/** How far after a failure we look for the command that worked. */
const FIX_WINDOW = 14;
const CHECK_KINDS: CommandKind[] = ['test', 'build', 'lint', 'typecheck'];

interface Run {
  call: ToolCallStep;
  result: ToolResultStep;
  command: string;
  kind: CommandKind;
  failed: boolean;
}

/**
 * The offline reflector: mines grounded lessons from one trace without any model. Every lesson cites the steps
 * that show it. Deterministic: the same trace and playbook always give the same reflection.
 */
export function mineLessons(trace: Trace, playbook: Playbook): Reflection {
  const runs = commandRuns(trace.steps);
  const lessons: Lesson[] = [];
  const seen = new Set<string>();
  const add = (lesson: Lesson) => {
    if (lesson.key && seen.has(lesson.key)) return;
    if (lesson.key) seen.add(lesson.key);
    lessons.push(lesson);
  };
  const evidence = (...steps: number[]) => ({ traceId: trace.id, steps: [...new Set(steps)].sort((a, b) => a - b) });

  // 1. A failing command followed by the one that worked.
  const edits = editSteps(trace);
  runs.forEach((failure, i) => {
    if (!failure.failed) return;
    const error = errorLine(failure.result.output);
    const later = runs.slice(i + 1).filter((r) => r.call.index - failure.call.index <= FIX_WINDOW);
    // the failing command passing again, before any edit, is the retry; else the first passing run of its kind
    // (`make proto` between two `make build`s is a set-up step, not the retry)
    const editedBefore = (r: Run) => edits.some((e) => e > failure.call.index && e < r.call.index);
    const passes = later.filter((r) => !r.failed && !editedBefore(r));
    // or the failing command failing again, before any edit, with another error after a set-up step: the step fixed
    // what it failed with first (the Prisma client generated, the tests now fail on the task's own bug)
    const again = later.find((r) => sameKey(r.command, failure.command) && !editedBefore(r));
    const movedOn =
      again?.failed && errorKey(errorLine(again.result.output) ?? '') !== errorKey(error ?? '') ? again : undefined;
    const retry =
      passes.find((r) => sameKey(r.command, failure.command)) ??
      passes.find((r) => r.kind === failure.kind && r.kind !== 'other') ??
      movedOn;
    // none before an edit: the edit explains the pass, not a command
    if (!retry || isTypoFix(failure.command, retry.command, failure.result.output)) return;
    const fixes = namedFixes(failure.result.output);
    const hinted = (r: Run) => fixes.some((fix) => carriesOut(r.command, fix));
    const between = later.filter(
      (r) =>
        r.call.index < retry.call.index &&
        !r.failed &&
        (isSetup(r) || hinted(r)) &&
        !sameKey(r.command, failure.command),
    );
    // the general forms: which test file or filter the task needed says nothing of how to run the tests
    const failed = canonicalCommand(failure.command);
    const worked = canonicalCommand(retry.command);
    const errorText = error ? ` with \`${error}\`` : '';
    const section = sectionOf(failure.kind);
    const prep = between.find(hinted) ?? between[between.length - 1];
    const prerequisite = (step: Run): Lesson => {
      const before = canonicalCommand(step.command);
      return {
        section,
        kind: 'procedure',
        key: `prereq:${commandKey(before)}=>${commandKey(failed)}`,
        content: `Run \`${before}\` before \`${failed}\`: without it \`${failed}\` fails${errorText}.`,
        evidence: evidence(
          failure.call.index,
          failure.result.index,
          step.call.index,
          step.result.index,
          retry.call.index,
          retry.result.index,
        ),
      };
    };
    // failing again with another error: only a set-up step in between explains the change
    if (retry.failed) {
      if (prep) add(prerequisite(prep));
      return;
    }
    // a set-up step the failure named, run before the retry, is the lesson rather than the variant
    if (worked !== failed && isVariantOf(worked, failed) && !isAutoFix(retry.command) && !between.some(hinted)) {
      add({
        section,
        kind: 'pitfall',
        // what the variant adds is the lesson: `--group docs` whichever docs command it was added to
        key: `variant:${commandKey(failed)}+${addedWords(worked, failed)}`,
        content: `Run \`${worked}\`, not \`${failed}\`: the plain form fails${errorText}.`,
        evidence: evidence(failure.call.index, failure.result.index, retry.call.index, retry.result.index),
      });
    } else if (prep) {
      add(prerequisite(prep));
    } else if (
      worked !== failed &&
      retry.kind === failure.kind &&
      (!isAutoFix(retry.command) || failure.kind === 'format')
    ) {
      // another command for the same job: the one that worked replaces the one that failed
      add({
        section,
        kind: 'pitfall',
        key: `replace:${commandKey(failed)}=>${normalizeCommand(worked)}`,
        content: `Run \`${worked}\`, not \`${failed}\`: it fails${errorText}.`,
        evidence: evidence(failure.call.index, failure.result.index, retry.call.index, retry.result.index),
      });
    } else if (worked !== failed) {
      add({
        section: 'Pitfalls',
        kind: 'pitfall',
        key: `fix:${errorKey(error ?? failed)}=>${normalizeCommand(worked)}`,
        content: `When \`${failed}\` fails${errorText}, \`${worked}\` resolves it.`,
        evidence: evidence(failure.call.index, failure.result.index, retry.call.index, retry.result.index),
      });
    }
  });

  // 2. The user correcting the agent or stating how the team works, each turn read by its place in the dialogue: a
  // reply to the agent's question or a task request teaches nothing unless it states a standing instruction
  const turns = classifyTurns(trace.steps);
  for (const turn of turns) {
    if (turn.kind !== 'correction' || !turn.text) continue;
    const statement = directive(turn.text);
    if (!statement) continue;
    const previousAction = [...trace.steps.slice(0, turn.index)].reverse().find((s) => s.kind === 'tool_call');
    add(
      preference(statement, evidence(...(previousAction ? [previousAction.index] : []), turn.index, turn.contentIndex)),
    );
  }
  const stated = new Set(lessons.filter((l) => l.kind === 'preference').map((l) => l.content.toLowerCase()));
  for (const turn of turns) {
    for (const statement of statedConventions(turn)) {
      // a correction's own directive already holds it
      if ([...stated].some((s) => s.includes(statement.toLowerCase()))) continue;
      add(preference(statement, evidence(turn.contentIndex)));
    }
  }

  const failedForms = new Set(runs.filter((r) => r.failed).map((r) => canonicalCommand(r.command)));
  // 3. The check commands that worked in this repository (the shortest successful one of each kind).
  for (const kind of CHECK_KINDS) {
    // a run of one test file shows that file passing, not the suite: only a run of the general form counts
    const worked = runs
      .filter((r) => r.kind === kind && !r.failed && !isAutoFix(r.command))
      .map((r) => ({ run: r, general: canonicalCommand(r.command) }))
      .filter((w) => w.general === normalizeSpaces(w.run.command));
    if (worked.length === 0) continue;
    // a command that also failed here is a weaker word for "this works" than one that never did
    const failedHere = (w: (typeof worked)[number]) => (failedForms.has(w.general) ? 1 : 0);
    const best = [...worked].sort(
      (a, b) =>
        failedHere(a) - failedHere(b) || a.general.length - b.general.length || a.run.call.index - b.run.call.index,
    )[0];
    if (best.general.length > 80 || classifyCommand(best.general) !== kind) continue;
    add({
      section: sectionOf(kind),
      kind: 'rule',
      // one way to run each check: sessions that ran others vote for theirs (see the offline aggregator)
      key: `works:${kind}`,
      content: `${verb(kind)} with \`${best.general}\`.`,
      evidence: evidence(best.run.call.index, best.run.result.index),
    });
  }

  // 4. Files changed together in this session: a rule only once another session changes them together too.
  for (const lesson of coChanges(trace)) add(lesson);

  return { traceId: trace.id, lessons, tags: tagPlaybook(trace, playbook) };
}

function commandRuns(steps: Step[]): Run[] {
  const calls = new Map<string, ToolCallStep>();
  const runs: Run[] = [];
  for (const step of steps) {
    if (step.kind === 'tool_call' && step.command) calls.set(step.callId, step);
    if (step.kind === 'tool_result') {
      const call = calls.get(step.callId);
      if (!call?.command) continue;
      const command = firstLine(call.command);
      const failed = failedResult(step, call.command);
      runs.push({ call, result: step, command, kind: classifyCommand(command), failed });
    }
  }
  return runs;
}

/** Steps that set things up for a check (install, generate, build, load an environment), never another check. */
function isSetup(run: Run): boolean {
  if (['install', 'codegen', 'build', 'run'].includes(run.kind)) return true;
  if (/^\s*(?:source|\.|export|set -a|direnv|docker compose up|docker-compose up)\b/.test(run.command)) return true;
  // a migration, or a tool run through the project's runner (`uv run alembic upgrade head`, `cargo xtask codegen`)
  return (
    /\b(?:migrate|migrations?|alembic|upgrade head|db:[\w:]+|db push|seed|flyway|goose|diesel)\b/i.test(run.command) ||
    /^\s*(?:uv|poetry|pipenv|pdm|hatch) run\s|^\s*(?:bundle exec|cargo xtask|just|task)\s/.test(run.command)
  );
}

/** The section a rule goes to is what it is about; a kind of no check's section goes to Pitfalls. */
const sectionOf = (kind: CommandKind): string => sectionOfCommandKind(kind) ?? 'Pitfalls';

/** What a user said of how the team works, as a convention scoped to the folder it names. */
function preference(statement: string, evidence: Lesson['evidence']): Lesson {
  const key = `pref:${statement
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()}`;
  return { section: 'Conventions', kind: 'preference', key, content: statement, scope: pathScope(statement), evidence };
}

function firstLine(command: string): string {
  return command.split('\n')[0].trim();
}

/** The same commands in the same order, by identity: `curl x && tail log` is not a variant of `curl x`. */
function sameKey(a: string, b: string): boolean {
  const [x, y] = [identities(a), identities(b)];
  if (x.length === 0 || y.length === 0) return commandKey(a) === commandKey(b);
  return x.length === y.length && x.every((id, i) => identityKey(id) === identityKey(y[i]));
}

/**
 * `TZ=UTC pnpm vitest run x`, `pnpm vitest run x --runInBand` and `cargo run --example svg --features svg` are
 * variants of `pnpm vitest run x` and `cargo run --example svg`: the original's words, in order, with some added.
 */
function isVariantOf(candidate: string, original: string): boolean {
  const core = firstCommand(original).trim();
  if (candidate.includes(core) || firstCommand(candidate).startsWith(core)) return true;
  const want = core.split(/\s+/);
  const have = firstCommand(candidate).trim().split(/\s+/);
  let at = 0;
  for (const word of have) if (word === want[at]) at++;
  return at === want.length && have[0] === want[0];
}

/** The words a variant adds to the original, in order (`TZ=UTC`, `--features svg`). */
function addedWords(variant: string, original: string): string {
  const have = new Set(original.split(/\s+/));
  return variant
    .split(/\s+/)
    .filter((w) => !have.has(w))
    .join(' ')
    .toLowerCase();
}

/** The steps at which the agent edited a file, ascending: read once, asked of every failure. */
function editSteps(trace: Trace): number[] {
  return trace.steps.filter((s) => s.kind === 'tool_call' && editedFiles(s, trace.cwd).length > 0).map((s) => s.index);
}

function normalizeSpaces(command: string): string {
  return command.trim().replace(/\s+/g, ' ');
}

function normalizeCommand(command: string): string {
  return command.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The directive part of a correction: its first sentences without the leading "No —", less the questions and the
 * reports of what happened ("I ran it twice"), which say nothing of what to do.
 */
function directive(text: string): string | undefined {
  const sentences = sentencesOf(withoutHalt(text));
  const useful = sentences.filter((s) => !isQuestion(s) && !isReport(s));
  const chosen = (useful.length > 0 ? useful : sentences).slice(0, 2).join(' ');
  if (!chosen || chosen.length < 8) return undefined;
  const clipped = chosen.length > 240 ? `${chosen.slice(0, 237)}…` : chosen;
  return asSentence(clipped);
}

function pathScope(statement: string): string | undefined {
  const m = /(?:^|[\s`'"(])((?:[\w.-]+\/)+)(?=[\s`'",.)]|$)/.exec(statement);
  return m ? m[1] : undefined;
}

function verb(kind: CommandKind): string {
  switch (kind) {
    case 'test':
      return 'Run the tests';
    case 'build':
      return 'Build';
    case 'lint':
      return 'Lint';
    case 'typecheck':
      return 'Typecheck';
    default:
      return 'Run';
  }
}

/**
 * The rules the agent cited by id, judged as the trace's evidence judges them (learn/ruleEvidence.ts): what came of
 * following them, and whether the user corrected or overruled it right after. One judge, so the offline tag and the
 * trace's verdict never point opposite ways; a cited rule the session says nothing clear about gets no tag.
 */
function tagPlaybook(trace: Trace, playbook: Playbook): BulletTag[] {
  const rules = new Map(bullets(playbook).map((b) => [b.id, b.content]));
  const cited = new Set<string>();
  for (const step of trace.steps) {
    if (step.kind !== 'assistant') continue;
    for (const m of step.text.matchAll(/\[([a-z]{2,5}-\d{5})\]/g)) if (rules.has(m[1])) cited.add(m[1]);
  }
  const inPlay = [...cited].map((id) => ({ id, content: rules.get(id) ?? '' }));
  return ruleEvidence(trace, inPlay)
    .filter((e) => e.tag !== 'neutral')
    .map(({ id, tag, reason }) => ({ id, tag, reason }));
}
