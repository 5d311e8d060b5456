import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { TraceStore } from '../trace/store';
import { readJsonFile } from '../util/io';
import { RunRecord } from './record';

/** Run records of a workspace, newest first; records that do not validate are skipped. */
export async function loadRunRecords(store: TraceStore, workspace: string): Promise<RunRecord[]> {
  const dir = store.runsDir(workspace);
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  const records: RunRecord[] = [];
  for (const file of files) {
    const parsed = RunRecord.safeParse(await readJsonFile(join(dir, file)).catch(() => undefined));
    if (parsed.success) records.push(parsed.data);
  }
  return records.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}
