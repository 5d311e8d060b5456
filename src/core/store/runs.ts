import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkspaceState } from './workspaceState';
import { atomicWrite, readJsonFile } from '../util/io';
import { RunRecord } from '../learn/record/record';

/** Run records of a workspace, newest first; records that do not validate are skipped. */
export async function loadRunRecords(state: WorkspaceState, workspace: string): Promise<RunRecord[]> {
  const dir = state.runsDir(workspace);
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

/** Writes a run's record (the caller has redacted it: its warnings may quote an endpoint's error text). */
export async function saveRunRecord(state: WorkspaceState, workspace: string, record: RunRecord): Promise<void> {
  await atomicWrite(join(state.runsDir(workspace), `${record.id}.json`), JSON.stringify(record));
}
