// How much of a file the readers keep: line and output limits, scaled down for very large files.
import { DEFAULT_MAX_LINE_BYTES } from '../trace/lines';

export interface ReadLimits {
  maxLineBytes: number;
  maxOutputChars: number;
  /** Size caps of files read whole (see ReadContext); the readers' defaults when absent. */
  maxDocumentBytes?: number;
  maxSqliteBytes?: number;
}

export const DEFAULT_READ_LIMITS: ReadLimits = { maxLineBytes: DEFAULT_MAX_LINE_BYTES, maxOutputChars: 8_000 };

/** Sessions bigger than this get proportionally shorter tool outputs (down to 2,000 characters), so one trace stays small in memory. */
const LARGE_FILE_BYTES = 32 * 1024 * 1024;
const MIN_OUTPUT_CHARS = 2_000;

export function limitsFor(bytes: number, limits: ReadLimits): ReadLimits {
  if (bytes <= LARGE_FILE_BYTES) return limits;
  const scaled = Math.floor((limits.maxOutputChars * LARGE_FILE_BYTES) / bytes);
  return { ...limits, maxOutputChars: Math.max(Math.min(MIN_OUTPUT_CHARS, limits.maxOutputChars), scaled) };
}
