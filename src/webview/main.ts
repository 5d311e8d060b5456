import { isStaleReply, type FromWebview, type ToWebview } from '../shared/protocol';
import { el } from './dom';
import { focusKey, keepTabIn, restoreFocus } from './focus';
import { renderRules, type RulesState } from './rules';
import { renderTree, type TreePanel, type TreeState } from './treePanel';

/** Each panel has its own webview and so its own saved state: the tree's or the helpfulness panel's. */
type PanelState = TreeState & RulesState;

declare function acquireVsCodeApi(): {
  postMessage(message: FromWebview): void;
  getState(): PanelState | undefined;
  setState(state: PanelState): void;
};

const vscode = acquireVsCodeApi();
const root = document.getElementById('root') as HTMLElement;
let state: PanelState = vscode.getState() ?? {};

/** The newest request of each kind: replies to older ones are dropped (a late answer never replaces a newer one). */
const newest = { runs: 0, nodeDetail: 0, searchResult: 0 };
let requests = 0;
let tree: TreePanel | undefined;

/**
 * A run in progress is sent again every second. Drawing it takes longer the bigger it grows, so an update waits until
 * the panel has spent no more than a fifth of its time drawing: a huge live run is drawn less often, never blocks.
 */
const LIVE_BUSY_SHARE = 0.2;
const live = { drawnAt: -Infinity, drawMs: 0, waiting: undefined as ReturnType<typeof setTimeout> | undefined };

function showRuns(message: Extract<ToWebview, { type: 'runs' }>): void {
  clearTimeout(live.waiting);
  live.waiting = undefined;
  const inProgress = message.selected?.status === 'in progress';
  const wait = inProgress ? live.drawnAt + live.drawMs / LIVE_BUSY_SHARE - performance.now() : 0;
  if (wait > 0) {
    live.waiting = setTimeout(() => showRuns(message), wait);
    return;
  }
  const started = performance.now();
  const focused = focusKey(root);
  tree = renderTree(message.runs, message.selected, state, host, message.focus, message.sessionFocus);
  root.replaceChildren(el('h1', 'Aggregation tree'), tree.element);
  restoreFocus(root, focused);
  if (inProgress) {
    live.drawnAt = performance.now();
    live.drawMs = live.drawnAt - started;
  }
}

const host = {
  selectRun(runId: string) {
    state = { runId, detailsWidth: state.detailsWidth };
    vscode.setState(state);
    newest.runs = ++requests;
    vscode.postMessage({ type: 'selectRun', runId, requestId: newest.runs });
  },
  saveState(next: TreeState) {
    state = next;
    vscode.setState(state);
  },
  requestDetail(runId: string, nodeId: string) {
    newest.nodeDetail = ++requests;
    vscode.postMessage({ type: 'nodeDetail', runId, nodeId, requestId: newest.nodeDetail });
  },
  openSession(traceId: string, steps: readonly number[]) {
    vscode.postMessage(
      steps.length === 0
        ? { type: 'openSession', traceId }
        : { type: 'openSession', traceId, step: steps[0], steps: [...steps] },
    );
  },
  search(runId: string, query: string) {
    newest.searchResult = ++requests;
    vscode.postMessage({ type: 'search', runId, query, requestId: newest.searchResult });
  },
};

const rulesHost = {
  openRule: (ruleId: string) => vscode.postMessage({ type: 'openRule', ruleId }),
  ruleInTree: (ruleId: string) => vscode.postMessage({ type: 'ruleInTree', ruleId }),
  retireRule: (ruleId: string) => vscode.postMessage({ type: 'retireRule', ruleId }),
  pinRule: (ruleId: string, pinned: boolean) => vscode.postMessage({ type: pinned ? 'pinRule' : 'unpinRule', ruleId }),
  saveRulesState(next: RulesState) {
    state = { ...state, ...next };
    vscode.setState(state);
  },
};

window.addEventListener('message', (event: MessageEvent<ToWebview>) => {
  const message = event.data;
  if (
    (message.type === 'runs' || message.type === 'nodeDetail' || message.type === 'searchResult') &&
    isStaleReply(message, newest[message.type])
  )
    return;
  switch (message.type) {
    case 'init':
      root.replaceChildren(el('p', message.panel === 'tree' ? 'Loading runs…' : 'Loading rules…', 'meta'));
      break;
    case 'runs':
      if (message.runs.length === 0) {
        root.replaceChildren(el('p', 'No learning runs yet. Run "Combee: Learn from Recent Sessions".', 'empty'));
        break;
      }
      showRuns(message);
      break;
    case 'nodeDetail':
      tree?.showDetail(message.nodeId, message.detail);
      break;
    case 'searchResult':
      tree?.showMatches(message.nodeIds);
      break;
    case 'rules': {
      const focused = focusKey(root);
      root.replaceChildren(
        el('h1', 'Rule helpfulness'),
        message.rules.length
          ? renderRules(message, state, rulesHost)
          : el(
              'p',
              'The playbook has no rules yet. Learn from your sessions ("Combee: Learn from Recent Sessions") and accept what you agree with.',
              'empty',
            ),
      );
      restoreFocus(root, focused);
      break;
    }
    case 'error':
      root.replaceChildren(el('p', message.message, 'error'));
      break;
  }
});

// VS Code marks a theme change on the body (its class and the colour variables in its style)
new MutationObserver(() => tree?.themeChanged()).observe(document.body, {
  attributes: true,
  attributeFilter: ['class', 'style'],
});

keepTabIn(root);

vscode.postMessage(state.runId ? { type: 'ready', runId: state.runId } : { type: 'ready' });
