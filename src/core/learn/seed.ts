import { createHash } from 'node:crypto';
import type { Trace } from '../trace/model';

/**
 * The seed when none is given: derived from the sessions themselves (ids, sizes, last times), so a dry run and the
 * run after it shuffle alike and propose the same rule ids; new or grown sessions give another seed.
 */
export function contentSeed(traces: Trace[]): number {
  const hash = createHash('sha256');
  for (const trace of [...traces].sort((a, b) => a.id.localeCompare(b.id))) {
    hash.update(`${trace.id}\u0000${trace.steps.length}\u0000${trace.source.bytes}\u0000${trace.endedAt ?? ''}\u0001`);
  }
  return hash.digest().readUInt32BE(0) & 0x7fffffff;
}
