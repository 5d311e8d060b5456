import { StringDecoder } from 'node:string_decoder';
import { JsonStringClipper, mayNeedClip, type JsonClipLimits } from './jsonClip';

export interface LineVisit {
  text: string;
  /** 1-based line number relative to the first byte pushed. */
  lineNo: number;
}

export interface LineAssemblerOptions {
  /**
   * Lines longer than this are skipped with a warning instead of being held in memory (with `clip`: lines still
   * longer once their long strings are cut).
   */
  maxLineBytes: number;
  /** For JSON lines: long string values are cut in the middle on the raw bytes, before decoding (see jsonClip). */
  clip?: JsonClipLimits;
  /**
   * Cheap prefilter, called with the start of each line (at most `SKIP_HEAD_CHARS` characters): `true` skips the
   * line before it is parsed (and, for lines longer than a chunk, before it is assembled).
   */
  skip?: (head: string) => boolean;
  /** The first byte pushed is the start of the file: a byte order mark there is dropped. */
  atFileStart: boolean;
}

export const SKIP_HEAD_CHARS = 256;
const NEWLINE = 0x0a;

/**
 * Bytes in, lines out — for a file read in chunks and for a decompressed stream alike — without ever building a
 * string bigger than one chunk or one line, and never a line over `maxLineBytes` (counted and dropped as it grows:
 * one 700 MB line must not take the process down). With `clip`, a JSON line is measured after its long strings are
 * cut, so a 700 MB tool output is read, cut. A line within one chunk is decoded straight from it; a line across
 * chunks is decoded (or cut) piece by piece as it comes, copying only what it keeps, so the caller may reuse its
 * buffers after each `push`. Empty lines are counted, not delivered; a trailing `\r` is dropped.
 */
export class LineAssembler {
  lines = 0;
  skippedLongLines = 0;
  /** Lines the `skip` prefilter dropped. */
  skippedLines = 0;
  /** Bytes up to the end of the last complete (newline-terminated) line, from the first byte pushed. */
  consumed = 0;
  private pushed = 0;
  private readonly decoder = new StringDecoder('utf8');
  private parts: string[] = [];
  private clipper: JsonStringClipper | undefined;
  private lineBytes = 0;
  private dropping: 'long' | 'filtered' | undefined;

  constructor(
    private readonly options: LineAssemblerOptions,
    private readonly onLine: (line: LineVisit) => void,
  ) {}

  /** Bytes of an unfinished line are waiting for its end. */
  get pending(): boolean {
    return this.pushed > this.consumed;
  }

  push(chunk: Buffer): void {
    const chunkStart = this.pushed;
    this.pushed += chunk.length;
    const { clip, maxLineBytes } = this.options;
    let from = 0;
    if (this.lineBytes > 0 || this.dropping) {
      const nl = chunk.indexOf(NEWLINE);
      if (nl === -1) {
        this.addPiece(chunk);
        return;
      }
      this.addPiece(chunk.subarray(0, nl));
      this.finishPending();
      from = nl + 1;
      this.consumed = chunkStart + from;
    }
    // Decoded line by line: one line with a non-Latin-1 character must not turn the whole chunk into a two-byte
    // string (slower to parse, twice the memory).
    for (let nl = chunk.indexOf(NEWLINE, from); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
      if (clip && mayNeedClip(nl - from, clip)) {
        this.deliverClipped(chunk, from, nl, clip);
      } else if (nl - from > maxLineBytes) {
        this.skippedLongLines++;
        this.lines++;
      } else {
        this.deliver(chunk.toString('utf8', from, nl));
      }
      from = nl + 1;
      this.consumed = chunkStart + from;
    }
    if (from < chunk.length) this.addPiece(chunk.subarray(from));
  }

  /** The last line, even without a final newline (finished files often lack it); not counted in `consumed`. */
  finish(): void {
    if (this.pending) this.finishPending();
  }

  private deliver(raw: string): void {
    let text = raw;
    this.lines++;
    if (text.length > 0 && text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
    // A byte order mark would make the first record malformed JSON (a Codex session_meta, a Gemini header…).
    if (this.lines === 1 && this.options.atFileStart && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.length === 0) return;
    const skip = this.options.skip;
    if (skip && skip(text.length > SKIP_HEAD_CHARS ? text.slice(0, SKIP_HEAD_CHARS) : text)) {
      this.skippedLines++;
      return;
    }
    this.onLine({ text, lineNo: this.lines });
  }

  /** A long line inside one chunk: cut while the chunk is there, its kept bytes referenced, not copied. */
  private deliverClipped(chunk: Buffer, from: number, to: number, clip: JsonClipLimits): void {
    const skip = this.options.skip;
    if (skip && skip(chunk.toString('utf8', from, Math.min(to, from + SKIP_HEAD_CHARS)))) {
      this.lines++;
      this.skippedLines++;
      return;
    }
    const lineClipper = new JsonStringClipper(clip, true);
    lineClipper.write(chunk, from, to);
    if (lineClipper.size > this.options.maxLineBytes) {
      this.lines++;
      this.skippedLongLines++;
      return;
    }
    this.deliver(lineClipper.end().toString('utf8'));
  }

  private finishPending(): void {
    if (this.dropping) {
      this.lines++;
      if (this.dropping === 'long') this.skippedLongLines++;
      else this.skippedLines++;
    } else if (this.clipper) {
      this.deliver(this.clipper.end().toString('utf8'));
    } else if (this.lineBytes > 0) {
      this.parts.push(this.decoder.end());
      this.deliver(this.parts.length === 1 ? this.parts[0] : this.parts.join(''));
    } else {
      this.lines++;
    }
    this.parts = [];
    this.clipper = undefined;
    this.lineBytes = 0;
    this.dropping = undefined;
  }

  private dropLong(): void {
    this.dropping = 'long';
    this.parts = [];
    this.clipper = undefined;
    this.lineBytes = 0;
    this.decoder.end();
  }

  /** Adds a piece of an unfinished line; decides early whether it is too long or filtered out. */
  private addPiece(piece: Buffer): void {
    if (this.dropping || piece.length === 0) return;
    const { skip, clip, maxLineBytes } = this.options;
    if (
      skip &&
      this.lineBytes === 0 &&
      piece.length >= SKIP_HEAD_CHARS * 4 &&
      skip(piece.toString('utf8', 0, SKIP_HEAD_CHARS))
    ) {
      this.dropping = 'filtered';
      return;
    }
    this.lineBytes += piece.length;
    if (clip) {
      this.clipper ??= new JsonStringClipper(clip);
      this.clipper.write(piece, 0, piece.length);
      if (this.clipper.size > maxLineBytes) this.dropLong();
      return;
    }
    if (this.lineBytes > maxLineBytes) {
      this.dropLong();
      return;
    }
    this.parts.push(this.decoder.write(piece));
  }
}
