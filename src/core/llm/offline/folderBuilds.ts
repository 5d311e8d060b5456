import { posix } from 'node:path';
import { classifyCommand } from '../../trace/commands';
import { editedFiles } from '../../trace/edits';
import type { Trace } from '../../trace/model';
import { identities, identityKey } from '../../trace/shell';
import type { Lesson } from '../../learn/types';
import type { Run } from './fixes';
import { relativeFolder, workspaceRelative } from './workspacePaths';

// A folder's own build step: after editing files under a subfolder, the session ran a build in that folder (a `cd`
// into it, or the call's own folder) and it passed. The step belongs to the folder, not the repository's root, so an
// agent working from the root would not know it. A habit rather than a mistake: two sessions must show it, each having
// edited under that folder first. Only the folder's whole build (no file, target or selector of one task).

const MIN_SESSIONS = 2;
/** Programs that only shape what another command printed, allowed after the build on its line. */
const FILTERS = new Set(['tail', 'head', 'grep', 'tee', 'cat']);

interface FolderBuild {
  folder: string;
  command: string;
  key: string;
}

/** The build a line runs in a subfolder of the workspace, when that is all it runs. */
function folderBuild(run: Run, workspace: string | undefined): FolderBuild | undefined {
  const ids = identities(run.command, run.call.workdir).filter((id) => !FILTERS.has(id.words[0] ?? ''));
  if (ids.length !== 1) return undefined;
  const [id] = ids;
  const command = [...id.launcher, ...id.words].join(' ');
  if (classifyCommand(command) !== 'build' || id.targets.length > 0 || id.selectors.length > 0) return undefined;
  const folder = relativeFolder(id.cwd, workspace);
  if (folder === undefined || folder === '.' || folder.startsWith('..')) return undefined;
  return { folder, command, key: `folder-build:${folder}:${identityKey(id)}` };
}

/** Workspace-relative files each edit step changed, by step index. */
function editsByStep(trace: Trace): Array<{ index: number; files: string[] }> {
  return trace.steps.flatMap((step) => {
    if (step.kind !== 'tool_call') return [];
    const files = editedFiles(step, trace.cwd)
      .map((f) => (f.startsWith('/') || f.startsWith('~') ? workspaceRelative(f, trace.cwd) : posix.normalize(f)))
      .filter((f): f is string => f !== undefined && !f.startsWith('..'));
    return files.length > 0 ? [{ index: step.index, files }] : [];
  });
}

export function folderBuildLessons(trace: Trace, runs: readonly Run[]): Lesson[] {
  const edits = editsByStep(trace);
  const lessons = new Map<string, Lesson>();
  for (const run of runs) {
    if (!run.passed) continue;
    const build = folderBuild(run, trace.cwd);
    if (!build || lessons.has(build.key)) continue;
    const under = `${build.folder}/`;
    const edited = edits.filter((e) => e.index < run.call.index && e.files.some((f) => f.startsWith(under)));
    if (edited.length === 0) continue;
    lessons.set(build.key, {
      section: 'Workflow',
      kind: 'procedure',
      key: build.key,
      content:
        `After editing files under \`${under}\`, run \`${build.command}\` in \`${under}\` ` +
        `(\`cd ${build.folder} && ${build.command}\`): sessions that changed files there rebuilt with it.`,
      scope: under,
      minSupport: MIN_SESSIONS,
      evidence: { traceId: trace.id, steps: [edited[edited.length - 1].index, run.call.index, run.result.index] },
    });
  }
  return [...lessons.values()];
}
