import { posix } from 'node:path';
import { identities, identityKey } from '../../trace/shell';
import type { Lesson } from '../../learn/types';
import type { Run } from './fixes';
import { relativeFolder, workspaceRelative } from './workspacePaths';

// A failure repaired by removing what it names: a command (a commit refused by its hook's tests, a test run) fails
// with output naming files under some folder, the agent removes them, and the same command passes with no edit
// between. The change under work did not make it fail; what was left in that folder did. A commit repaired by an edit
// teaches nothing (the code was wrong); one repaired by a removal says what to clear. Two sessions needed.

const MIN_SESSIONS = 2;
/** How far after the failure the removal and the pass may come: agents look around before removing anything. */
const WINDOW = 40;

/** Programs that only shape another command's output, never the command a line's status is about. */
const FILTERS = new Set(['tail', 'head', 'grep', 'rg', 'sort', 'uniq', 'wc', 'cat', 'less', 'tee', 'cut', 'tr']);

/** The command whose status a line reports: its last one, output filters aside (`git add x && git commit`). */
function lastCommand(run: Run): string | undefined {
  const commands = identities(run.call.command ?? run.command, run.call.workdir).filter(
    (id) => !FILTERS.has(posix.basename(id.words[0] ?? '')),
  );
  const last = commands.at(-1);
  return last && identityKey(last);
}

/** The workspace-relative paths an `rm` removed, with the folder each leaves emptied or thinned. */
function removed(run: Run, workspace: string | undefined): Array<{ path: string; folder: string }> | undefined {
  const action = run.action;
  if (!action || action.identity.words[0] !== 'rm' || action.others.length > 0) return undefined;
  const id = action.identity;
  const base = relativeFolder(action.cwd, workspace);
  if (base === undefined || id.targets.length === 0) return undefined;
  const found: Array<{ path: string; folder: string }> = [];
  for (const target of id.targets) {
    const contents = /\/\*?$/.test(target);
    const bare = target.replace(/\/\*?$/, '');
    const inside = /^[/~]/.test(bare) ? workspaceRelative(bare, workspace) : posix.normalize(posix.join(base, bare));
    if (inside === undefined || inside === '.' || inside.startsWith('..')) return undefined;
    // `rm -rf dir/` or `dir/*` empties dir; `rm -rf dir/x` thins dir; a top-level entry is its own folder
    const parent = posix.dirname(inside);
    found.push({ path: inside, folder: contents || parent === '.' ? inside : parent });
  }
  return found;
}

export function removalLessons(
  traceId: string,
  workspace: string | undefined,
  runs: readonly Run[],
  edits: readonly number[],
): Lesson[] {
  const lessons: Lesson[] = [];
  runs.forEach((failure, i) => {
    if (!failure.failed) return;
    const command = lastCommand(failure);
    if (!command) return;
    const later = runs
      .slice(i + 1)
      .filter((r) => r.call.index - failure.call.index <= WINDOW)
      .filter((r) => !edits.some((e) => e > failure.call.index && e < r.call.index));
    const again = later.find((r) => r.passed && r.command === failure.command && lastCommand(r) === command);
    if (!again) return;
    // removals between whose every path the failure's output names
    const output = failure.result.output;
    const removal = later
      .filter((r) => r.call.index < again.call.index && !r.failed)
      .map((r) => ({ run: r, paths: removed(r, workspace) }))
      .find(({ paths }) => paths?.every((p) => output.includes(p.path)));
    if (!removal?.paths) return;
    const folders = [...new Set(removal.paths.map((p) => p.folder))];
    if (folders.length !== 1) return;
    const [folder] = folders;
    const flags = (removal.run.action?.words ?? []).filter((w) => /^-\w+$/.test(w)).join(' ');
    const rm = ['rm', flags, `${folder}/…`].filter(Boolean).join(' ');
    lessons.push({
      section: 'Pitfalls',
      kind: 'pitfall',
      // the folder's top: sessions name what they removed in it differently (`tmp/x/run-1`, `tmp/x/`)
      key: `removed:${command}:${folder.split('/')[0]}`,
      content:
        `When \`${command}\` fails on files under \`${folder}/\`, remove what is there (\`${rm}\`) and run it ` +
        'again: those files, not the change, made it fail.',
      minSupport: MIN_SESSIONS,
      evidence: {
        traceId,
        steps: [failure.call.index, failure.result.index, removal.run.call.index, removal.run.result.index]
          .concat([again.call.index, again.result.index])
          .sort((a, b) => a - b),
      },
    });
  });
  return lessons;
}
