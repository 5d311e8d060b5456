import {
  isStaleReply,
  type FromWebview,
  type RuleView,
  type RunNodeView,
  type RunView,
  type ToWebview,
} from '../shared/protocol';

declare function acquireVsCodeApi(): { postMessage(message: FromWebview): void };

const vscode = acquireVsCodeApi();
const root = document.getElementById('root') as HTMLElement;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string,
  className?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

const KIND_ORDER: RunNodeView['kind'][] = ['trace', 'reflection', 'group', 'single', 'local', 'global', 'apply'];
const KIND_TITLES: Record<RunNodeView['kind'], string> = {
  trace: 'Sessions',
  reflection: 'Reflections',
  group: 'Shuffled groups',
  single: 'Aggregation',
  local: 'Local deltas',
  global: 'Global delta',
  apply: 'Applied',
};

function renderRun(run: RunView): HTMLElement {
  const section = el('section', undefined, 'run');
  section.append(el('h2', `Run ${run.startedAt.replace('T', ' ').slice(0, 19)} — ${run.status}`));
  section.append(
    el(
      'p',
      `${run.provider} · ${run.model} · ${run.strategy} · seed ${run.seed} · p=${run.duplication} · batch ${run.batchSize} · ${run.traces} session(s), ${run.calls} call(s), ${run.applied} change(s)`,
      'meta',
    ),
  );
  const batches = [...new Set(run.nodes.map((n) => n.batch))].sort((a, b) => a - b);
  for (const batch of batches) {
    const columns = el('div', undefined, 'columns');
    for (const kind of KIND_ORDER) {
      const nodes = run.nodes.filter((n) => n.batch === batch && n.kind === kind);
      if (nodes.length === 0) continue;
      const column = el('div', undefined, 'column');
      column.append(el('h3', KIND_TITLES[kind]));
      for (const node of nodes) {
        const card = el('div', undefined, `node ${node.status}`);
        card.append(el('div', node.label, 'label'));
        const facts = [
          node.latencyMs !== undefined ? `${Math.round(node.latencyMs)} ms` : '',
          node.tokens ? `${node.tokens} tok` : '',
          node.parents.length ? `← ${node.parents.length}` : '',
        ]
          .filter(Boolean)
          .join(' · ');
        if (facts) card.append(el('div', facts, 'facts'));
        card.title = node.id;
        column.append(card);
      }
      columns.append(column);
    }
    const described = run.batches.find((b) => b.index === batch);
    section.append(
      el('h3', `Batch ${batch + 1}${described ? ` — ${described.sessions} session(s), ${described.description}` : ''}`),
      columns,
    );
  }
  return section;
}

const SVG = 'http://www.w3.org/2000/svg';

/** Helpful (up) and harmful (down) counts after each run, as a tiny two-line chart. */
function sparkline(history: RuleView['history']): Element {
  const width = 120;
  const height = 28;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('class', 'spark');
  if (history.length === 0) {
    const text = document.createElementNS(SVG, 'text');
    text.setAttribute('x', '0');
    text.setAttribute('y', '18');
    text.textContent = 'not tagged yet';
    svg.append(text);
    return svg;
  }
  const max = Math.max(1, ...history.map((h) => Math.max(h.helpful, h.harmful)));
  const points = (key: 'helpful' | 'harmful') =>
    [{ helpful: 0, harmful: 0 }, ...history]
      .map(
        (h, i, all) =>
          `${((i / Math.max(1, all.length - 1)) * (width - 4) + 2).toFixed(1)},${(height - 2 - (h[key] / max) * (height - 4)).toFixed(1)}`,
      )
      .join(' ');
  for (const key of ['helpful', 'harmful'] as const) {
    const line = document.createElementNS(SVG, 'polyline');
    line.setAttribute('points', points(key));
    line.setAttribute('class', key);
    svg.append(line);
  }
  const title = document.createElementNS(SVG, 'title');
  title.textContent = history.map((h) => `${h.at.slice(0, 10)}: +${h.helpful} −${h.harmful}`).join('\n');
  svg.append(title);
  return svg;
}

function renderRules(rules: RuleView[]): HTMLElement {
  const table = el('table');
  const head = el('tr');
  for (const title of ['Rule', 'Section', 'Helpful', 'Harmful', 'Over time', 'Content']) head.append(el('th', title));
  table.append(head);
  for (const rule of [...rules].sort((a, b) => b.helpful - b.harmful - (a.helpful - a.harmful))) {
    const row = el('tr');
    const chart = el('td');
    chart.append(sparkline(rule.history));
    row.append(
      el('td', rule.id),
      el('td', rule.section),
      el('td', String(rule.helpful)),
      el('td', String(rule.harmful)),
      chart,
      el('td', rule.content),
    );
    table.append(row);
  }
  return table;
}

/** The newest run selection asked for: replies to older ones are dropped. */
let newestRequest = 0;

window.addEventListener('message', (event: MessageEvent<ToWebview>) => {
  const message = event.data;
  if (isStaleReply(message, newestRequest)) return;
  switch (message.type) {
    case 'init':
      root.replaceChildren(el('p', message.panel === 'tree' ? 'Loading runs…' : 'Loading rules…', 'meta'));
      break;
    case 'runs': {
      if (message.runs.length === 0) {
        root.replaceChildren(el('p', 'No learning runs yet. Run "Combee: Learn from Recent Sessions".', 'empty'));
        break;
      }
      const picker = el('select');
      for (const run of message.runs) {
        const option = el(
          'option',
          `${run.startedAt.replace('T', ' ').slice(0, 19)} · ${run.traces} session(s) · ${run.status}`,
        );
        option.value = run.id;
        option.selected = run.id === message.selected?.id;
        picker.append(option);
      }
      picker.addEventListener('change', () =>
        vscode.postMessage({ type: 'selectRun', runId: picker.value, requestId: ++newestRequest }),
      );
      root.replaceChildren(
        el('h1', 'Aggregation tree'),
        picker,
        ...(message.selected ? [renderRun(message.selected)] : []),
      );
      break;
    }
    case 'rules':
      root.replaceChildren(
        el('h1', 'Rule helpfulness'),
        message.rules.length ? renderRules(message.rules) : el('p', 'The playbook has no rules yet.', 'empty'),
      );
      break;
    case 'error':
      root.replaceChildren(el('p', message.message, 'error'));
      break;
  }
});

vscode.postMessage({ type: 'ready' });
