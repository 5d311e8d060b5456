import type { RuleView } from '../shared/protocol';
import { el, SVG_NS } from './dom';

/** Helpful (up) and harmful (down) counts after each run, as a tiny two-line chart. */
function sparkline(history: RuleView['history']): Element {
  const width = 120;
  const height = 28;
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('class', 'spark');
  if (history.length === 0) {
    const text = document.createElementNS(SVG_NS, 'text');
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
    const line = document.createElementNS(SVG_NS, 'polyline');
    line.setAttribute('points', points(key));
    line.setAttribute('class', key);
    svg.append(line);
  }
  const title = document.createElementNS(SVG_NS, 'title');
  title.textContent = history.map((h) => `${h.at.slice(0, 10)}: +${h.helpful} −${h.harmful}`).join('\n');
  svg.append(title);
  return svg;
}

export function renderRules(rules: RuleView[]): HTMLElement {
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
