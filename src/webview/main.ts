import { isStaleReply, type FromWebview, type ToWebview } from '../shared/protocol';
import { el } from './dom';
import { renderRules } from './rules';
import { renderTree, type TreeState } from './treePanel';

declare function acquireVsCodeApi(): {
  postMessage(message: FromWebview): void;
  getState(): TreeState | undefined;
  setState(state: TreeState): void;
};

const vscode = acquireVsCodeApi();
const root = document.getElementById('root') as HTMLElement;
let state: TreeState = vscode.getState() ?? {};

/** The newest run selection asked for: replies to older ones are dropped. */
let newestRequest = 0;

const host = {
  selectRun(runId: string) {
    state = { runId };
    vscode.setState(state);
    vscode.postMessage({ type: 'selectRun', runId, requestId: ++newestRequest });
  },
  saveState(next: TreeState) {
    state = next;
    vscode.setState(state);
  },
};

window.addEventListener('message', (event: MessageEvent<ToWebview>) => {
  const message = event.data;
  if (isStaleReply(message, newestRequest)) return;
  switch (message.type) {
    case 'init':
      root.replaceChildren(el('p', message.panel === 'tree' ? 'Loading runs…' : 'Loading rules…', 'meta'));
      break;
    case 'runs':
      if (message.runs.length === 0) {
        root.replaceChildren(el('p', 'No learning runs yet. Run "Combee: Learn from Recent Sessions".', 'empty'));
        break;
      }
      root.replaceChildren(el('h1', 'Aggregation tree'), renderTree(message.runs, message.selected, state, host));
      break;
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

vscode.postMessage(state.runId ? { type: 'ready', runId: state.runId } : { type: 'ready' });
