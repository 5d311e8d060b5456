// How many rules each model wrote, by stage: the table `combee rules --by-model` prints and the helpfulness panel
// shows when its rules are grouped by model. Shared by both so they count the same way.

export const STAGES = ['new', 'proven', 'contested', 'harmful'] as const;
export type Stage = (typeof STAGES)[number];

export interface ModelStages {
  /** `provider/model`, or `unknown`. */
  model: string;
  counts: Record<Stage, number>;
  total: number;
}

/** One row per model, most rules first (then by name; `unknown` last), each stage counted. */
export function stagesByModel(rules: ReadonlyArray<{ model: string; stage: Stage }>): ModelStages[] {
  const rows = new Map<string, ModelStages>();
  for (const rule of rules) {
    let row = rows.get(rule.model);
    if (!row) {
      row = { model: rule.model, counts: { new: 0, proven: 0, contested: 0, harmful: 0 }, total: 0 };
      rows.set(rule.model, row);
    }
    row.counts[rule.stage]++;
    row.total++;
  }
  const last = (row: ModelStages) => (row.model === 'unknown' ? 1 : 0);
  return [...rows.values()].sort(
    (a, b) => last(a) - last(b) || b.total - a.total || (a.model < b.model ? -1 : a.model > b.model ? 1 : 0),
  );
}
