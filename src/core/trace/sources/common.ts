import { fileURLToPath } from 'node:url';
import { clipMiddle } from '../../util/text';

/** A VS Code-style folder URI as a path (a remote one, `vscode-remote://ssh-remote+host/path`, as its path there). */
export function uriToPath(uri: string): string | undefined {
  try {
    if (uri.startsWith('file:')) return fileURLToPath(uri);
    return decodeURIComponent(new URL(uri).pathname) || undefined;
  } catch {
    return undefined;
  }
}

/** The exit code a terminal tool printed at the end of its output ("exit code 1", "exited with code 2"), if any. */
export function exitCodeAtEnd(output: string): number | undefined {
  const m = /\bexit(?:ed with)? code:? (-?\d+)\b/i.exec(output.slice(-300));
  return m ? Number(m[1]) : undefined;
}

/** A tool output as stored: cut in the middle to `maxChars`, with its original length when it was cut. */
export function storedOutput(text: string, maxChars: number): { output: string; truncatedFrom?: number } {
  const clipped = clipMiddle(text, maxChars);
  return { output: clipped.text, truncatedFrom: clipped.truncatedFrom };
}

/** Counts a record type or field the reader did not understand, into the trace's `unknown`. */
export function countUnknown(unknown: Record<string, number>, key: string): void {
  unknown[key] = (unknown[key] ?? 0) + 1;
}

/** A message content block: a JSON object with a string `type`. */
export type ContentBlock = Record<string, unknown> & { type: string };

/** The block, or `undefined` with `block:invalid` counted into the trace's `unknown`. */
export function contentBlock(raw: unknown, unknown: Record<string, number>): ContentBlock | undefined {
  if (isRecord(raw) && typeof raw.type === 'string') return raw as ContentBlock;
  countUnknown(unknown, 'block:invalid');
  return undefined;
}

/** A JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Epoch milliseconds as an ISO time; `undefined` when they are none or no valid time. */
export function msToIso(ms: number | undefined): string | undefined {
  if (ms === undefined) return undefined;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** A string `Date.parse` reads as a time. */
export function validTime(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value));
}
