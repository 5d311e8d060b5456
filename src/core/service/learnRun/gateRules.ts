import { gateRule } from '../../learn/rules/gates';
import { repositoryText } from '../../learn/rules/gates/repository';
import type { GateName } from '../../learn/rules/gates/types';
import type { LearnResult } from '../../learn/run';
import type { Trace } from '../../trace/model';
import { withdrawNewRules } from './resolveConflicts';

/** A new rule the gates left out: which gate, and why. */
export interface GatedOutRule {
  id: string;
  content: string;
  gate: GateName;
  reason: string;
}

/**
 * Every rule the run adds, the miner's or a model's, through the precision gates (learn/gates): one that fails is
 * withdrawn (never proposed) and said, with the gate, in the run's warnings and in what is returned.
 */
export function gateNewRules(
  result: LearnResult,
  traces: readonly Trace[],
  readFile: (rel: string) => string | undefined,
  gatedBefore: ReadonlySet<string> = new Set(),
  listFiles: (relFolder: string) => string[] = () => [],
  listFolders: (relFolder: string) => string[] = () => [],
): GatedOutRule[] {
  const context = {
    traces: new Map(traces.map((t) => [t.id, t] as const)),
    repository: repositoryText(readFile, listFiles, listFolders),
  };
  const out: GatedOutRule[] = [];
  for (const applied of result.applied) {
    if (applied.status !== 'applied' || !applied.id || applied.op.op !== 'ADD' || gatedBefore.has(applied.id)) continue;
    const failed = gateRule({ content: applied.op.content, support: applied.op.support }, context);
    if (failed) out.push({ id: applied.id, content: applied.op.content, ...failed });
  }
  if (out.length === 0) return out;
  const reasonOf = (rule: GatedOutRule) => `left out by the ${rule.gate} gate: ${rule.reason}`;
  withdrawNewRules(
    result,
    out.map((rule) => ({ id: rule.id, reason: reasonOf(rule) })),
  );
  for (const rule of out) result.record.warnings.push(`rule ${rule.id} ${reasonOf(rule)}`);
  return out;
}
