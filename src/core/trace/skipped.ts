import type { SkipReason } from './scan';

/** Paths kept per reason: enough to find the files, never the whole list. */
export const SKIPPED_SAMPLES = 3;

/** Files seen and not imported, by reason, and a few paths of each. */
export interface Skipped {
  skipped: Partial<Record<SkipReason, number>>;
  skippedSamples: Partial<Record<SkipReason, string[]>>;
}

/**
 * Counts into `into`, each path once and by one reason. `too large` is learned by reading (a session's sibling
 * file, which the walk took for `not a session`), so it replaces a reason given before; nothing replaces it.
 */
export function skipCounter(into: Skipped): (reason: SkipReason, path: string) => void {
  const reasons = new Map<string, SkipReason>();
  return (reason, path) => {
    const before = reasons.get(path);
    if (before === reason || (before !== undefined && reason !== 'too large')) return;
    if (before !== undefined) uncount(into, before, path);
    reasons.set(path, reason);
    into.skipped[reason] = (into.skipped[reason] ?? 0) + 1;
    const samples = (into.skippedSamples[reason] ??= []);
    if (samples.length < SKIPPED_SAMPLES) samples.push(path);
  };
}

function uncount(into: Skipped, reason: SkipReason, path: string): void {
  const left = (into.skipped[reason] ?? 1) - 1;
  if (left > 0) into.skipped[reason] = left;
  else delete into.skipped[reason];
  const samples = into.skippedSamples[reason]?.filter((p) => p !== path);
  if (samples?.length) into.skippedSamples[reason] = samples;
  else delete into.skippedSamples[reason];
}

/** Several imports' skips (one per folder) as one: counts added, samples up to SKIPPED_SAMPLES per reason. */
export function mergeSkipped(parts: Skipped[]): Skipped {
  const merged: Skipped = { skipped: {}, skippedSamples: {} };
  for (const part of parts) {
    for (const [reason, count] of Object.entries(part.skipped) as Array<[SkipReason, number]>) {
      merged.skipped[reason] = (merged.skipped[reason] ?? 0) + count;
      const samples = (merged.skippedSamples[reason] ??= []);
      for (const path of part.skippedSamples[reason] ?? []) if (samples.length < SKIPPED_SAMPLES) samples.push(path);
    }
  }
  return merged;
}

/** Files not imported in all. */
export function skippedTotal(skipped: Skipped): number {
  return Object.values(skipped.skipped).reduce((n, count) => n + (count ?? 0), 0);
}

/** "Not imported: 3 not a session (a.json, …), 1 empty (b.jsonl)" — or nothing when every file seen was imported. */
export function describeSkipped(summary: Skipped): string | undefined {
  const parts = Object.entries(summary.skipped).map(([reason, count]) => {
    const samples = summary.skippedSamples[reason as SkipReason] ?? [];
    return `${count} ${reason} (${samples.join(', ')}${(count ?? 0) > samples.length ? ', …' : ''})`;
  });
  return parts.length ? `Not imported: ${parts.join('; ')}.` : undefined;
}
