// fzstd allocates each frame's window up front and copies the whole window after every block: one flipped bit in a
// frame header (a window of 1.9 GB) costs gigabytes and seconds per block, a hang on a file of many small blocks.
// The frame headers are read here, ahead of the decompressor, and a window past what zstd itself decodes without
// `--long` is refused before anything is allocated.

/** zstd's default decoding limit (ZSTD_WINDOWLOG_LIMIT_DEFAULT 27); Codex's rollouts use far less. */
export const MAX_ZSTD_WINDOW_BYTES = 128 * 1024 * 1024;

const ZSTD_MAGIC = 0xfd2fb528;

/** The window a whole frame header asks for. */
function frameWindow(header: Uint8Array): number {
  const descriptor = header[4];
  const singleSegment = (descriptor >> 5) & 1;
  if (!singleSegment) {
    const exponent = header[5] >> 3;
    const base = 2 ** (10 + exponent);
    return base + (base / 8) * (header[5] & 7);
  }
  // Single segment: the window is the content size.
  const fcsFlag = descriptor >> 6;
  const fcsBytes = fcsFlag === 0 ? 1 : 1 << fcsFlag;
  const at = 5 + [0, 1, 2, 4][descriptor & 3];
  let size = 0;
  for (let i = fcsBytes - 1; i >= 0; i--) size = size * 256 + header[at + i];
  return fcsFlag === 1 ? size + 256 : size;
}

function headerBytes(descriptor: number): number {
  const singleSegment = (descriptor >> 5) & 1;
  const fcsFlag = descriptor >> 6;
  return 5 + (singleSegment ? 0 : 1) + [0, 1, 2, 4][descriptor & 3] + (fcsFlag === 0 ? singleSegment : 1 << fcsFlag);
}

/**
 * Walks a zstd stream's frames and blocks as it is pushed (skipping block contents unread) and stops at a frame
 * whose window is over `maxWindow` (`refused`). What it cannot make sense of it leaves to the decompressor, which
 * fails on it.
 */
export class ZstdWindowGuard {
  private state: 'frame' | 'block' | 'off' = 'frame';
  private skip = 0;
  private held = Buffer.alloc(0);
  private checksum = false;
  private offset = 0;
  refused: Error | undefined;

  constructor(private readonly maxWindow = MAX_ZSTD_WINDOW_BYTES) {}

  /**
   * The bytes the decompressor may take now: the chunk, less a header it ends inside (given with the next chunk,
   * or by `end`), and up to the first byte of a refused frame.
   */
  push(chunk: Uint8Array): Uint8Array {
    const data =
      this.held.length > 0
        ? Buffer.concat([this.held, chunk])
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.held = Buffer.alloc(0);
    let at = 0;
    while (at < data.length && this.state !== 'off') {
      if (this.skip > 0) {
        const n = Math.min(this.skip, data.length - at);
        this.skip -= n;
        at += n;
        continue;
      }
      const header = at;
      for (
        let want = this.needed(data, header);
        at - header < want && at < data.length;
        want = this.needed(data, header)
      )
        at = Math.min(header + want, data.length);
      if (at - header < this.needed(data, header)) {
        // the data ends inside a header: held back until the rest of it comes
        this.held = Buffer.from(data.subarray(header));
        this.offset += header;
        return data.subarray(0, header);
      }
      const bytes = data.subarray(header, at);
      if (this.state === 'block') this.block(bytes);
      else this.frame(bytes, this.offset + header);
      if (this.refused) return data.subarray(0, header);
    }
    this.offset += data.length;
    return data;
  }

  /** What was held back at the end of the stream (a cut header: the decompressor says so). */
  end(): Uint8Array {
    return this.held;
  }

  /** How many bytes the header starting at `from` has, as far as the bytes so far tell. */
  private needed(data: Buffer, from: number): number {
    const bytes = data.subarray(from);
    if (this.state === 'block') return 3;
    if (bytes.length < 4) return 4;
    const magic = bytes.readUInt32LE(0);
    if ((magic & 0xfffffff0) === 0x184d2a50) return 8;
    if (magic !== ZSTD_MAGIC) return 4;
    return bytes.length < 5 ? 5 : headerBytes(bytes[4]);
  }

  /** A whole frame header (or skippable frame header). */
  private frame(bytes: Buffer, offset: number): void {
    const magic = bytes.readUInt32LE(0);
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      this.skip = bytes.readUInt32LE(4);
      return;
    }
    if (magic !== ZSTD_MAGIC) {
      this.state = 'off';
      return;
    }
    const window = frameWindow(bytes);
    if (window > this.maxWindow) {
      this.refused = new Error(
        `the frame at byte ${offset} asks for a ${Math.round(window / 1024 / 1024)} MB window, over the ${this.maxWindow / 1024 / 1024} MB zstd decodes by default`,
      );
      this.state = 'off';
      return;
    }
    this.checksum = ((bytes[4] >> 2) & 1) === 1;
    this.state = 'block';
  }

  private block(bytes: Buffer): void {
    const header = bytes.readUIntLE(0, 3);
    const last = header & 1;
    const type = (header >> 1) & 3;
    if (type === 3) {
      this.state = 'off';
      return;
    }
    this.skip = (type === 1 ? 1 : header >> 3) + (last && this.checksum ? 4 : 0);
    if (last) this.state = 'frame';
  }
}
