// A SQLite write-ahead log written by hand (https://sqlite.org/fileformat2.html#walformat), so a database made with
// sql.js (which keeps no WAL) can get one to damage: one transaction rewriting some of its pages as they are.

const MAGIC_LE = 0x377f0682;

function checksum(bytes: Buffer, s: [number, number]): [number, number] {
  let [s0, s1] = s;
  for (let i = 0; i < bytes.length; i += 8) {
    s0 = (s0 + bytes.readUInt32LE(i) + s1) >>> 0;
    s1 = (s1 + bytes.readUInt32LE(i + 4) + s0) >>> 0;
  }
  return [s0, s1];
}

/** A WAL holding one committed transaction of `pages` (1-based), copied from `image`. */
export function walOf(image: Buffer, pages: number[], salts: [number, number] = [0x1234_5678, 0x9abc_def0]): Buffer {
  const raw = image.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  const pageCount = Math.ceil(image.length / pageSize);
  const header = Buffer.alloc(32);
  header.writeUInt32BE(MAGIC_LE, 0);
  header.writeUInt32BE(3007000, 4);
  header.writeUInt32BE(pageSize, 8);
  header.writeUInt32BE(0, 12);
  header.writeUInt32BE(salts[0], 16);
  header.writeUInt32BE(salts[1], 20);
  let sums = checksum(header.subarray(0, 24), [0, 0]);
  header.writeUInt32BE(sums[0], 24);
  header.writeUInt32BE(sums[1], 28);
  const frames = pages.map((page, i) => {
    const frame = Buffer.alloc(24 + pageSize);
    frame.writeUInt32BE(page, 0);
    frame.writeUInt32BE(i === pages.length - 1 ? pageCount : 0, 4);
    frame.writeUInt32BE(salts[0], 8);
    frame.writeUInt32BE(salts[1], 12);
    image.copy(frame, 24, (page - 1) * pageSize, page * pageSize);
    sums = checksum(frame.subarray(0, 8), sums);
    sums = checksum(frame.subarray(24), sums);
    frame.writeUInt32BE(sums[0], 16);
    frame.writeUInt32BE(sums[1], 20);
    return frame;
  });
  return Buffer.concat([header, ...frames]);
}
