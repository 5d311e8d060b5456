// Which first messages of this import's Codex sessions are prompts the agent expanded: their openings (hashes, see
// recurringOpenings.ts) over every rollout the walk found, kept in the import index so an unchanged file is read for
// it once. Only computed when a Codex file is to be read.
import type { ImportIndex } from '../store/traceStore';
import { recurringOpenings } from '../trace/recurringOpenings';
import { codexOpening, codexReader } from '../trace/sources/codex';
import type { ImportTask } from './fileTask';

interface FoundFile {
  path: string;
  bytes: number;
  mtimeMs: number;
}

export interface ImportOpenings {
  /** Each Codex file's opening ('' for none). */
  byPath: Map<string, string>;
  recurring: string[];
}

function isCodex(path: string, index: ImportIndex): boolean {
  const known = index.files[path];
  return known ? known.agent === 'codex' : codexReader.claims?.(path) === true;
}

/** Sets `recurringOpenings` on the Codex tasks; `undefined` when there is none. Fills openings missing from `index`. */
export async function applyOpenings(
  found: FoundFile[],
  index: ImportIndex,
  todo: ImportTask[],
  maxLineBytes: number,
): Promise<ImportOpenings | undefined> {
  const tasks = todo.filter((task) => isCodex(task.path, index));
  if (tasks.length === 0) return undefined;
  const changed = new Set(todo.map((task) => task.path));
  const byPath = new Map<string, string>();
  for (const file of found) {
    if (!isCodex(file.path, index)) continue;
    const known = index.files[file.path];
    let opening = !changed.has(file.path) ? known?.opening : undefined;
    if (opening === undefined) {
      opening = await codexOpening({ ...file, agent: 'codex' }, maxLineBytes).catch(() => '');
      if (known && !changed.has(file.path)) known.opening = opening;
    }
    byPath.set(file.path, opening);
  }
  const recurring = [...recurringOpenings(byPath.values())].sort();
  for (const task of tasks) task.recurringOpenings = recurring;
  return { byPath, recurring };
}
