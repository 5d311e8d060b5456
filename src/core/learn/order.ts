import type { Trace } from '../trace/model';

/** The order a run batches its sessions in (by start, then id): a shard's share must follow the same one. */
export function inLearningOrder<T extends Pick<Trace, 'id' | 'startedAt'>>(traces: readonly T[]): T[] {
  return [...traces].sort((a, b) => (a.startedAt ?? '').localeCompare(b.startedAt ?? '') || a.id.localeCompare(b.id));
}
