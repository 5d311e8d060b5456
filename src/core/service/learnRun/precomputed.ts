import { indexReflectionSets, playbookSha, PrecomputedReflector } from '../../learn/reflectionSet';
import type { Playbook } from '../../playbook/model';
import type { Trace } from '../../trace/model';
import { groundingGap } from './lessonGrounding';
import type { LearnWorkspaceOptions } from './options';

/** The reflector that takes the map phase's reflections, after saying what they do not cover. */
export function precomputedReflector(
  options: LearnWorkspaceOptions,
  traces: readonly Trace[],
  base: Playbook,
  warn: (message: string) => void,
): PrecomputedReflector {
  const sets = options.precomputed ?? [];
  const counts = new Set(sets.flatMap((s) => (s.shard ? [s.shard.count] : [])));
  if (counts.size > 1) warn(`the reflection sets come from runs of different shard counts (${[...counts].join(', ')})`);
  for (const count of counts)
    for (let i = 1; i <= count; i++)
      if (!sets.some((s) => s.shard?.index === i && s.shard.count === count))
        warn(`shard ${i}/${count} is missing: its sessions are reflected here`);
  const sha = playbookSha(base);
  if (sets.some((s) => s.playbookSha !== sha))
    warn(
      'some reflections were made against another playbook than the one here (it changed between the map and this run): those sessions are reflected again here',
    );
  const entries = indexReflectionSets(
    sets,
    traces,
    options.provider,
    warn,
    options.precomputedFromFiles ? groundingGap : undefined,
    base,
  );
  const uncovered = traces.filter((t) => !entries.has(t.id)).length;
  if (uncovered > 0) warn(`${uncovered} of ${traces.length} session(s) have no reflection from the map phase`);
  return new PrecomputedReflector(options.reflector, entries);
}
