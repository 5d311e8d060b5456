import { join } from 'node:path';
import { z } from 'zod';
import { atomicWrite, readJsonFile } from '../util/io';

/**
 * The user's own redaction patterns (`combee.redaction.extraPatterns`, a user-level setting) as the extension last
 * read them, kept in the per-user store it shares with the CLI: `combee import` removes what the extension would.
 * The file can only add redactions, never remove one.
 */
const FILE = 'redaction.json';
const RedactionFile = z.object({ version: z.literal(1), extraPatterns: z.array(z.string()) });

export async function saveRedactionPatterns(storeDir: string, patterns: readonly string[]): Promise<void> {
  const path = join(storeDir, FILE);
  const text = `${JSON.stringify({ version: 1, extraPatterns: [...patterns] }, null, 2)}\n`;
  const before = await readJsonFile(path).catch(() => undefined);
  if (JSON.stringify(before, null, 2) === text.trimEnd()) return;
  await atomicWrite(path, text);
}

/** The recorded patterns, or none (no file yet); a damaged file is said in `warning` and its patterns are not used. */
export async function loadRedactionPatterns(storeDir: string): Promise<{ patterns: string[]; warning?: string }> {
  const path = join(storeDir, FILE);
  let raw: unknown;
  try {
    raw = await readJsonFile(path);
  } catch (error) {
    return {
      patterns: [],
      warning: `${path}: not JSON (${(error as Error).message}); its redaction patterns are not used`,
    };
  }
  if (raw === undefined) return { patterns: [] };
  const parsed = RedactionFile.safeParse(raw);
  return parsed.success
    ? { patterns: parsed.data.extraPatterns }
    : { patterns: [], warning: `${path}: not a redaction patterns file; its patterns are not used` };
}
