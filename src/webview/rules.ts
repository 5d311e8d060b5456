import type { RuleChipView, RuleView, ToWebview } from '../shared/protocol';
import { STAGES, stagesByModel, type ModelStages, type Stage } from '../shared/stagesByModel';
import { el, iconButton, svg } from './dom';
import { inlineMarkdown } from './markdown';

type RulesMessage = Extract<ToWebview, { type: 'rules' }>;

export type RuleSort = 'net' | 'helpful' | 'harmful' | 'quiet' | 'playbook';
export type RuleGroup = 'none' | 'model';

/** What the panel keeps across a reload (see main.ts: saved with the webview's state). */
export interface RulesState {
  ruleQuery?: string;
  ruleSort?: RuleSort;
  /** Chips shown; none chosen shows every rule. */
  ruleChips?: RuleChipView[];
  /** Rules listed under the model that wrote each, with a table of their stages per model. */
  ruleGroup?: RuleGroup;
}

export interface RulesHost {
  openRule(ruleId: string): void;
  ruleInTree(ruleId: string): void;
  retireRule(ruleId: string): void;
  pinRule(ruleId: string, pinned: boolean): void;
  saveRulesState(state: RulesState): void;
}

const CHIPS: RuleChipView[] = [
  'new',
  'proven',
  'contested',
  'harmful',
  'unconfirmed',
  'stale',
  'violated',
  'flagged',
  'pinned',
];
const CHIP_HELP: Record<RuleChipView, string> = {
  new: 'not proven yet: fewer than 3 helpful sessions and no harmful one',
  proven: 'helpful in at least 3 sessions and more than twice as many as harmful',
  contested: 'harmful in some session, not yet harmful overall',
  harmful:
    'harmful in at least 2 more sessions than helpful: proposed for retiring, or for replacing by the correction that overruled it',
  unconfirmed:
    "the playbook line claims more than this machine counted (a clone's or teammate's file): only what was counted here decides its stage",
  stale: 'no run has tagged or changed it for a while',
  violated:
    'sessions did otherwise, failed, then passed with its own command (3 or more): a clearer wording is proposed',
  flagged: 'the trust screen holds it out of AGENTS.md and the other files until you accept it by name',
  pinned: 'kept by the team: Combee proposes neither retiring nor replacing it',
};
const SORTS: Array<[RuleSort, string]> = [
  ['net', 'Most helpful overall'],
  ['helpful', 'Most helpful tags'],
  ['harmful', 'Most harmful tags'],
  ['quiet', 'Longest without evidence'],
  ['playbook', 'Playbook order'],
];

const GROUPS: Array<[RuleGroup, string]> = [
  ['none', 'No grouping'],
  ['model', 'Model that wrote it'],
];

const modelOf = (rule: RuleView) => rule.model ?? 'unknown';
const stageOf = (rule: RuleView): Stage => STAGES.find((s) => rule.chips[0] === s) ?? 'new';

/** Who wrote the rule (and last reworded it), as its model mark claims. */
function authorNote(rule: RuleView): HTMLElement {
  const prompt = rule.promptVersion && rule.promptVersion !== 'unknown' ? ` (prompt ${rule.promptVersion})` : '';
  const changed = rule.changedBy ? `; last changed by ${rule.changedBy}` : '';
  const note = el('span', `by ${modelOf(rule)}`, 'rule-model');
  note.title = `Written by ${modelOf(rule)}${prompt}${changed}. Said by the rule's model mark in the playbook: anyone with the file can write it, so it decides nothing.`;
  return note;
}

/** Rules of each stage per model, for the rules shown. */
function modelTable(rows: readonly ModelStages[]): HTMLTableElement {
  const table = el('table', undefined, 'model-stages');
  table.append(el('caption', 'Rules shown, by the model that wrote them and their stage'));
  const head = el('tr');
  for (const label of ['Model', ...STAGES, 'Total']) {
    const th = el('th', label);
    th.scope = 'col';
    head.append(th);
  }
  table.append(el('thead'), el('tbody'));
  table.tHead?.append(head);
  for (const row of rows) {
    const tr = el('tr');
    const name = el('th', row.model);
    name.scope = 'row';
    tr.append(name, ...STAGES.map((s) => el('td', String(row.counts[s]))), el('td', String(row.total)));
    table.tBodies[0].append(tr);
  }
  return table;
}

function compare(sort: RuleSort): (a: RuleView, b: RuleView) => number {
  switch (sort) {
    case 'net':
      return (a, b) => b.helpful - b.harmful - (a.helpful - a.harmful) || b.helpful - a.helpful;
    case 'helpful':
      return (a, b) => b.helpful - a.helpful;
    case 'harmful':
      return (a, b) => b.harmful - a.harmful;
    case 'quiet':
      return (a, b) => b.runsWithoutEvidence - a.runsWithoutEvidence;
    case 'playbook':
      return () => 0;
  }
}

function matches(rule: RuleView, query: string): boolean {
  if (!query) return true;
  const q = query.toLowerCase();
  return [rule.id, rule.section, rule.content].some((t) => t.toLowerCase().includes(q));
}

/** Helpful (up) and harmful (down) counts after each run, as a tiny two-line chart. */
function sparkline(history: RuleView['history']): Element {
  const width = 120;
  const height = 28;
  const chart = svg('svg', { width, height, class: 'spark', role: 'img' });
  if (history.length === 0) {
    chart.setAttribute('aria-label', 'no trend yet');
    return chart;
  }
  const max = Math.max(1, ...history.map((h) => Math.max(h.helpful, h.harmful)));
  const points = (key: 'helpful' | 'harmful') =>
    [{ helpful: 0, harmful: 0 }, ...history]
      .map(
        (h, i, all) =>
          `${((i / Math.max(1, all.length - 1)) * (width - 4) + 2).toFixed(1)},${(height - 2 - (h[key] / max) * (height - 4)).toFixed(1)}`,
      )
      .join(' ');
  for (const key of ['helpful', 'harmful'] as const) chart.append(svg('polyline', { points: points(key), class: key }));
  const label = history.map((h) => `${h.at.slice(0, 10)}: +${h.helpful} −${h.harmful}`).join('\n');
  chart.setAttribute('aria-label', `trend over ${history.length} run(s)`);
  const title = svg('title');
  title.textContent = label;
  chart.append(title);
  return chart;
}

/** Two bars, helpful and harmful, scaled to the most-tagged rule shown. */
function bars(rule: RuleView, scale: number): HTMLElement {
  const box = el('div', undefined, 'bars');
  box.setAttribute('aria-label', `${rule.helpful} helpful, ${rule.harmful} harmful`);
  for (const [key, count] of [
    ['helpful', rule.helpful],
    ['harmful', rule.harmful],
  ] as const) {
    const row = el('div', undefined, `bar-row ${key}`);
    const bar = el('span', undefined, 'bar');
    bar.style.width = `${scale === 0 ? 0 : Math.round((count / scale) * 100)}%`;
    row.append(el('span', `${key === 'helpful' ? '+' : '−'}${count}`, 'bar-count'), bar);
    box.append(row);
  }
  return box;
}

function chip(kind: RuleChipView): HTMLElement {
  const c = el('span', kind, `chip chip-${kind}`);
  c.title = CHIP_HELP[kind];
  return c;
}

/** What a rule without tags waits for, and how long a quiet one has been quiet. */
function evidenceNote(rule: RuleView, message: RulesMessage): string | undefined {
  if (rule.helpful + rule.harmful === 0)
    return `No evidence yet: it is counted when a session had it in play — a file its agent loads held it (CLAUDE.md for Claude Code, AGENTS.md for Codex, …) or the session cites [${rule.id}] — and did what it says or otherwise: helpful when doing what it says worked, or a command it calls broken failed; harmful when that kept failing, the user corrected or overruled it, or doing otherwise worked or was what the user asked for.`;
  if (rule.chips.includes('stale'))
    return `No run has tagged or changed it in the last ${rule.runsWithoutEvidence} of ${message.runs} run(s) (stale after ${message.staleAfterRuns}).`;
  return undefined;
}

function ruleCard(rule: RuleView, message: RulesMessage, scale: number, host: RulesHost): HTMLElement {
  const card = el('li', undefined, `rule ${rule.chips.map((c) => `is-${c}`).join(' ')}`);
  card.dataset.ruleId = rule.id;
  const head = el('div', undefined, 'rule-head');
  const open = el('button', `[${rule.id}]`, 'link rule-id');
  open.title = 'Open the rule in the playbook';
  open.addEventListener('click', () => host.openRule(rule.id));
  head.append(open, el('span', rule.section, 'rule-section'));
  for (const c of rule.chips) head.append(chip(c));
  head.append(authorNote(rule));
  card.append(head, inlineMarkdown(rule.content, 'rule-content'));
  const stats = el('div', undefined, 'rule-stats');
  stats.append(bars(rule, scale), sparkline(rule.history));
  card.append(stats);
  if (rule.claim) card.append(el('p', `Counters ${rule.claim}.`, 'rule-note rule-claim'));
  const note = evidenceNote(rule, message);
  if (note) card.append(el('p', note, 'rule-note'));
  if (rule.flags.length) {
    const flags = el('ul', undefined, 'rule-flags');
    for (const f of rule.flags) flags.append(el('li', `${f.kind}: ${f.reason}`));
    card.append(flags);
  }
  const actions = el('div', undefined, 'rule-actions');
  const provenance = iconButton(
    'type-hierarchy',
    'Where it came from',
    'Follow the rule in the aggregation tree: the sessions and the run that made it',
  );
  provenance.setAttribute('aria-label', `Where it came from, rule ${rule.id}`);
  provenance.addEventListener('click', () => host.ruleInTree(rule.id));
  const retire = iconButton(
    'archive',
    'Retire…',
    'Propose removing it from the playbook and every file made from it (a diff to review)',
  );
  retire.setAttribute('aria-label', `Retire rule ${rule.id}…`);
  retire.addEventListener('click', () => host.retireRule(rule.id));
  const pinned = rule.chips.includes('pinned');
  const pin = iconButton(
    pinned ? 'pinned' : 'pin',
    pinned ? 'Unpin…' : 'Pin…',
    pinned
      ? 'Propose removing the pin: Combee may then propose retiring or replacing it (a diff to review)'
      : 'Propose keeping it: Combee will propose neither retiring nor replacing it (a diff to review)',
  );
  pin.setAttribute('aria-label', `${pinned ? 'Unpin' : 'Pin'} rule ${rule.id}…`);
  pin.addEventListener('click', () => host.pinRule(rule.id, !pinned));
  actions.append(provenance, pin, retire);
  card.append(actions);
  return card;
}

/** A labelled select of (value, label) options, `value` chosen. */
function selectOf(label: string, options: ReadonlyArray<readonly [string, string]>, value: string): HTMLSelectElement {
  const select = el('select');
  select.setAttribute('aria-label', label);
  for (const [optionValue, optionLabel] of options) {
    const option = el('option', optionLabel);
    option.value = optionValue;
    select.append(option);
  }
  select.value = value;
  return select;
}

/**
 * The helpfulness panel: every rule with its counts, trend and stage; searched, filtered by chip and sorted, and
 * grouped by the model that wrote it when asked.
 */
export function renderRules(message: RulesMessage, saved: RulesState, host: RulesHost): HTMLElement {
  let state: RulesState = { ...saved };
  const panel = el('div', undefined, 'rules-panel');
  panel.append(
    el(
      'p',
      `${message.rules.length} rule(s) in ${message.playbookPath ?? 'the playbook'}, ${message.runs} run(s) recorded. The counts are those this machine counted (each session once); what a playbook line claims beyond them is shown as its claim and decides nothing.`,
      'meta',
    ),
  );
  const toolbar = el('div', undefined, 'toolbar');
  const search = el('input');
  search.type = 'search';
  search.placeholder = 'Search rules';
  search.setAttribute('aria-label', 'Search rules');
  search.value = state.ruleQuery ?? '';
  const sort = selectOf('Sort rules', SORTS, state.ruleSort ?? 'net');
  const group = selectOf('Group rules by', GROUPS, state.ruleGroup ?? 'none');
  const filters = el('div', undefined, 'chip-filters');
  filters.setAttribute('role', 'group');
  filters.setAttribute('aria-label', 'Show rules that are');
  const toggles = new Map<RuleChipView, HTMLButtonElement>();
  for (const kind of CHIPS) {
    const count = message.rules.filter((r) => r.chips.includes(kind)).length;
    const toggle = el('button', `${kind} ${count}`, `chip chip-${kind} toggle`);
    toggle.title = CHIP_HELP[kind];
    toggle.setAttribute('aria-pressed', String(state.ruleChips?.includes(kind) ?? false));
    // nothing to show: off, unless a saved filter had it on
    toggle.disabled = count === 0 && !(state.ruleChips?.includes(kind) ?? false);
    toggle.addEventListener('click', () => {
      const chosen = new Set(state.ruleChips ?? []);
      if (chosen.has(kind)) chosen.delete(kind);
      else chosen.add(kind);
      update({ ruleChips: CHIPS.filter((c) => chosen.has(c)) });
    });
    toggles.set(kind, toggle);
    filters.append(toggle);
  }
  toolbar.append(search, sort, group, filters);
  const shown = el('p', undefined, 'meta');
  shown.setAttribute('aria-live', 'polite');
  const body = el('div', undefined, 'rules-body');
  panel.append(toolbar, shown, body);

  const scale = Math.max(0, ...message.rules.map((r) => Math.max(r.helpful, r.harmful)));
  const draw = () => {
    const chips = state.ruleChips ?? [];
    const rules = message.rules
      .filter(
        (r) => matches(r, state.ruleQuery ?? '') && (chips.length === 0 || chips.some((c) => r.chips.includes(c))),
      )
      .sort(compare(state.ruleSort ?? 'net'));
    for (const [kind, toggle] of toggles) toggle.setAttribute('aria-pressed', String(chips.includes(kind)));
    shown.textContent =
      rules.length === message.rules.length
        ? `Showing all ${rules.length} rule(s).`
        : `Showing ${rules.length} of ${message.rules.length} rule(s).`;
    const listOf = (some: RuleView[]) => {
      const list = el('ul', undefined, 'rule-list');
      list.append(...some.map((r) => ruleCard(r, message, scale, host)));
      return list;
    };
    if ((state.ruleGroup ?? 'none') === 'none') {
      body.replaceChildren(listOf(rules));
      return;
    }
    const rows = stagesByModel(rules.map((r) => ({ model: modelOf(r), stage: stageOf(r) })));
    body.replaceChildren(
      modelTable(rows),
      ...rows.map((row) => {
        const part = el('section', undefined, 'model-group');
        part.append(
          el('h3', `${row.model}: ${row.total} rule(s)`),
          listOf(rules.filter((r) => modelOf(r) === row.model)),
        );
        return part;
      }),
    );
  };
  const update = (next: RulesState) => {
    state = { ...state, ...next };
    host.saveRulesState(state);
    draw();
  };
  search.addEventListener('input', () => update({ ruleQuery: search.value }));
  sort.addEventListener('change', () => update({ ruleSort: sort.value as RuleSort }));
  group.addEventListener('change', () => update({ ruleGroup: group.value === 'model' ? 'model' : 'none' }));
  draw();
  return panel;
}
