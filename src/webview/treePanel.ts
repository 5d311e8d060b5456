import type { NodeDetailView, RuleFocus, RunSummaryView, RunView, SessionFocus } from '../shared/protocol';
import { renderDetails } from './details';
import { el, iconButton } from './dom';
import { GraphView, ZOOM_STEP } from './graphView';
import { splitter } from './splitter';
import { BatchLayoutCache, layoutRun, loadLayout } from '../core/learn/record/layout';

/** The run in progress grows a batch at a time: its earlier batches' layouts are kept from update to update. */
const liveLayouts = new BatchLayoutCache();

/** What the panel keeps across reloads (getState / setState). */
export interface TreeState {
  runId?: string;
  nodeId?: string;
  view?: { scale: number; tx: number; ty: number };
  /** The details pane's width in CSS pixels, once the user set it. */
  detailsWidth?: number;
}

export interface TreeHost {
  selectRun(runId: string): void;
  saveState(state: TreeState): void;
  /** Asks the extension for one node's content; the reply goes to `TreePanel.showDetail`. */
  requestDetail(runId: string, nodeId: string): void;
  /** Asks the extension which nodes hold a text; the reply goes to `TreePanel.showMatches`. */
  search(runId: string, query: string): void;
  openSession(traceId: string, steps: readonly number[]): void;
}

export interface TreePanel {
  element: HTMLElement;
  showDetail(nodeId: string, detail: NodeDetailView | undefined): void;
  showMatches(nodeIds: string[]): void;
  /** The theme changed: what was painted with its colours is painted again. */
  themeChanged(): void;
}

function runLabel(run: RunSummaryView): string {
  const cost = run.costUsd > 0 ? ` · $${run.costUsd.toFixed(run.costUsd < 1 ? 4 : 2)}` : '';
  return `${run.startedAt.replace('T', ' ').slice(0, 19)} · ${run.status} · ${run.provider} ${run.model} · ${run.traces} session(s) · ${run.calls} call(s)${cost}`;
}

/** The tree panel: run picker, search, zoom buttons, the graph and the details of the selected node. */
export function renderTree(
  runs: RunSummaryView[],
  run: RunView | undefined,
  state: TreeState,
  host: TreeHost,
  focus?: RuleFocus,
  sessionFocus?: SessionFocus,
): TreePanel {
  // what is selected and lit when the panel opens on a followed rule or session
  const followed = focus
    ? { nodeId: focus.applyNodeId, nodeIds: focus.nodeIds }
    : sessionFocus && { nodeId: sessionFocus.nodeId, nodeIds: sessionFocus.nodeIds };
  const root = el('div', undefined, 'tree-panel');
  const toolbar = el('div', undefined, 'toolbar');
  const pickerLabel = el('label', 'Run ');
  const picker = el('select');
  picker.id = 'run-picker';
  pickerLabel.htmlFor = picker.id;
  for (const summary of runs) {
    const option = el('option', runLabel(summary));
    option.value = summary.id;
    option.selected = summary.id === run?.id;
    picker.append(option);
  }
  picker.addEventListener('change', () => host.selectRun(picker.value));
  pickerLabel.append(picker);
  toolbar.append(pickerLabel);
  root.append(toolbar);
  if (!run) {
    root.append(el('p', 'Pick a run.', 'empty'));
    return { element: root, showDetail() {}, showMatches() {}, themeChanged() {} };
  }
  root.append(
    el(
      'p',
      `${run.strategy} · seed ${run.seed} · p=${run.duplication} · batch ${run.batchSize} · ${run.traces} session(s), ${run.calls} call(s), ${run.applied} change(s) applied by the run`,
      'meta',
    ),
  );
  if (run.drops) root.append(el('p', run.drops, 'meta run-drops'));
  root.append(legend());
  // user timings, read by the render benchmark (bench/webview-render.mjs)
  const started = performance.now();
  // laid out by the learner when the run was recorded; a run recorded before that is laid out here
  const live = run.status === 'in progress';
  const layout =
    (run.layout && loadLayout(run.layout, run.nodes)) ?? layoutRun(run.nodes, live ? liveLayouts : undefined);
  performance.measure('combee:layout', { start: started });
  const titles = new Map(run.nodes.flatMap((n) => (n.traceId ? [[n.traceId, n.label] as const] : [])));
  const details = el('aside', undefined, 'details');
  details.setAttribute('aria-label', 'Details of the selected node');
  details.append(el('p', 'Select a node to see what it holds.', 'empty'));
  let current: TreeState = {
    runId: run.id,
    nodeId: state.runId === run.id ? state.nodeId : undefined,
    detailsWidth: state.detailsWidth,
  };
  if (state.detailsWidth) details.style.width = `${state.detailsWidth}px`;
  const save = () => host.saveState({ ...current, view: graph.view });
  const graph = new GraphView(
    layout,
    {
      onSelect: (node) => {
        current = { ...current, nodeId: node?.id };
        // a run still going has no record yet: its nodes' contents come with it
        details.replaceChildren(
          node
            ? renderDetails(node, live ? null : undefined, titles, host.openSession)
            : el('p', 'Select a node to see what it holds.', 'empty'),
        );
        if (live && node)
          details.append(el('p', 'The run is still going: what a node holds shows once it is recorded.', 'empty'));
        else if (node) host.requestDetail(run.id, node.id);
        save();
      },
      onOpen: () => details.focus(),
      onView: () => save(),
    },
    new Map(run.batches.map((b) => [b.index, `Batch ${b.index + 1} — ${b.sessions} session(s), ${b.description}`])),
  );
  performance.measure('combee:layout+draw', { start: started });
  details.tabIndex = -1;
  const search = el('input');
  search.type = 'search';
  search.placeholder = 'Search nodes (text, session, rule id)';
  search.setAttribute('aria-label', 'Search nodes');
  const found = el('span', '', 'meta');
  let matches: string[] = [];
  let at = -1;
  search.addEventListener('input', () => {
    const query = search.value.trim();
    matches = [];
    at = -1;
    graph.highlight(new Set());
    found.textContent = '';
    if (query) host.search(run.id, query.slice(0, 200));
  });
  search.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || matches.length === 0) return;
    at = (at + 1) % matches.length;
    graph.select(matches[at], true);
    found.textContent = `${at + 1} of ${matches.length}`;
  });
  const button = (icon: string, title: string, action: () => void) => {
    const b = iconButton(icon, '', title);
    b.addEventListener('click', () => {
      action();
      save();
    });
    return b;
  };
  toolbar.append(
    search,
    found,
    button('screen-full', 'Fit the tree (never below a legible size)', () => graph.fit()),
    button('zoom-in', 'Zoom in', () => graph.zoomBy(ZOOM_STEP)),
    button('zoom-out', 'Zoom out', () => graph.zoomBy(1 / ZOOM_STEP)),
  );
  if (focus) {
    const sessions = run.nodes.filter((n) => n.kind === 'trace' && focus.nodeIds.includes(n.id)).length;
    // on a line of its own: the toolbar stays one line
    toolbar.after(
      el('p', `Following rule ${focus.ruleId}: from ${sessions} session(s) to the change that made it`, 'following'),
    );
  } else if (sessionFocus) {
    toolbar.after(
      el(
        'p',
        `Following session ${sessionFocus.title}: what this run made of it, up to the changes applied`,
        'following',
      ),
    );
  }
  const body = el('div', undefined, 'tree-body');
  body.append(
    graph.element,
    splitter(details, (width) => {
      current = { ...current, detailsWidth: width };
      save();
    }),
    details,
  );
  root.append(body);
  // laid out once the panel is in the page (fit needs its size)
  requestAnimationFrame(() => {
    if (state.runId === run.id && state.view && !followed) graph.restoreView(state.view);
    else graph.home();
    if (followed) graph.select(followed.nodeId, true, new Set(followed.nodeIds));
    else if (current.nodeId) graph.select(current.nodeId, !state.view);
  });
  return {
    element: root,
    showDetail(nodeId, detail) {
      const node = run.nodes.find((n) => n.id === nodeId);
      if (!node || graph.selectedId !== nodeId) return;
      details.replaceChildren(renderDetails(node, detail ?? null, titles, host.openSession));
      if (focus && nodeId === focus.applyNodeId) showFollowed(details, focus.ruleId);
    },
    showMatches(nodeIds) {
      matches = graph.highlight(new Set(nodeIds));
      at = -1;
      found.textContent = search.value.trim() ? `${matches.length} match(es)` : '';
    },
    themeChanged: () => graph.themeChanged(),
  };
}

/** What a node's width, bar and outline say. */
function legend(): HTMLElement {
  const box = el('p', 'Width: tokens · bar: latency · outline:', 'legend');
  const outlines: Array<[string, string]> = [
    ['applied', 'applied'],
    ['failed', 'failed'],
    ['skipped', 'skipped'],
    ['retried', 'sent again'],
    ['hedged', 'hedged'],
    ['dropped', 'dropped items'],
    ['redo', 'sends dropped items again'],
    ['flagged', 'holds flagged rules'],
  ];
  for (const [kind, text] of outlines) {
    box.append(el('span', undefined, `swatch swatch-${kind}`), document.createTextNode(text));
  }
  return box;
}

/** The followed rule's change in the apply node's details: marked, its supporting sessions listed, in view. */
function showFollowed(details: HTMLElement, ruleId: string): void {
  const item = [...details.querySelectorAll<HTMLElement>('li.op')].find((li) => li.dataset.target === ruleId);
  if (!item) return;
  item.classList.add('followed');
  item.querySelector('details')?.setAttribute('open', '');
  item.scrollIntoView({ block: 'nearest' });
}
