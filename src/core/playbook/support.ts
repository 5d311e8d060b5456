import type { Evidence } from './delta';

/**
 * The union of several supports: one entry per trace, its steps merged and sorted, traces in order of first
 * appearance. Support is a set of traces: a lesson seen twice (duplicated reflections) does not count twice.
 */
export function unionSupport(...supports: ReadonlyArray<readonly Evidence[]>): Evidence[] {
  const byTrace = new Map<string, Set<number>>();
  for (const support of supports)
    for (const evidence of support) {
      let steps = byTrace.get(evidence.traceId);
      if (!steps) byTrace.set(evidence.traceId, (steps = new Set()));
      for (const step of evidence.steps) steps.add(step);
    }
  return [...byTrace].map(([traceId, steps]) => ({ traceId, steps: [...steps].sort((a, b) => a - b) }));
}
