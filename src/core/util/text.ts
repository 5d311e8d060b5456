import { safeHeadEnd, safeTailStart } from '../secrets/cutPoints';

/**
 * The note left where text was cut. ASCII: one character beyond Latin-1 makes V8 store the whole string at two
 * bytes per character. Inline: it may land inside JSON nested in a string, where a raw newline is invalid.
 */
export function cutNote(cut: number): string {
  return `[... ${cut} characters cut ...]`;
}

/** The note on a line of its own, for text meant to be read. */
function cutMarker(cut: number): string {
  return `\n${cutNote(cut)}\n`;
}

const CUT_MARKER = /\n?\[\.\.\. (\d+) characters cut \.\.\.\]\n?/;

/** Where an earlier cut (made on the raw bytes, before decoding) left its marker in `text`, and how much it removed. */
function earlierCut(text: string): { index: number; length: number; cut: number } | undefined {
  if (!text.includes(' characters cut ...]')) return undefined;
  const match = CUT_MARKER.exec(text);
  return match ? { index: match.index, length: match[0].length, cut: Number(match[1]) } : undefined;
}

/** The characters `clipMiddle` keeps at most of the head and of the tail (room is left for the marker). */
export function clipMiddleSplit(maxChars: number): { head: number; tail: number } {
  const keep = Math.max(0, maxChars - 40);
  const head = Math.ceil(keep * 0.4);
  return { head, tail: keep - head };
}

/**
 * Cuts long text in the middle, keeping its head and tail, so both the command and its final error survive. The cuts
 * fall outside secrets and tokens (see `cutPoints`), so redacting the kept text removes every secret of the whole.
 */
export function clipMiddle(text: string, maxChars: number): { text: string; truncatedFrom?: number } {
  const earlier = earlierCut(text);
  const original = earlier ? text.length - earlier.length + earlier.cut : text.length;
  if (text.length <= maxChars) return earlier ? { text, truncatedFrom: original } : { text };
  const split = clipMiddleSplit(maxChars);
  const head = safeHeadEnd(text, split.head);
  const tail = text.length - Math.max(head, safeTailStart(text, text.length - split.tail));
  const earlierInside =
    earlier !== undefined && earlier.index >= head && earlier.index + earlier.length <= text.length - tail;
  const cut = earlierInside ? original - head - tail : text.length - head - tail;
  // Slices of `text` would keep all of it alive (V8 sliced strings): the clipped text is copied into a flat string.
  const clipped = `${text.slice(0, head)}${cutMarker(cut)}${text.slice(text.length - tail)}`;
  return { text: flat(clipped), truncatedFrom: original };
}

/** The first `max` characters of `text`, cut outside any secret or token, so what is kept can still be redacted. */
export function headOf(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, safeHeadEnd(text, max));
}

/** A session's title from its first prompt: the first line, cut to `max` outside any secret or token (see cutPoints). */
export function titleLine(text: string, max = 120): string {
  const line = text.split('\n')[0];
  return headOf(line, max);
}

export function firstLine(text: string, max = 200): string {
  const line =
    text
      .split('\n')
      .find((l) => l.trim().length > 0)
      ?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A copy of `text` that shares no memory with the string it was cut from. */
function flat(text: string): string {
  // slicing a concatenation flattens it into a new string first
  return ` ${text}`.slice(1);
}

/** "1 session", "3 sessions". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
