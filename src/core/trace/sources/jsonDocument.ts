import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import type { ReadContext, SessionFile } from './types';

/** A byte order mark, which editors on Windows add, is no reason to lose a session (JSON.parse refuses it). */
export const withoutBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** Whole-file JSON sessions (formats rewritten on every turn) are parsed in one piece: from this size on, skipped. */
export const MAX_JSON_DOCUMENT_BYTES = 64 * 1024 * 1024;

/**
 * Reads a session stored as one JSON document, size-capped and validated. Too large → counted as skipped
 * (`ctx.tooLarge`) and `undefined`; of the wrong shape → a warning and `undefined`. Not JSON at all → `'not-json'`
 * (quietly, when `notJson` is 'quiet': the caller may try it as JSONL under a .json name), else a warning.
 */
export async function readJsonDocument<T>(
  file: SessionFile,
  ctx: ReadContext,
  schema: z.ZodType<T>,
  what: { name: string; expected: string; notJson?: 'quiet' | 'warn' },
): Promise<T | undefined | 'not-json'> {
  if (file.bytes >= ctx.maxDocumentBytes) {
    ctx.tooLarge(file.path);
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(withoutBom(await readFile(file.path, 'utf8')));
  } catch {
    if (what.notJson === 'quiet') return 'not-json';
    ctx.warn(`${file.path}: malformed JSON in a ${what.name} (still being written?); skipped`);
    return undefined;
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    ctx.warn(`${file.path}: not a ${what.name} (expected ${what.expected})`);
    return undefined;
  }
  return parsed.data;
}
