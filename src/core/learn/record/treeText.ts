import { describeBatchMode } from './batchMode';
import { describeDrops, dropSummary } from './callItems';
import { callItemFacts, callName, labelWithoutDrops } from './callItemsText';
import type { BatchPlan, RunNode, RunRecord } from './record';

/** The aggregation tree as indented text, from the applied changes down to the sessions (for `combee tree`). */
export function renderRunTree(record: RunRecord): string {
  const byId = new Map(record.nodes.map((n) => [n.id, n]));
  const nameOf = (id: string) => {
    const node = byId.get(id);
    return node && callName(node);
  };
  const lines: string[] = [
    `Run ${record.id} — ${record.status}`,
    `  ${record.provider} (${record.model}) · strategy ${record.strategy} · seed ${record.seed} · p = ${record.duplication} · batch ≤ ${record.batchSize}`,
    `  ${record.totals.traces} session(s), ${record.totals.reflections} reflection(s), ${record.totals.lessons} lesson(s), ${record.totals.calls} call(s), ${record.totals.inputTokens + record.totals.outputTokens} tokens, ${record.totals.applied} change(s) applied, ${(record.totals.wallMs / 1000).toFixed(1)} s`,
  ];
  const drops = describeDrops(dropSummary(record.nodes));
  if (drops) lines.push(`  ${drops}`);
  if (record.controller) {
    const c = record.controller;
    lines.push(
      `  batch-size controller: ${c.chosen} (${c.reason}${c.fit ? `; T = ${c.fit.A.toFixed(0)}·b^-${c.fit.alpha.toFixed(2)}, r² ${c.fit.r2.toFixed(2)}` : ''})`,
    );
  }
  const facts = (n: RunNode) =>
    [
      n.latencyMs !== undefined ? `${Math.round(n.latencyMs)} ms` : '',
      n.inputTokens || n.outputTokens ? `${(n.inputTokens ?? 0) + (n.outputTokens ?? 0)} tok` : '',
      n.status !== 'ok' ? n.status.toUpperCase() : '',
      n.retries ? `sent again ${n.retries}×` : '',
      n.hedges ? `hedged ${n.hedges}×` : '',
    ]
      .filter(Boolean)
      .join(', ');
  const seen = new Set<string>();
  const walk = (node: RunNode, depth: number) => {
    const repeat = seen.has(node.id);
    const detail = facts(node);
    const items = node.items ? callItemFacts(node.items, nameOf).join('; ') : '';
    lines.push(
      `${'  '.repeat(depth)}${node.kind === 'trace' ? '• ' : ''}${labelWithoutDrops(node)}${detail ? ` (${detail})` : ''}${items ? ` — ${items}` : ''}${repeat ? ' ↺' : ''}`,
    );
    if (repeat) return;
    seen.add(node.id);
    for (const parent of node.parents) {
      const child = byId.get(parent);
      if (child) walk(child, depth + 1);
    }
  };
  for (const batch of record.batches) {
    lines.push(
      '',
      `batch ${batch.index + 1}: ${batch.traceIds.length} session(s), ${describeBatchMode(batch)}, ${(batch.wallMs / 1000).toFixed(2)} s`,
    );
    if (batch.plan) lines.push(`  plan: ${describePlan(batch.plan)}`);
    const apply = record.nodes.find((n) => n.kind === 'apply' && n.batch === batch.index);
    if (apply) walk(apply, 1);
    else lines.push('  (nothing to apply)');
  }
  // the learner warns of the drops too: said once, under the header
  const warnings = record.warnings.filter((w) => w !== drops);
  if (warnings.length) lines.push('', `${warnings.length} warning(s):`, ...warnings.slice(0, 20).map((w) => `  ${w}`));
  return lines.join('\n');
}

/**
 * e.g. `capacity-aware, local calls ≤ 16000 tokens, higher levels ≤ 1401 (largest 1663), learned capacity 1401: k =
 * 7…; 37 op(s) merged in code`.
 */
export function describePlan(plan: BatchPlan): string {
  const budgets =
    plan.higherBudgetTokens !== undefined
      ? `local calls ≤ ${plan.budgetTokens} tokens, higher levels ≤ ${plan.higherBudgetTokens}`
      : `every call ≤ ${plan.budgetTokens} tokens`;
  const head =
    plan.kind === 'capacity'
      ? `capacity-aware, ${budgets}${plan.largestCallTokens ? ` (largest ${plan.largestCallTokens})` : ''}${plan.learnedTokens !== undefined ? `, learned capacity ${plan.learnedTokens}` : ''}`
      : '√n';
  return `${head}: ${plan.reason}${plan.mergedInCode ? `; ${plan.mergedInCode} op(s) merged in code` : ''}`;
}
