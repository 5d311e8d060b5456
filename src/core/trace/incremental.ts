import { sha256 } from '../util/hash';
import { openForRead } from '../util/io';
import type { JsonClipLimits } from './jsonClip';
import { EDGE_BYTES, readLines, type LineReadResult } from './lines';
import { Trace, type Step, type TraceDraft } from './model';
import { normalizeTrace } from './normalize';
import { computeOutcome } from './outcome';
import type { Redactor } from './redact';

// Incremental re-import of append-only logs (Claude Code, Codex JSONL). A reader opts in through two optional
// ReadContext members, `resume` and `checkpoint`; a reader that never calls `checkpoint` is re-read in full whenever
// its file changes.

/** What a resumable reader finds in `ctx.resume` when its file grew since the last import. */
export interface ResumeInput {
  /** Where the new lines start: the end of the last complete line read last time. */
  start: number;
  /**
   * The traces the file produced so far, as stored (redacted, normalized), in a copy the reader may change.
   * The reader seeds its accumulators with them and returns the whole traces: old steps first, same indices.
   */
  traces: Trace[];
  /** The `state` the reader passed to `checkpoint` last time (JSON; ids and flags, never message text). */
  state: unknown;
}

/** The members a resumable reader uses; the importer passes them on every `read`. */
export interface IncrementalContext {
  resume?: ResumeInput;
  /** Called once after reading (full or resumed): how far the reader got, and what it needs to continue later. */
  checkpoint?(read: Pick<LineReadResult, 'endOffset' | 'trailingBytes' | 'bytesRead' | 'edges'>, state: unknown): void;
}

/** The part of an import-index entry that lets the next import resume. */
export interface ResumePoint {
  /** End of the last complete line read; absent for non-append formats and readers without resume. */
  offset?: number;
  /** sha256 of the first `headBytes` bytes: a different file moved to the same path changes it. */
  head?: string;
  headBytes?: number;
  /** sha256 of the `tailBytes` bytes before `offset`: a rewrite of the end of the file changes it. */
  tail?: string;
  tailBytes?: number;
}

export const FINGERPRINT_BYTES = EDGE_BYTES;

export interface KnownFile extends ResumePoint {
  bytes: number;
  mtimeMs: number;
}

export type ResumeDecision =
  | { kind: 'full'; reason?: 'truncated' | 'rotated' }
  | { kind: 'resume'; start: number }
  /** Same size, new mtime, same fingerprints: nothing new to read. */
  | { kind: 'same' };

/** Decides how to re-import a changed file that was imported before. */
export async function decideResume(path: string, bytes: number, known: KnownFile | undefined): Promise<ResumeDecision> {
  if (!known) return { kind: 'full' };
  if (bytes < known.bytes || bytes < (known.offset ?? 0)) return { kind: 'full', reason: 'truncated' };
  if (known.head === undefined) return { kind: 'full' };
  const now = await fingerprint(path, known.offset ?? known.headBytes ?? 0, known.headBytes, known.tailBytes);
  if (now.head !== known.head || (known.offset !== undefined && now.tail !== known.tail))
    return { kind: 'full', reason: 'rotated' };
  // Without a resume point (a whole-file format, or a reader without resume) any change means a full read.
  if (known.offset === undefined) return { kind: 'full' };
  if (bytes === known.bytes) return { kind: 'same' };
  return { kind: 'resume', start: known.offset };
}

/** Fingerprints of a file's head and of the bytes just before `offset`. */
export async function fingerprint(
  path: string,
  offset: number,
  headBytes = Math.min(FINGERPRINT_BYTES, offset),
  tailBytes = Math.min(FINGERPRINT_BYTES, offset),
): Promise<Required<ResumePoint>> {
  const handle = await openForRead(path);
  try {
    const head = Buffer.alloc(headBytes);
    const headRead = headBytes > 0 ? await handle.read(head, 0) : 0;
    let tail: Buffer;
    if (offset === headBytes) {
      tail = head.subarray(headBytes - tailBytes, headRead);
    } else {
      tail = Buffer.alloc(tailBytes);
      tail = tail.subarray(0, tailBytes > 0 ? await handle.read(tail, offset - tailBytes) : 0);
    }
    return { offset, head: sha256(head.subarray(0, headRead)), headBytes, tail: sha256(tail), tailBytes };
  } finally {
    await handle.close();
  }
}

/** The same as `fingerprint(path, offset)`, from the edges a full read kept; `undefined` when it did not see them. */
export function fingerprintFromEdges(
  edges: LineReadResult['edges'],
  offset: number,
): Required<ResumePoint> | undefined {
  const bytes = Math.min(FINGERPRINT_BYTES, offset);
  if (!edges?.head || !edges.tail || edges.head.length < bytes || edges.tail.length !== bytes) return undefined;
  return {
    offset,
    head: sha256(edges.head.subarray(0, bytes)),
    headBytes: bytes,
    tail: sha256(edges.tail),
    tailBytes: bytes,
  };
}

/**
 * Whether a reader's checkpoint can be resumed from. An unterminated last line that already parses was applied by
 * the reader but lies after `endOffset`: resuming would apply it twice, so that file is re-read in full next time.
 * A half-written line (does not parse) is simply read again once complete.
 */
export async function resumableCheckpoint(
  path: string,
  read: Pick<LineReadResult, 'endOffset' | 'trailingBytes'>,
  maxLineBytes: number,
  clipStrings?: JsonClipLimits,
): Promise<boolean> {
  if (read.trailingBytes === 0) return true;
  // Read exactly the bytes the reader saw, the same way it read them (a longer line may have been cut, not skipped).
  let parsed = false;
  await readLines(
    path,
    ({ text }) => {
      try {
        JSON.parse(text);
        parsed = true;
      } catch {
        // half-written
      }
    },
    { start: read.endOffset, end: read.endOffset + read.trailingBytes, maxLineBytes, clipStrings },
  );
  return !parsed;
}

/** A copy of stored traces a reader may change in place; steps are shallow-copied (their fields are primitives). */
export function copyForReader(traces: Trace[]): Trace[] {
  return traces.map((trace) => ({
    ...trace,
    steps: trace.steps.map((step) => ({ ...step })),
    unknown: { ...trace.unknown },
    warnings: [...trace.warnings],
  }));
}

/** Field by field (all primitives); a key holding `undefined` counts as absent, as it is once stored as JSON. */
function sameStep(a: Step, b: Step): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const key in x) if (x[key] !== y[key]) return false;
  for (const key in y) if (!(key in x) && y[key] !== undefined) return false;
  return true;
}

/**
 * Normalizes a resumed draft against its stored trace: stored steps the reader left alone are kept as they are
 * (already redacted and validated); new steps and steps the reader changed (an assistant text merged across the
 * resume point, an exit code that arrived later) are redacted and validated; the outcome is recomputed over all.
 */
export function normalizeResumed(
  draft: TraceDraft,
  stored: Trace,
  makeRedactor: () => Redactor,
  fileWarnings: string[],
): Trace {
  const oldCount = stored.steps.length;
  const fresh: number[] = [];
  for (let i = 0; i < draft.steps.length; i++) {
    if (i >= oldCount || !sameStep(draft.steps[i], stored.steps[i])) fresh.push(i);
  }
  const redactor = makeRedactor();
  const titleChanged = draft.title !== stored.title;
  // Redact only what is new, through the one normalization path, on a draft holding just those steps.
  const partial = normalizeTrace(
    { ...draft, title: titleChanged ? draft.title : undefined, steps: fresh.map((i) => draft.steps[i]), warnings: [] },
    redactor,
  );
  // A changed stored step is already redacted: markers it matches again must not be counted twice.
  const recount = makeRedactor();
  for (const i of fresh)
    if (i < oldCount) normalizeTrace({ ...stored, title: undefined, steps: [stored.steps[i]] }, recount);
  const steps = draft.steps.map((step, i) => (i < oldCount ? stored.steps[i] : step));
  partial.steps.forEach((step, j) => {
    steps[fresh[j]] = step;
  });
  const warnings = [...new Set([...stored.warnings, ...draft.warnings, ...fileWarnings])].slice(0, 100);
  const trace: Trace = {
    ...stored,
    ...partial,
    title: titleChanged ? partial.title : stored.title,
    steps,
    outcome: computeOutcome(steps),
    warnings,
    redactions: stored.redactions + Math.max(0, partial.redactions - recount.count),
  };
  // Stored steps were validated when first written; the rest of the trace is validated here.
  Trace.parse({ ...trace, steps: [] });
  return trace;
}
