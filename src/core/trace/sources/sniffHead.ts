/**
 * What sniffers see in a file's first bytes. `true`: this format's shape; `'specific'`: a record only this agent
 * writes (Claude Code's `sessionId`+`uuid`+`type` envelope, Gemini's `projectHash`), preferred when two readers
 * could claim a file.
 */
export type SniffEvidence = boolean | 'specific';

/** Lines of the head looked at: enough to get past a few damaged or unknown records. */
const HEAD_LINES = 64;

let lastHead: string | undefined;
let lastRecords: Array<Record<string, unknown>> = [];

/**
 * The JSON objects among the head's first lines, in order: malformed lines, non-objects and the line cut by the
 * head's end are passed over, so one bad line cannot hide the records after it. Every JSONL sniffer asks for the
 * same head in turn: the last one is kept.
 */
export function headRecords(head: string): Array<Record<string, unknown>> {
  if (head === lastHead) return lastRecords;
  const records: Array<Record<string, unknown>> = [];
  const lines = head.replace(/^\uFEFF/, '').split('\n', HEAD_LINES);
  for (const line of lines) {
    const text = line.trim();
    if (!text.startsWith('{')) continue;
    try {
      const json: unknown = JSON.parse(text);
      if (typeof json === 'object' && json !== null && !Array.isArray(json)) records.push(json as Record<string, unknown>);
    } catch {
      // a damaged line or the one the head cut: the next ones may still tell
    }
  }
  lastHead = head;
  lastRecords = records;
  return records;
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Path segments from the file's name upwards: `segments(p)[0]` is the name, `[1]` its folder, … */
export function segments(path: string): string[] {
  return path.split(/[\\/]/).reverse();
}
