import type { ReadContext, SessionFile } from './types';

/** Bad lines of a file shown one by one up to this many, then as one total: a damaged file must not flood the log. */
const SHOWN = 3;

export interface LineWarnings {
  /** A line that is not a record of this format (the message names the line). */
  bad(message: string): void;
  /** A line that is not JSON at all. */
  malformed(lineNo: number): void;
  /** The line as a JSON object, or undefined after the right warning (not JSON; JSON but not an object). */
  record(text: string, lineNo: number): Record<string, unknown> | undefined;
  /** After the file: the total of bad lines (when some were not shown) and the lines skipped for their size. */
  done(skippedLongLines: number): void;
}

/** The counted warnings every line-oriented reader gives for bad and over-long lines. */
export function lineWarnings(file: SessionFile, ctx: ReadContext, format: string): LineWarnings {
  let badLines = 0;
  const bad = (message: string) => {
    badLines++;
    if (badLines <= SHOWN) ctx.warn(message);
  };
  const malformed = (lineNo: number) => bad(`${file.path}:${lineNo}: malformed JSON line skipped`);
  return {
    bad,
    malformed,
    record(text, lineNo) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        malformed(lineNo);
        return undefined;
      }
      if (typeof json === 'object' && json !== null && !Array.isArray(json)) return json as Record<string, unknown>;
      bad(`${file.path}:${lineNo}: not a ${format} record (not an object)`);
      return undefined;
    },
    done(skippedLongLines) {
      if (badLines > SHOWN) ctx.warn(`${file.path}: ${badLines} malformed lines skipped in all`);
      if (skippedLongLines > 0)
        ctx.warn(`${file.path}: ${skippedLongLines} line(s) over ${ctx.maxLineBytes} bytes skipped`);
    },
  };
}
