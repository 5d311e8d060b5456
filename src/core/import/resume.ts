// Where an append-only log resumes: what the last import of a file left (its traces and the reader's state), and
// what this one leaves for the next (a fingerprint of the bytes read, the reader's state, inline when small).
import type { ImportedFile, TraceStore } from '../store/traceStore';
import {
  copyForReader,
  fingerprint,
  FINGERPRINT_BYTES,
  fingerprintFromEdges,
  resumableCheckpoint,
  type ResumeInput,
  type ResumePoint,
} from '../trace/incremental';
import { clipLimitsFor } from '../trace/jsonClip';
import type { LineReadResult } from '../trace/lines';
import type { Trace } from '../trace/model';
import type { SessionFile } from '../trace/sources/types';
import type { ReadLimits } from './limits';

/** Resume states up to this size (JSON characters) are kept in the import index itself. */
const INLINE_STATE_CHARS = 16 * 1024;

/** Where a reader stopped: the bytes it read, and its state. */
export type Checkpoint = {
  read: Pick<LineReadResult, 'endOffset' | 'trailingBytes' | 'bytesRead' | 'edges'>;
  state: unknown;
};

/**
 * What a reader resumes from at byte `start`: copies of the file's stored traces and its saved state (and the stored
 * traces themselves, to merge with); `undefined` when one of them is gone, so the file is read in full.
 */
export async function resumeInput(
  store: TraceStore,
  path: string,
  previous: ImportedFile,
  start: number,
): Promise<{ resume: ResumeInput; stored: Map<string, Trace> } | undefined> {
  const traces = await Promise.all(previous.traceIds.map((id) => store.loadTrace(id)));
  const saved = previous.stateFile ? await store.loadResumeState(path) : parseState(previous.state);
  if (!saved || !traces.every((t): t is Trace => t !== undefined)) return undefined;
  return {
    resume: { start, traces: copyForReader(traces), state: saved.state },
    stored: new Map(traces.map((t) => [t.id, t])),
  };
}

/**
 * What the next import resumes from: where the reader stopped (when it can resume there and `found` something to
 * resume onto) with its state, else only a head fingerprint, which still tells a replaced file from a changed one.
 */
export async function resumePoint(
  store: TraceStore,
  file: SessionFile,
  limits: ReadLimits,
  previous: ImportedFile | undefined,
  checkpoint: Checkpoint | undefined,
  found: boolean,
): Promise<ResumePoint & Pick<ImportedFile, 'state' | 'stateFile'>> {
  if (
    checkpoint &&
    found &&
    (await resumableCheckpoint(file.path, checkpoint.read, limits.maxLineBytes, clipLimitsFor(limits.maxOutputChars)))
  ) {
    const { endOffset, edges } = checkpoint.read;
    const point: ResumePoint & Pick<ImportedFile, 'state' | 'stateFile'> =
      fingerprintFromEdges(edges, endOffset) ?? (await fingerprint(file.path, endOffset));
    // Small states live in the index (one file fewer to create per session), big ones beside it.
    const state = checkpoint.state ?? null;
    const json = JSON.stringify(state);
    if (json.length <= INLINE_STATE_CHARS) {
      // kept as text: one flat string per file in the main thread's index, parsed only to resume
      point.state = json;
      if (previous?.stateFile) await store.saveResumeState(file.path, undefined);
    } else {
      await store.saveResumeState(file.path, state);
      point.stateFile = true;
    }
    return point;
  }
  const { head, headBytes } = await fingerprint(file.path, Math.min(file.bytes, FINGERPRINT_BYTES));
  if (previous?.stateFile) await store.saveResumeState(file.path, undefined);
  return { head, headBytes };
}

function parseState(json: string | undefined): { state: unknown } | undefined {
  if (json === undefined) return undefined;
  try {
    return { state: JSON.parse(json) as unknown };
  } catch {
    return undefined;
  }
}
