import { classifyCommand, isAutoFix, sectionOfCommandKind, type CommandKind } from '../../trace/commands';
import type { Trace } from '../../trace/model';
import { identityKey } from '../../trace/shell';
import type { Lesson } from '../../learn/types';
import { display, type Run } from './fixes';
import { relativeCommand, relativeFolder } from './workspacePaths';

// The check command that works in this repository (the shortest successful one of each kind, run at the root), named
// only where the session shows an agent getting that check wrong: another command for the job failing, then this one
// passing with no edit between (the switch was the fix). A check the agent ran right by itself is one it finds without
// a rule, and the rule would cost every session its tokens for nothing.

const CHECK_KINDS: CommandKind[] = ['test', 'build', 'lint', 'typecheck'];

export function checkLessons(
  trace: Trace,
  runs: readonly Run[],
  edits: readonly number[],
  fixes: readonly Lesson[],
): Lesson[] {
  const shown = (run: Run) => display(run, trace.cwd);
  const failedForms = new Set(runs.filter((r) => r.failed).map(shown));
  // a failure a fix lesson already pairs says it with its contrast ("Run `x`, not `rtk x`")
  const explained = new Set(fixes.flatMap((l) => l.evidence.steps));
  const lessons: Lesson[] = [];
  for (const kind of CHECK_KINDS) {
    // a run of one test file shows that file passing, not the suite: only a run of the general form counts
    const worked = runs
      .filter((r) => r.kind === kind && r.passed && !isAutoFix(r.command) && r.action?.others.length === 0)
      .flatMap((run) => {
        const general = shown(run);
        const asRun = relativeCommand(run.action?.text ?? '', trace.cwd);
        const atRoot = relativeFolder(run.action?.cwd, trace.cwd) === '.';
        return general !== undefined && atRoot && asRun !== undefined && general === normalizeSpaces(asRun)
          ? [{ run, general }]
          : [];
      });
    if (worked.length === 0) continue;
    // a command that also failed here is a weaker word for "this works" than one that never did
    const failedHere = (w: (typeof worked)[number]) => (failedForms.has(w.general) ? 1 : 0);
    const best = [...worked].sort(
      (a, b) =>
        failedHere(a) - failedHere(b) || a.general.length - b.general.length || a.run.call.index - b.run.call.index,
    )[0];
    if (best.general.length > 80 || classifyCommand(best.general) !== kind) continue;
    const bestIdentity = best.run.action && identityKey(best.run.action.identity);
    const switchedFrom = (r: Run) =>
      runs.some(
        (b) =>
          b.passed &&
          b.call.index > r.call.index &&
          b.action !== undefined &&
          identityKey(b.action.identity) === bestIdentity &&
          !edits.some((e) => e > r.call.index && e < b.call.index),
      );
    // the same command failing on the task's own bug, or one fixed by an edit, is no wrong way
    const wrongWay = runs.some(
      (r) =>
        !explained.has(r.call.index) &&
        r.kind === kind &&
        r.failed &&
        !isAutoFix(r.command) &&
        r.action?.others.length === 0 &&
        identityKey(r.action.identity) !== bestIdentity &&
        switchedFrom(r),
    );
    if (!wrongWay) continue;
    lessons.push({
      section: sectionOfCommandKind(kind) ?? 'Pitfalls',
      kind: 'rule',
      // one way to run each check: sessions that ran others vote for theirs (see the offline aggregator)
      key: `works:${kind}`,
      content: `${verb(kind)} with \`${best.general}\`.`,
      evidence: { traceId: trace.id, steps: [best.run.call.index, best.run.result.index] },
    });
  }
  return lessons;
}

function normalizeSpaces(command: string): string {
  return command.trim().replace(/\s+/g, ' ');
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
