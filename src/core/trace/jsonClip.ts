import { CUT_CONTEXT, safeHeadEnd, safeTailStart } from '../secrets/cutPoints';
import { clipMiddleSplit, cutNote } from '../util/text';

/**
 * Cuts the middle out of long string values of one JSON text (a JSONL line) while it is still bytes, so a 300 MB
 * tool output is never decoded, parsed or held: only its head, a marker and its tail reach `JSON.parse`. The
 * readers clip outputs to a few thousand characters anyway; this does it before the expensive part.
 * Works on a line given in pieces (a line longer than a read chunk) with memory bounded by the kept bytes.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Longest JSON escape (`\uXXXX`): a cut with no backslash in the 6 bytes before it is between two characters. */
const ESCAPE_SPAN = 6;
/** Bytes looked at around a cut: the boundary search and the window in which secrets are found (see cutPoints). */
const VIEW = 4096 + CUT_CONTEXT;
/** Extra bytes kept before the tail so a boundary (and any secret across it) can be checked there. */
const TAIL_CONTEXT = CUT_CONTEXT;

export interface StringLimits {
  /** Bytes kept from the start of a long string. */
  headBytes: number;
  /** Bytes kept from its end. */
  tailBytes: number;
  /**
   * At most this many characters (UTF-16 units, as `String.length` counts them) of the head and of the tail, where the
   * bytes would hold more: a cut string then decodes to what `clipMiddle` keeps, so it is not cut a second time.
   */
  headChars?: number;
  tailChars?: number;
}

export interface JsonClipLimits extends StringLimits {
  /**
   * Tighter limits for every string inside the value of one top-level key: a record's copy of what it also holds
   * elsewhere (Claude Code's `toolUseResult` repeats the tool output, an edited file whole…).
   */
  under?: StringLimits & { key: string };
}

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

/** The cut marker as it appears inside a JSON string. */
function markerBytes(cut: number): Buffer {
  return Buffer.from(JSON.stringify(cutNote(cut)).slice(1, -1), 'utf8');
}

/**
 * Limits that keep what `clipMiddle(text, maxChars)` keeps (40 % head, 60 % tail, in characters), for text of up to
 * three bytes per character (heavily escaped text keeps somewhat less), so that what a cut string decodes to is short
 * enough for `clipMiddle` to leave it as it is.
 */
export function clipLimitsFor(maxChars: number): JsonClipLimits {
  const { head, tail } = clipMiddleSplit(maxChars);
  return {
    headBytes: 3 * Math.ceil(maxChars * 0.4) + 64,
    tailBytes: 3 * Math.ceil(maxChars * 0.6) + 64,
    headChars: head,
    tailChars: tail,
  };
}

/** Strings up to this much longer than head + tail are kept whole (cutting them would save little). */
const SLACK = 1024;

function threshold(limits: StringLimits): number {
  return limits.headBytes + limits.tailBytes + SLACK;
}

/** Whether a line of `bytes` bytes may hold a string worth cutting under these limits. */
export function mayNeedClip(bytes: number, limits: JsonClipLimits): boolean {
  return bytes > Math.min(threshold(limits), limits.under ? threshold(limits.under) : Infinity);
}

export class JsonStringClipper {
  /** The limits of the string being read, and the length from which it is cut. */
  private current: StringLimits;
  private limit: number;
  private readonly underKey: Buffer | undefined;
  /** Structure outside strings, tracked only for `limits.under`: nesting depth and where the top-level key stands. */
  private depth = 0;
  /** The last string closed at depth 1 was the `under` key (a colon makes it the key of what follows). */
  private keyCandidate = false;
  /** Inside the value of the `under` key. */
  private underValue = false;
  private out: Buffer[] = [];
  private outBytes = 0;
  private inString = false;
  /** The current string began in an earlier piece. */
  private continued = false;
  /** Backslashes at the end of the last piece, inside the current string (an escape split across pieces). */
  private carriedBackslashes = 0;
  /** Content of the current string while it may still be kept whole (copies: pieces are reused by the caller). */
  private pending: Buffer[] = [];
  private stringBytes = 0;
  private clipping = false;
  private headKept = 0;
  /** Last bytes of a string being cut (at least tailBytes + TAIL_CONTEXT once it is long enough). */
  private tailWindow: Buffer[] = [];
  private tailWindowBytes = 0;

  /**
   * `borrow`: the caller keeps every piece unchanged until `end()` (a line inside one read chunk), so kept bytes are
   * referenced, not copied: one allocation per line instead of one per piece.
   */
  constructor(
    private readonly limits: JsonClipLimits,
    private readonly borrow = false,
  ) {
    this.current = limits;
    this.limit = threshold(limits);
    this.underKey = limits.under ? Buffer.from(limits.under.key) : undefined;
  }

  /** Bytes of output so far (what the line will cost once decoded). */
  get size(): number {
    return this.outBytes + (this.inString && !this.clipping ? this.stringBytes : 0);
  }

  /** Feeds `chunk[from, to)`, the next piece of the line. */
  write(chunk: Buffer, from: number, to: number): void {
    let pos = from;
    // Bytes outside strings and the short strings of this piece are copied out as one run.
    let runStart = pos;
    const flushRun = (end: number) => {
      if (end > runStart) this.push(this.keep(chunk.subarray(runStart, end)));
    };
    while (pos < to) {
      if (!this.inString) {
        const q = indexOf(chunk, QUOTE, pos, to);
        if (this.underKey) this.structure(chunk, pos, q === -1 ? to : q);
        if (q === -1) break;
        this.openString();
        pos = q + 1;
        continue;
      }
      const contentStart = pos;
      let q = indexOf(chunk, QUOTE, pos, to);
      while (q !== -1 && this.escaped(chunk, contentStart, q)) q = indexOf(chunk, QUOTE, q + 1, to);
      const contentEnd = q === -1 ? to : q;
      if (this.continued || q === -1 || contentEnd - contentStart > this.limit) {
        flushRun(contentStart);
        this.addContent(chunk.subarray(contentStart, contentEnd));
        if (q === -1) {
          this.carriedBackslashes = trailingBackslashes(
            chunk,
            contentStart,
            to,
            this.continued ? this.carriedBackslashes : 0,
          );
          this.continued = true;
          return;
        }
        this.closeString();
        runStart = q;
        this.keyCandidate = false;
      } else if (this.underKey && this.depth === 1) {
        // a short string opened and closed in this piece stays in the run; at depth 1 it may be the key
        const key = this.underKey;
        this.keyCandidate =
          contentEnd - contentStart === key.length && chunk.compare(key, 0, key.length, contentStart, contentEnd) === 0;
      }
      this.inString = false;
      pos = q + 1;
    }
    flushRun(to);
  }

  private openString(): void {
    this.inString = true;
    this.continued = false;
    this.carriedBackslashes = 0;
    this.stringBytes = 0;
    const limits = this.underValue && this.limits.under ? this.limits.under : this.limits;
    if (limits !== this.current) {
      this.current = limits;
      this.limit = threshold(limits);
    }
  }

  /** Follows nesting and top-level keys through bytes outside strings. */
  private structure(chunk: Buffer, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const c = chunk[i];
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        this.depth++;
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        this.depth--;
        if (this.depth <= 1) this.underValue = false;
      } else if (this.depth === 1) {
        if (c === COLON) this.underValue = this.keyCandidate;
        else if (c === COMMA) this.underValue = false;
        if (c === COLON || c === COMMA) this.keyCandidate = false;
      }
    }
  }

  /** The clipped line. */
  end(): Buffer {
    if (this.inString) {
      // unterminated: keep what there is; the parser then reports the line as malformed
      if (this.clipping) this.closeString();
      else for (const piece of this.pending) this.push(piece);
    }
    return this.out.length === 1 ? this.out[0] : Buffer.concat(this.out, this.outBytes);
  }

  /** A view when borrowing, else a copy (the caller reuses its buffers). */
  private keep(bytes: Buffer): Buffer {
    return this.borrow ? bytes : Buffer.from(bytes);
  }

  private push(piece: Buffer): void {
    if (piece.length === 0) return;
    this.out.push(piece);
    this.outBytes += piece.length;
  }

  /** Whether the quote at `q` is escaped: an odd run of backslashes before it (possibly begun in an earlier piece). */
  private escaped(chunk: Buffer, contentStart: number, q: number): boolean {
    let run = 0;
    let i = q - 1;
    while (i >= contentStart && chunk[i] === BACKSLASH) {
      run++;
      i--;
    }
    if (i < contentStart && this.continued) run += this.carriedBackslashes;
    return run % 2 === 1;
  }

  private addContent(content: Buffer): void {
    if (content.length === 0) return;
    if (this.clipping) {
      this.stringBytes += content.length;
      this.keepTail(content);
      return;
    }
    if (this.stringBytes + content.length <= this.limit) {
      this.pending.push(this.keep(content));
      this.stringBytes += content.length;
      return;
    }
    // Too long: write the head now and from here on keep only a window of the end.
    const whole = this.pending.length > 0 ? Buffer.concat([...this.pending, content]) : content;
    this.pending = [];
    const { headBytes, headChars } = this.current;
    this.headKept = headCut(whole, headChars === undefined ? headBytes : bytesOfUnits(whole, headBytes, headChars));
    this.push(this.keep(whole.subarray(0, this.headKept)));
    this.clipping = true;
    this.tailWindow = [];
    this.tailWindowBytes = 0;
    this.stringBytes += content.length;
    this.keepTail(whole);
  }

  private keepTail(content: Buffer): void {
    const want = this.current.tailBytes + TAIL_CONTEXT;
    const piece = content.length > want ? content.subarray(content.length - want) : content;
    this.tailWindow.push(this.keep(piece));
    this.tailWindowBytes += piece.length;
    while (this.tailWindow.length > 1 && this.tailWindowBytes - this.tailWindow[0].length >= want) {
      this.tailWindowBytes -= this.tailWindow[0].length;
      this.tailWindow.shift();
    }
  }

  private closeString(): void {
    if (!this.clipping) {
      for (const piece of this.pending) this.push(piece);
      this.pending = [];
      return;
    }
    const window =
      this.tailWindow.length === 1 ? this.tailWindow[0] : Buffer.concat(this.tailWindow, this.tailWindowBytes);
    const { tailBytes, tailChars } = this.current;
    const tailStart = tailCut(
      window,
      tailChars === undefined ? tailBytes : bytesOfLastUnits(window, tailBytes, tailChars),
    );
    this.push(markerBytes(this.stringBytes - this.headKept - (window.length - tailStart)));
    this.push(this.keep(window.subarray(tailStart)));
    this.tailWindow = [];
    this.tailWindowBytes = 0;
    this.clipping = false;
  }
}

/**
 * Largest cut ≤ `want` that falls between two characters (not inside an escape or a UTF-8 sequence), outside any
 * secret and token around it (see cutPoints: the bytes are looked at as Latin-1, escapes and all); 0 if none is near.
 */
export function headCut(bytes: Buffer, want: number): number {
  const top = Math.min(want, bytes.length);
  const lo = Math.max(0, top - VIEW);
  const view = bytes.toString('latin1', lo, Math.min(bytes.length, top + CUT_CONTEXT));
  const cut = safeHeadEnd(view, top - lo, (p) => isBoundary(bytes, lo + p));
  return cut === 0 ? 0 : lo + cut;
}

/**
 * Smallest start ≥ `length - want` that falls between two characters, outside any secret and token around it, for a
 * window that is the end of a longer string (its first bytes are context, never a start); `length` (nothing kept) if
 * none is near.
 */
export function tailCut(bytes: Buffer, want: number): number {
  const from = Math.max(ESCAPE_SPAN, bytes.length - want);
  const lo = Math.max(0, from - CUT_CONTEXT);
  const view = bytes.toString('latin1', lo, Math.min(bytes.length, from + VIEW));
  const start = safeTailStart(view, from - lo, (p) => lo + p >= ESCAPE_SPAN && isBoundary(bytes, lo + p));
  return start >= view.length ? bytes.length : lo + start;
}

/** `p` starts a character: not a UTF-8 continuation byte, and no escape (at most 6 bytes) runs across it. */
function isBoundary(bytes: Buffer, p: number): boolean {
  if (p < bytes.length && (bytes[p] & 0xc0) === 0x80) return false;
  for (let i = Math.max(0, p - ESCAPE_SPAN); i < p; i++) if (bytes[i] === BACKSLASH) return false;
  return true;
}

/** Bytes of JSON string content the character at byte `p` takes (an escape, or a UTF-8 sequence). */
function charAt(bytes: Buffer, p: number): number {
  const b = bytes[p];
  if (b === BACKSLASH) return p + 1 < bytes.length && bytes[p + 1] === 0x75 /* u */ ? 6 : 2;
  if (b < 0xc0) return 1; // ASCII, or a stray continuation byte (decoded as one replacement character)
  return b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
}

/** Where the first `units` characters of the content starting at byte 0 end, at most `maxBytes`. */
function bytesOfUnits(bytes: Buffer, maxBytes: number, units: number): number {
  const top = Math.min(maxBytes, bytes.length);
  let p = 0;
  for (let n = 0; p < top;) {
    n += unitsOf(bytes, p);
    if (n > units) break;
    p += charAt(bytes, p);
  }
  return Math.min(p, top);
}

/**
 * How many bytes at the end of `window` (the end of a longer string) hold its last `units` characters, at most
 * `maxBytes`. A character takes at least one byte, so the count starts that many bytes from the end and moves back
 * only as far as the characters found fall short: the bytes counted are about the ones kept.
 */
function bytesOfLastUnits(window: Buffer, maxBytes: number, units: number): number {
  let from = window.length;
  let have = 0;
  while (have < units && from > ESCAPE_SPAN) {
    let start = Math.max(ESCAPE_SPAN, from - (units - have));
    while (start > ESCAPE_SPAN && !isBoundary(window, start)) start--;
    if (!isBoundary(window, start)) {
      // no character surely starts before: count from the first place one does
      while (start < from && !isBoundary(window, start)) start++;
      have += unitsBetween(window, start, from);
      from = start;
      break;
    }
    have += unitsBetween(window, start, from);
    from = start;
  }
  // the last step may have gone a few characters too far back
  while (have > units && from < window.length) {
    have -= unitsOf(window, from);
    from += charAt(window, from);
  }
  return Math.min(maxBytes, window.length - from);
}

/** UTF-16 units of the character at byte `p`: two for a four-byte UTF-8 sequence (a surrogate pair). */
function unitsOf(bytes: Buffer, p: number): number {
  return bytes[p] >= 0xf0 ? 2 : 1;
}

/** Characters in [start, end), both of them places where a character starts. */
function unitsBetween(bytes: Buffer, start: number, end: number): number {
  let n = 0;
  for (let p = start; p < end; p += charAt(bytes, p)) n += unitsOf(bytes, p);
  return n;
}

/** Bytes looked at in a loop before asking `Buffer.indexOf`, whose call costs more than a short loop (most JSON strings are short). */
const NEAR = 64;

function indexOf(chunk: Buffer, byte: number, from: number, to: number): number {
  const near = Math.min(to, from + NEAR);
  for (let i = from; i < near; i++) if (chunk[i] === byte) return i;
  if (near === to) return -1;
  const i = chunk.indexOf(byte, near);
  return i === -1 || i >= to ? -1 : i;
}

/** The run of backslashes ending at `to` (plus the carried run when the whole piece is backslashes). */
function trailingBackslashes(chunk: Buffer, from: number, to: number, carried: number): number {
  let run = 0;
  let i = to - 1;
  while (i >= from && chunk[i] === BACKSLASH) {
    run++;
    i--;
  }
  return i < from ? run + carried : run;
}
