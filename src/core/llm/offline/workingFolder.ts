import { identities } from '../../trace/shell';
import type { Trace } from '../../trace/model';
import type { Lesson } from '../../learn/types';
import type { Run } from './fixes';
import { relativeFolder } from './workspacePaths';

// A `cd` stays in effect: for the rest of its line, and in agents whose shell persists (Claude Code records the folder
// of every call) for the calls after it. A repository-relative path then names nothing, and the command fails saying
// so; the same path used from the repository root works. Each session's command differs, the mistake is one: a lesson
// for the repository once two sessions make it.

const MIN_SESSIONS = 2;
/** How far after the failure the same path may be used from the root. */
const WINDOW = 16;

/** Repository-relative paths a line names (programs and arguments), each with the folder it was used in. */
function relativePaths(run: Run): Array<{ path: string; folder: string | undefined }> {
  return identities(run.command, run.call.workdir).flatMap((id) =>
    [...id.words, ...id.targets]
      .filter((w) => w.includes('/') && !/^[-/~$]|:\/\//.test(w) && !w.includes('='))
      .map((path) => ({ path, folder: id.cwd })),
  );
}

export function workingFolderLessons(trace: Trace, runs: readonly Run[], edits: readonly number[]): Lesson[] {
  for (const [i, failure] of runs.entries()) {
    if (!failure.failed) continue;
    // a path the failure's output names, used in a folder other than the repository root
    const elsewhere = relativePaths(failure).filter(
      (p) => relativeFolder(p.folder, trace.cwd) !== '.' && failure.result.output.includes(p.path),
    );
    if (elsewhere.length === 0) continue;
    const fromRoot = runs
      .slice(i + 1)
      .filter((r) => r.call.index - failure.call.index <= WINDOW)
      .filter((r) => !edits.some((e) => e > failure.call.index && e < r.call.index))
      .find(
        (r) =>
          r.passed &&
          relativePaths(r).some(
            (p) => relativeFolder(p.folder, trace.cwd) === '.' && elsewhere.some((e) => e.path === p.path),
          ),
      );
    if (!fromRoot) continue;
    // the path the session shows failing: the rule names what its evidence shows
    const shown = elsewhere.find((e) => fromRoot.command.includes(e.path)) ?? elsewhere[0];
    return [
      {
        section: 'Pitfalls',
        kind: 'pitfall',
        // one mistake whatever the command: every session that made it supports it
        key: 'cwd:relative-paths',
        content:
          'A cd stays in effect for the rest of the command line and for the next shell calls: repository-relative ' +
          'paths then name nothing. Run repository commands from the repository root, or ' +
          `cd back to it first (\`${shown.path}\` was not found after a cd, and was from the root).`,
        minSupport: MIN_SESSIONS,
        evidence: {
          traceId: trace.id,
          steps: [failure.call.index, failure.result.index, fromRoot.call.index, fromRoot.result.index],
        },
      },
    ];
  }
  return [];
}
