import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { playbookRules } from '../../core/service/playbookRules';
import { describeClaim } from '../../core/learn/rules/confirmedCounters';
import { modelLabel } from '../../core/playbook/authorMark';
import { loadRunRecords } from '../../core/store/runs';
import type { RunRecord } from '../../core/learn/record/record';
import {
  isFromWebview,
  type PanelKind,
  type RuleFocus,
  type RuleView,
  type SessionFocus,
  type RunSummaryView,
  type RunView,
  type ToWebview,
} from '../../shared/protocol';
import { workspaceFolderPaths, type Services } from '../services';
import { readSettings } from '../settings';
import { openSession } from '../review/sessionDocument';
import { searchNodes } from './nodeSearch';
import { rulePath } from './rulePath';
import { sessionPath } from './sessionPath';
import { firstLine } from '../../core/util/text';
import { withReview, type RunReview } from './nodeDetail';
import { reviewItems } from '../../core/assets/review';
import { LIVE_RUN_ID, liveRunView, runMessageView, runSummaryView, runView } from './runView';
import type { LiveRunSnapshot } from '../../core/learn/record/liveRun';
import { readWorkspacePlaybook } from '../playbookFile';
import { COMMANDS } from '../commandIds';

const panels = new Map<PanelKind, vscode.WebviewPanel>();
/** Posts a message to the tree panel once its webview is ready (a panel just opened is not yet). */
let postToTree: ((message: ToWebview) => void) | undefined;
let pendingFocus: { runId: string; focus?: RuleFocus; sessionFocus?: SessionFocus } | undefined;

/**
 * Opens the tree on the newest run that made `ruleId`, with the path from its supporting sessions to the operation
 * lit; says so when no stored run made it (a rule written by hand, or one whose run was removed).
 */
export async function showRuleInTree(services: Services, ruleId: string): Promise<boolean> {
  for (const record of await allRuns(services)) {
    const path = rulePath(record, ruleId);
    if (!path) continue;
    const focus = { ruleId, ...path };
    pendingFocus = { runId: record.id, focus };
    showPanel(services, 'tree');
    if (postToTree) {
      pendingFocus = undefined;
      postToTree({ ...(await runsMessage(services, record.id)), focus });
    }
    return true;
  }
  void vscode.window.showInformationMessage(
    `Combee: no stored learning run made rule ${ruleId} (written by hand, or its run was removed).`,
  );
  return false;
}

/**
 * Opens the tree on the newest run that learned from `traceId`, its node selected and what the run built on it lit;
 * says so when no stored run holds it (not learned yet, or learned by a run that was removed).
 */
export async function showSessionInTree(services: Services, traceId: string): Promise<boolean> {
  for (const record of await allRuns(services)) {
    const path = sessionPath(record, traceId);
    if (!path) continue;
    // a session node's label is its session's title
    const label = record.nodes.find((n) => n.id === path.nodeId)?.label;
    const sessionFocus = { title: firstLine(label ?? traceId, 80), ...path };
    pendingFocus = { runId: record.id, sessionFocus };
    showPanel(services, 'tree');
    if (postToTree) {
      pendingFocus = undefined;
      postToTree({ ...(await runsMessage(services, record.id)), sessionFocus });
    }
    return true;
  }
  const title = (await services.store.loadTrace(traceId))?.title ?? traceId;
  void vscode.window.showInformationMessage(
    `Combee: no stored learning run learned from "${firstLine(title, 80)}" yet (Learn from Recent Sessions takes it in).`,
  );
  return false;
}

const PANEL_KINDS: PanelKind[] = ['tree', 'helpfulness'];

function webviewOptions(services: Services): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  const dist = vscode.Uri.joinPath(services.context.extensionUri, 'dist');
  const media = vscode.Uri.joinPath(services.context.extensionUri, 'media');
  return { enableScripts: true, localResourceRoots: [dist, media], retainContextWhenHidden: false };
}

/** Panels open when the window was reloaded come back, on the run and node they showed (the webview's saved state). */
export function registerPanelSerializers(services: Services): vscode.Disposable[] {
  return PANEL_KINDS.map((kind) =>
    vscode.window.registerWebviewPanelSerializer(`combee.${kind}`, {
      deserializeWebviewPanel: async (panel) => {
        panel.webview.options = webviewOptions(services);
        attachPanel(services, kind, panel);
      },
    }),
  );
}

/** Opens (or reveals) the aggregation-tree or helpfulness panel; data flows only through protocol messages. */
export function showPanel(services: Services, kind: PanelKind): vscode.WebviewPanel {
  const existing = panels.get(kind);
  if (existing) {
    existing.reveal();
    return existing;
  }
  const panel = vscode.window.createWebviewPanel(
    `combee.${kind}`,
    kind === 'tree' ? 'Combee: Aggregation Tree' : 'Combee: Rule Helpfulness',
    vscode.ViewColumn.Active,
    webviewOptions(services),
  );
  attachPanel(services, kind, panel);
  return panel;
}

function attachPanel(services: Services, kind: PanelKind, panel: vscode.WebviewPanel): void {
  const dist = vscode.Uri.joinPath(services.context.extensionUri, 'dist');
  const media = vscode.Uri.joinPath(services.context.extensionUri, 'media');
  panels.set(kind, panel);
  const post = (message: ToWebview) => void panel.webview.postMessage(message);
  // the run the user picked: kept when the extension pushes an update, so the view stays on it
  let selectedRun: string | undefined;
  const subscriptions = [
    panel.webview.onDidReceiveMessage(async (message: unknown) => {
      if (!isFromWebview(message)) return;
      try {
        if (message.type === 'ready') {
          const focus = kind === 'tree' ? pendingFocus : undefined;
          pendingFocus = undefined;
          selectedRun = focus?.runId ?? message.runId;
          post({ type: 'init', panel: kind });
          if (kind === 'tree') {
            postToTree = post;
            post({
              ...(await runsMessage(services, selectedRun)),
              focus: focus?.focus,
              sessionFocus: focus?.sessionFocus,
            });
          } else post(await rulesMessage(services));
        } else if (message.type === 'selectRun') {
          selectedRun = message.runId;
          post({ ...(await runsMessage(services, message.runId)), requestId: message.requestId });
        } else if (message.type === 'nodeDetail') {
          const run = await fullRun(services, message.runId);
          const node = run?.nodes.find((n) => n.id === message.nodeId);
          const detail =
            node?.detail?.kind === 'applied'
              ? withReview(node.detail, await runReview(services, message.runId))
              : node?.detail;
          post({ type: 'nodeDetail', requestId: message.requestId, nodeId: message.nodeId, detail });
        } else if (message.type === 'openSession') {
          // only a session the store holds, as a read-only transcript: nothing else can be named from the webview
          const steps = message.steps ?? (message.step === undefined ? [] : [message.step]);
          await openSession(services.store, message.traceId, steps, services.citedSteps);
        } else if (message.type === 'openRule') {
          await vscode.commands.executeCommand(COMMANDS.openRuleInPlaybook, message.ruleId);
        } else if (message.type === 'ruleInTree') {
          await vscode.commands.executeCommand(COMMANDS.showRuleInTree, message.ruleId);
        } else if (message.type === 'retireRule') {
          await vscode.commands.executeCommand(COMMANDS.retireRule, message.ruleId);
        } else if (message.type === 'pinRule' || message.type === 'unpinRule') {
          await vscode.commands.executeCommand(`combee.${message.type}`, message.ruleId);
        } else if (message.type === 'search') {
          const run = await fullRun(services, message.runId);
          post({
            type: 'searchResult',
            requestId: message.requestId,
            nodeIds: run ? searchNodes(run, message.query) : [],
          });
        }
      } catch (error) {
        post({ type: 'error', message: (error as Error).message });
      }
    }),
    services.onDidChange(async () =>
      post(kind === 'tree' ? await runsMessage(services, selectedRun) : await rulesMessage(services)),
    ),
    // the run in progress grows while it is shown; when it ends, the recorded run takes its place
    services.onDidChangeLiveRun(async () => {
      if (kind !== 'tree' || (selectedRun !== undefined && selectedRun !== LIVE_RUN_ID)) return;
      if (!services.liveRun) {
        selectedRun = undefined;
        post(await runsMessage(services));
      } else post(await liveRunsMessage(services));
    }),
  ];
  panel.onDidDispose(() => {
    panels.delete(kind);
    if (kind === 'tree') postToTree = undefined;
    subscriptions.forEach((s) => s.dispose());
  });
  const nonce = randomBytes(16).toString('base64');
  const script = panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js'));
  const style = panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'webview.css'));
  const icons = panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'codicons', 'codicon.css'));
  const source = panel.webview.cspSource;
  panel.webview.html = `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${source}; font-src ${source}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0"><link rel="stylesheet" href="${icons}"><link rel="stylesheet" href="${style}"></head>
<body><div id="root"></div><script nonce="${nonce}" src="${script}"></script></body></html>`;
}

async function allRuns(services: Services): Promise<RunRecord[]> {
  return (await Promise.all(workspaceFolderPaths().map((ws) => loadRunRecords(services.state, ws))))
    .flat()
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

// The run whose nodes the webview asks about, kept while it is the one shown (its contents are not sent with it).
let cachedRun: { id: string; view: RunView } | undefined;

async function fullRun(services: Services, runId: string): Promise<RunView | undefined> {
  if (cachedRun?.id === runId) return cachedRun.view;
  const record = (await allRuns(services)).find((r) => r.id === runId);
  if (!record) return undefined;
  cachedRun = { id: runId, view: runView(record, (await runReview(services, runId)).flaggedRules) };
  return cachedRun.view;
}

/**
 * How the review of the run's proposal stands now, rule by rule, and which of its rules the trust screen holds back
 * (empty when the run proposed nothing).
 */
async function runReview(services: Services, runId: string): Promise<RunReview> {
  for (const ws of workspaceFolderPaths()) {
    const proposal = await services.proposals.load(ws, runId);
    if (proposal)
      return {
        states: new Map(reviewItems(proposal).rules.map((r) => [r.id, r.state])),
        flaggedRules: new Map(
          proposal.rules.filter((r) => r.flags.length > 0).map((r) => [r.id, r.flags.map((f) => f.kind)]),
        ),
      };
  }
  return { states: new Map(), flaggedRules: new Map() };
}

async function runsMessage(services: Services, selectedId?: string): Promise<Extract<ToWebview, { type: 'runs' }>> {
  const records = await allRuns(services);
  const runs = records.map(runSummaryView);
  recordedSummaries = runs;
  // a run in progress is listed first, and shown while nothing else is picked
  const live = liveRunOfThisWindow(services);
  const liveView = live && liveRunView(live);
  if (liveView && (selectedId === undefined || selectedId === LIVE_RUN_ID))
    return { type: 'runs', runs: [liveView, ...runs], selected: runMessageView(liveView) };
  const chosen = records.find((r) => r.id === selectedId) ?? records[0];
  const view = chosen && runView(chosen, (await runReview(services, chosen.id)).flaggedRules);
  if (chosen && view) cachedRun = { id: chosen.id, view };
  return { type: 'runs', runs: liveView ? [liveView, ...runs] : runs, selected: view && runMessageView(view) };
}

/** The recorded runs as the picker last listed them: a live update (every second) does not read every record again. */
let recordedSummaries: RunSummaryView[] | undefined;

/** The run in progress as it has grown, with the recorded runs listed after it. */
async function liveRunsMessage(services: Services): Promise<Extract<ToWebview, { type: 'runs' }>> {
  const live = liveRunOfThisWindow(services);
  if (!live || !recordedSummaries) return runsMessage(services, live ? LIVE_RUN_ID : undefined);
  const view = liveRunView(live);
  return { type: 'runs', runs: [view, ...recordedSummaries], selected: runMessageView(view) };
}

/** The run in progress, when it learns for one of this window's folders. */
function liveRunOfThisWindow(services: Services): LiveRunSnapshot | undefined {
  const live = services.liveRun;
  return live && workspaceFolderPaths().includes(live.workspace) ? live : undefined;
}

async function rulesMessage(services: Services): Promise<ToWebview> {
  const { staleAfterRuns } = readSettings();
  const rules: RuleView[] = [];
  let runs = 0;
  let playbookPath: string | undefined;
  for (const ws of workspaceFolderPaths()) {
    const playbook = await readWorkspacePlaybook(ws);
    if (!playbook) continue;
    playbookPath ??= readSettings().playbookPath;
    const found = await playbookRules(services.state, ws, playbook.text, staleAfterRuns);
    runs += found.runs;
    for (const r of found.rules)
      rules.push({
        id: r.id,
        section: r.section,
        content: r.content,
        helpful: r.helpful,
        harmful: r.harmful,
        ...(describeClaim(r.standing.counters) ? { claim: describeClaim(r.standing.counters) } : {}),
        history: r.standing.history,
        chips: r.standing.chips,
        flags: r.flags,
        runsWithoutEvidence: r.standing.runsWithoutEvidence,
        model: modelLabel(r.authorship.written),
        promptVersion: r.authorship.written.promptVersion,
        ...(r.authorship.changed ? { changedBy: modelLabel(r.authorship.changed) } : {}),
      });
  }
  return { type: 'rules', rules, runs, staleAfterRuns, playbookPath };
}
