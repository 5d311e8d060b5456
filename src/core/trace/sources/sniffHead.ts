import { isRecord } from './common';
/**
 * What sniffers see in a file's first bytes. `true`: this format's shape; `'specific'`: a record only this agent
 * writes (Claude Code's `sessionId`+`uuid`+`type` envelope, Gemini's `projectHash`), preferred when two readers
 * could claim a file.
 */
export type SniffEvidence = boolean | 'specific';

type Rec = Record<string, unknown>;

/** Lines of the head looked at: enough to get past a few damaged or unknown records. */
const HEAD_LINES = 64;

/** The head last asked about, parsed as far as some sniffer needed: every JSONL sniffer asks for the same in turn. */
let head: string | undefined;
let parsed: Rec[] = [];
let next = 0;
let lines = 0;

function parseNext(): boolean {
  const text = head as string;
  while (next < text.length && lines < HEAD_LINES) {
    const nl = text.indexOf('\n', next);
    const line = text.slice(next, nl === -1 ? text.length : nl).trim();
    next = nl === -1 ? text.length : nl + 1;
    lines++;
    if (!line.startsWith('{')) continue;
    try {
      const json: unknown = JSON.parse(line);
      if (isRecord(json)) {
        parsed.push(json);
        return true;
      }
    } catch {
      // a damaged line, or the one the head's end cut: the next ones may still tell
    }
  }
  return false;
}

/**
 * The first JSON object among the head's first lines that `test` accepts: malformed lines, non-objects and the line
 * cut by the head's end are passed over, so one bad line cannot hide the records after it. Lines are parsed only as
 * far as needed, once per head.
 */
export function findHeadRecord(text: string, test: (record: Rec) => boolean): Rec | undefined {
  if (text !== head) {
    head = text;
    parsed = [];
    next = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    lines = 0;
  }
  for (let i = 0; ; i++) {
    if (i === parsed.length && !parseNext()) return undefined;
    if (test(parsed[i])) return parsed[i];
  }
}

/** Path segments from the file's name upwards: `segments(p)[0]` is the name, `[1]` its folder, … */
export function segments(path: string): string[] {
  return path.split(/[\\/]/).reverse();
}
