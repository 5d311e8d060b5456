import { posix } from 'node:path';
import type { Lesson } from '../../learn/types';
import type { Run } from './fixes';
import { relativeFolder, workspaceRelative } from './workspacePaths';

// A file agents look for where it is not: a read fails on a missing path, and a read of a file of the same name in
// another folder (or of the name without a prefix: `help.md` for `bmad-help.md`) works soon after, before any edit.
// Once two sessions make the same wrong guess, the right path saves the next agent the search; one session's is a
// slip, so the lesson asks for two. When only a folder differs (`bmad/x.md` for `_bmad/x.md`), the folder is the
// lesson: every file under it is looked for the same wrong way, so two sessions' misses of different files count alike.

/** Programs that print a file: their last path-like argument is the file read. */
const READERS = new Set(['cat', 'sed', 'head', 'tail', 'less', 'more', 'bat', 'nl']);
const MISSING = /no such file or directory|can't read|cannot open|does not exist/i;
/** How far after the failure the right file may be read. */
const FIND_WINDOW = 24;
const MIN_SESSIONS = 2;

/** The workspace-relative file a reading run prints, or undefined for any other run. */
function fileRead(run: Run, workspace: string | undefined): string | undefined {
  const action = run.action;
  if (!action || action.others.length > 0 || !READERS.has(action.identity.words[0] ?? '')) return undefined;
  const file = [...action.identity.targets].reverse().find((t) => /\/|\.[A-Za-z]\w*$/.test(t) && !/^-/.test(t));
  if (!file) return undefined;
  if (file.startsWith('/') || file.startsWith('~')) return workspaceRelative(file, workspace);
  const folder = relativeFolder(action.cwd, workspace);
  return folder === undefined ? undefined : posix.normalize(posix.join(folder, file));
}

/** `found` names the file `missing` meant: the same name, or that name less a prefix, in another place. */
function sameFile(missing: string, found: string): boolean {
  if (missing === found) return false;
  const [a, b] = [posix.basename(missing), posix.basename(found)];
  return a === b || (a.length > b.length && a.endsWith(b) && /[-_.]$/.test(a.slice(0, a.length - b.length)));
}

export function missingPathLessons(
  traceId: string,
  workspace: string | undefined,
  runs: readonly Run[],
  edits: readonly number[],
): Lesson[] {
  const lessons: Lesson[] = [];
  runs.forEach((failure, i) => {
    if (!failure.failed || !MISSING.test(failure.result.output)) return;
    const missing = fileRead(failure, workspace);
    if (!missing) return;
    const found = runs
      .slice(i + 1)
      .filter((r) => r.call.index - failure.call.index <= FIND_WINDOW)
      .filter((r) => !edits.some((e) => e > failure.call.index && e < r.call.index))
      .find((r) => r.passed && sameFile(missing, fileRead(r, workspace) ?? missing));
    const right = found && fileRead(found, workspace);
    if (!found || !right) return;
    const steps = [failure.call.index, failure.result.index, found.call.index, found.result.index];
    const folder = renamedFolder(missing, right);
    lessons.push({
      section: 'Pitfalls',
      kind: 'pitfall',
      key: folder ? `folder:${folder.key}` : `path:${missing}=>${right}`,
      content: folder?.content ?? `\`${right}\` is the file to read: \`${missing}\` does not exist.`,
      minSupport: MIN_SESSIONS,
      evidence: { traceId, steps },
    });
  });
  return lessons;
}

/**
 * The folder a wrong path guessed: the two paths alike but for one stretch of folders, each side naming at least one
 * (`bmad/bmm/pm.md` and `_bmad/bmm/pm.md`), with a folder below it alike too. A folder added or left out (`docs/x.md`, `docs/guide/x.md`) or another
 * file name is not a folder guessed wrong.
 */
export function renamedFolder(missing: string, right: string): { key: string; content: string } | undefined {
  const [a, b] = [missing.split('/'), right.split('/')];
  let head = 0;
  while (head < a.length - 1 && head < b.length - 1 && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const [wrong, meant] = [a.slice(head, a.length - tail), b.slice(head, b.length - tail)];
  // the same file name alone (`index.ts`, `README.md`) is common to many folders: a folder below must match too
  if (tail < 2 || wrong.length === 0 || meant.length === 0) return undefined;
  const within = a.slice(0, head).join('/');
  const base = within ? `${within}/` : '';
  const rest = a.slice(a.length - tail).join('/');
  const [from, to] = [`${wrong.join('/')}/`, `${meant.join('/')}/`];
  const look = `look in \`${to}\`, not \`${from}\`: \`${from}${rest}\` does not exist, \`${to}${rest}\` does.`;
  // `@x/…` is a prompt's way of mentioning `x/…`: one wrong guess with or without the mark
  const unmarked = (folder: string) => folder.replace(/^@/, '');
  return {
    key: `${base}${unmarked(from)}=>${base}${to}`,
    content: within ? `In \`${within}/\`, ${look}` : `${look[0].toUpperCase()}${look.slice(1)}`,
  };
}
