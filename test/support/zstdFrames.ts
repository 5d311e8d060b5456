// zstd frames written by hand (RFC 8878): raw blocks only, so any text can be wrapped in a valid frame without a
// compressor, and skippable frames. The fuzzing builds .jsonl.zst rollouts and damage out of them.

const MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
/** The largest block a decoder must take (Block_Maximum_Size). */
const MAX_BLOCK = 128 * 1024;

/**
 * One frame holding `content` in raw blocks (of `blockBytes` at most), with a 4-byte content size and no checksum:
 * single segment, or with `windowDescriptor` the window it asks for.
 */
export function rawFrame(content: Buffer, options: { windowDescriptor?: number; blockBytes?: number } = {}): Buffer {
  const window = options.windowDescriptor;
  const header = Buffer.alloc(window === undefined ? 9 : 10);
  MAGIC.copy(header);
  header[4] = (2 << 6) | (window === undefined ? 1 << 5 : 0); // Frame_Content_Size_flag 2 (4 bytes), Single_Segment_flag
  if (window !== undefined) header[5] = window;
  header.writeUInt32LE(content.length, header.length - 4);
  const parts: Buffer[] = [header];
  const size = options.blockBytes ?? MAX_BLOCK;
  for (let at = 0; ; at += size) {
    const block = content.subarray(at, at + size);
    const last = at + size >= content.length;
    const blockHeader = Buffer.alloc(3);
    blockHeader.writeUIntLE((block.length << 3) | (0 << 1) | (last ? 1 : 0), 0, 3); // Block_Type 0: raw
    parts.push(blockHeader, block);
    if (last) break;
  }
  return Buffer.concat(parts);
}

/** A skippable frame (magic 0x184D2A5?): decoders pass over its bytes. */
export function skippableFrame(data: Buffer, nibble = 0): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32LE(0x184d2a50 + (nibble & 0xf), 0);
  header.writeUInt32LE(data.length, 4);
  return Buffer.concat([header, data]);
}

/** Where each frame of a stream starts (raw, compressed or skippable), read from the frame and block headers. */
export function frameStarts(stream: Buffer): number[] {
  const starts: number[] = [];
  for (let at = 0; at + 8 <= stream.length;) {
    starts.push(at);
    const magic = stream.readUInt32LE(at);
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      at += 8 + stream.readUInt32LE(at + 4);
      continue;
    }
    if (magic !== 0xfd2fb528) break;
    const descriptor = stream[at + 4];
    const singleSegment = (descriptor >> 5) & 1;
    const fcsFlag = descriptor >> 6;
    const dictBytes = [0, 1, 2, 4][descriptor & 3];
    const fcsBytes = fcsFlag === 0 ? singleSegment : 1 << fcsFlag;
    at += 5 + (singleSegment ? 0 : 1) + dictBytes + fcsBytes;
    for (let last = 0; !last && at + 3 <= stream.length;) {
      const blockHeader = stream.readUIntLE(at, 3);
      last = blockHeader & 1;
      const type = (blockHeader >> 1) & 3;
      at += 3 + (type === 1 ? 1 : blockHeader >> 3);
    }
    if ((descriptor >> 2) & 1) at += 4; // Content_Checksum
  }
  return starts;
}
