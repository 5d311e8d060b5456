import { canonicalCommand } from '../../trace/canonicalCommand';
import { classifyCommand, isAutoFix, type CommandKind } from '../../trace/commands';
import { parseLine } from '../../trace/shell';
import type { Trace } from '../../trace/model';
import type { Lesson } from '../../learn/types';
import type { Run } from './fixes';
import { relativeCommand, relativeFolder } from './workspacePaths';

// The check that catches the agent's own mistakes. A check (lint, typecheck, tests) that failed after the agent had
// edited code, then passed once the agent edited again, found something the agent got wrong: that check is the
// repository's "verify before finishing" step. A check that only ever passed teaches nothing (the agent ran it
// anyway), and a check that failed before any edit failed on what was there. One session's catch may be chance: the
// rule needs two sessions, and names the checks each session verified with.

const CAUGHT_KINDS: ReadonlySet<CommandKind> = new Set(['lint', 'typecheck', 'test']);
const CHECK_KINDS: ReadonlySet<CommandKind> = new Set(['lint', 'typecheck', 'test', 'format']);
const MIN_SESSIONS = 2;
/** Past this, a list of checks is a script of its own and no rule's command. */
const MAX_NAMED = 3;

/**
 * The check commands a line runs at the workspace root, as run (a run with one test's selector is that test, not the
 * check); empty when it runs anything else.
 */
export function checksOf(run: Run, workspace: string | undefined): string[] {
  if (relativeFolder(run.action?.cwd, workspace) !== '.') return [];
  const commands = parseLine(run.command).commands.filter((c) => c.words[0] !== 'cd');
  const checks: string[] = [];
  for (const command of commands) {
    const kind = classifyCommand(command.text);
    // an output filter (`| tail -20`) shapes what is shown; any other command makes the line a script
    if (!CHECK_KINDS.has(kind)) {
      if (FILTERS.has(command.words[0] ?? '')) continue;
      return [];
    }
    const text = relativeCommand(command.text.replace(REDIRECT, '').trim(), workspace);
    if (text === undefined) return [];
    const asRun = text.replace(/\s+/g, ' ');
    if (canonicalCommand(text) !== asRun || narrowed(command.words)) return [];
    // a fixing script repairs what a check found; it is not the check (a formatter is its own check)
    if (isAutoFix(asRun) && kind !== 'format') return [];
    checks.push(asRun);
  }
  return checks;
}

/** Flags that pick some tests or files out of a check's whole run. */
const SELECTORS = new Set(['-run', '-t', '-k', '-m', '--grep', '--filter', '--testNamePattern', '--test-name-pattern']);

/** A run of some tests or files (`-run TestX`, `src/a.test.ts`): it checks those, not the repository. */
function narrowed(words: readonly string[]): boolean {
  return words.slice(1).some((w) => SELECTORS.has(w.split('=')[0]) || /\/|\.\w{1,4}$/.test(w));
}

const FILTERS = new Set(['tail', 'head', 'grep', 'sort', 'uniq', 'wc', 'cat', 'less', 'tee', 'cut']);
const REDIRECT = /\s+\d?>{1,2}&?\s*(?:\d\b|\/dev\/null\b)|\s+&>\s*\/dev\/null\b/g;

export function verifyLessons(
  trace: Trace,
  runs: readonly Run[],
  edits: readonly number[],
  explained: ReadonlySet<number>,
): Lesson[] {
  const editedBetween = (from: number, to: number) => edits.some((e) => e > from && e < to);
  const checks = new Map(runs.map((r) => [r, checksOf(r, trace.cwd)]));
  const caught = runs.filter((failure) => {
    const failing = (checks.get(failure) ?? []).filter((c) => CAUGHT_KINDS.has(classifyCommand(c)));
    if (!failure.failed || failing.length === 0 || explained.has(failure.call.index)) return false;
    // it failed on the agent's edits: the agent had edited before it, and edited again before it passed
    if (!edits.some((e) => e < failure.call.index)) return false;
    return runs.some(
      (pass) =>
        pass.passed &&
        pass.call.index > failure.call.index &&
        editedBetween(failure.call.index, pass.call.index) &&
        failing.some((c) => (checks.get(pass) ?? []).includes(c)),
    );
  });
  if (caught.length === 0) return [];
  const firstEdit = Math.min(...edits);
  // the checks the session verified its edits with: each line of checks that passed after its first edit
  const lines = runs
    .filter((r) => r.passed && r.call.index > firstEdit)
    .map((r) => checks.get(r) ?? [])
    .filter((c) => c.length > 0);
  const named = lines
    .filter(
      (line, i) =>
        !lines.some(
          (other, j) =>
            (other.length > line.length || (other.length === line.length && j < i)) && contains(other, line),
        ),
    )
    // one order whatever order a session ran them in, so that sessions word the rule alike
    .sort((a, b) => rank(a) - rank(b) || a.join(' ').localeCompare(b.join(' ')))
    .slice(0, MAX_NAMED);
  if (named.length === 0) return [];
  const first = (checks.get(caught[0]) ?? []).filter((c) => CAUGHT_KINDS.has(classifyCommand(c)));
  return [
    {
      section: 'Workflow',
      kind: 'procedure',
      // one lesson per repository: every session whose checks caught its edits supports it, whichever it ran
      key: 'verify:after-edits',
      content:
        `After editing, run ${list(named.map((line) => `\`${line.join(' && ')}\``))} and fix what ` +
        `${named.length > 1 ? 'they report' : 'it reports'} before ` +
        `finishing: \`${first.join(' && ')}\` failed on the agent's own edits and passed once they were fixed.`,
      minSupport: MIN_SESSIONS,
      evidence: {
        traceId: trace.id,
        steps: [...new Set(caught.flatMap((r) => [r.call.index, r.result.index]))].sort((a, b) => a - b),
      },
    },
  ];
}

/** Cheap checks first: format, lint, typecheck, then tests. */
function rank(line: readonly string[]): number {
  return Math.min(...line.map((c) => ORDER.indexOf(classifyCommand(c))));
}
const ORDER: CommandKind[] = ['format', 'lint', 'typecheck', 'test'];

function contains(line: readonly string[], part: readonly string[]): boolean {
  return part.every((c) => line.includes(c));
}

function list(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
