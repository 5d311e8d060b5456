import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { makeTrace, user } from '../../testing/traces';

// Bundles far larger decompressed than on disk, written without holding their text: a gzip stream may be several
// members one after the other, so each session line is its own head (with its id), one shared member holding the long
// text (compressed once), and its tail. What a decompression bomb looks like, or a very compressible honest bundle.

export interface LargeBundleSpec {
  /** Small valid sessions first (staged before anything goes wrong). */
  small?: number;
  /** Then this many sessions whose user message is `textBytes` long. */
  large: number;
  textBytes: number;
  /** `bad`: a checksum that does not match; `none`: the stream stops before the trailer. */
  trailer?: 'good' | 'bad' | 'none';
  exportedBy?: string;
}

export interface LargeBundle {
  path: string;
  sessions: number;
  /** The bundle's bytes on disk. */
  bytes: number;
  decompressedBytes: number;
}

const MARK = '\u0000TEXT\u0000';

export function writeLargeBundle(path: string, spec: LargeBundleSpec): LargeBundle {
  const small = spec.small ?? 0;
  const sessions = small + spec.large;
  const fd = openSync(path, 'w');
  const hash = createHash('sha256');
  let bytes = 0;
  let decompressedBytes = 0;
  const put = (text: string | Buffer, compressed = gzipSync(text)) => {
    writeSync(fd, compressed);
    bytes += compressed.length;
    decompressedBytes += Buffer.byteLength(text);
  };
  try {
    put(
      `${JSON.stringify({
        format: 'combee-bundle',
        version: 1,
        exportedBy: spec.exportedBy ?? 'mallory',
        newestSessionAt: '2026-11-20T00:00:00.000Z',
        workspaceName: 'acme-shop',
        traces: sessions,
      })}\n`,
    );
    // prose: a long run of one letter would be a long token to the secret screen, and slow to scan
    const text = Buffer.alloc(spec.textBytes, 'the quick brown fox jumps over the lazy dog. ');
    const body = gzipSync(text, { level: 9 });
    for (let i = 0; i < sessions; i++) {
      const id = `claude-code:${i < small ? 'small' : 'large'}-${String(i).padStart(6, '0')}`;
      const line = JSON.stringify(makeTrace(id, [user(i < small ? `session ${i}` : MARK)], { cwd: '.' }));
      const [head, tail] = i < small ? [line, ''] : line.split(JSON.stringify(MARK).slice(1, -1));
      const sep = i === 0 ? '' : '\n';
      hash.update(sep + head);
      put(sep + head);
      if (i >= small) {
        hash.update(text);
        put(text, body);
      }
      hash.update(tail);
      put(tail);
    }
    if (spec.trailer === 'none') put('\n');
    else {
      const sha256 = spec.trailer === 'bad' ? '0'.repeat(64) : hash.digest('hex');
      put(`\n${JSON.stringify({ end: true, traces: sessions, sha256 })}\n`);
    }
  } finally {
    closeSync(fd);
  }
  return { path, sessions, bytes, decompressedBytes };
}
