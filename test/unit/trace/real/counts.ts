import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { importSessions } from '../../../../src/core/import/importer';
import { TraceStore } from '../../../../src/core/store/traceStore';
import { editedFiles } from '../../../../src/core/trace/edits';
import type { Trace } from '../../../../src/core/trace/model';
import { tempDir } from '../../../../testing/tmp';

// What the fidelity tests compare: the same five counts, from Combee's import and from the raw files.

export interface Counts {
  sessions: number;
  userMessages: number;
  toolCalls: number;
  failingExits: number;
  edits: number;
}

export const noCounts = (): Counts => ({ sessions: 0, userMessages: 0, toolCalls: 0, failingExits: 0, edits: 0 });

/** Every `.jsonl` file under `dir`, sorted. */
export function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...jsonlFiles(path));
    else if (name.endsWith('.jsonl')) out.push(path);
  }
  return out;
}

/** The corpus imported the way a user imports it, and its stored traces. */
export async function importCorpus(dir: string): Promise<{ traces: Trace[]; warnings: string[] }> {
  const store = new TraceStore(tempDir('combee-real-'));
  const summary = await importSessions({ from: dir, store });
  const traces = await store.listTraces();
  return { traces, warnings: summary.warningMessages };
}

/** The counts of stored traces: a user message is any user step (queued and context ones included), an edit a call that changed a file. */
export function traceCounts(traces: Trace[]): Counts {
  const counts = noCounts();
  for (const trace of traces) {
    counts.sessions++;
    for (const step of trace.steps) {
      if (step.kind === 'user') counts.userMessages++;
      if (step.kind === 'tool_call') {
        counts.toolCalls++;
        if (editedFiles(step, trace.cwd).length > 0) counts.edits++;
      }
      if (step.kind === 'tool_result' && step.exitCode !== undefined && step.exitCode !== 0) counts.failingExits++;
    }
  }
  return counts;
}

export function assertSameCounts(imported: Counts, raw: Counts): void {
  assert.deepEqual(imported, raw);
}
