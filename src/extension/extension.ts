import * as vscode from 'vscode';
import type { Proposal } from '../core/assets/proposal';
import { createWorkspaceMatcher } from '../core/trace/workspaceMatch';
import { startBackground } from './background';
import { forgetLearningCommand, forgetSessionCommand } from './commands/forget';
import { learnFromRecentSessions, runLearnAction } from './commands/learn';
import type { LearnAction, LearnNotice } from '../core/service/learnNotices';
import { backtestRules } from './commands/backtest';
import { calibrateCapacityCommand } from './commands/calibrate';
import { importSessionsCommand, openPlaybookCommand, setApiKeyCommand } from './commands/misc';
import { importTeamBundlesCommand } from './commands/team';
import {
  acceptFile,
  acceptProposal,
  acceptEdited,
  acceptRule,
  discardEdit,
  editProposal,
  openProposalFile,
  rejectProposal,
  rejectRule,
  rejectFile,
  reviewProposals,
  showRuleEvidence,
  undoLastDecision,
} from './commands/proposals';
import { COMMANDS, type CommandId } from './commandIds';
import { chooseProvider } from './llm/providerChoice';
import { redactingLog } from './redactingLog';
import { ConflictComments, type ConflictThreadView } from './review/conflictComments';
import { EDIT_SCHEME, EditDraftLens, EditDrafts } from './review/editDrafts';
import { EVIDENCE_SCHEME, EvidenceContentProvider } from './review/evidenceDocument';
import { BACKTEST_SCHEME, BacktestContentProvider } from './review/backtestDocument';
import { backtestNames } from './review/backtestNames';
import { CitedSteps } from './review/citedSteps';
import { parseProposalUri, PROPOSAL_SCHEME, ProposalContentProvider } from './review/proposalDocuments';
import { Services, workspaceFolderPaths } from './services';
import { readSettings, type SettingProblem, type Settings } from './settings';
import { createStatusBar } from './statusBar';
import { ProposalsView } from './views/proposalsView';
import { shownPickLabels } from './commands/pickPending';
import { RulesView } from './views/rulesView';
import { revealSessionSource } from './views/sessionSource';
import { sessionIdOf, SessionsView } from './views/sessionsView';
import { snapshotTree, type TreeSnapshot } from './views/treeSnapshot';
import { openSession, SESSION_SCHEME, SessionContentProvider } from './review/sessionDocument';
import { registerPanelSerializers, showPanel, showRuleInTree, showSessionInTree } from './webview/panel';
import { openRuleInPlaybook, pinRule, retireRule } from './commands/rules';
import { registerRuleLens } from './ruleLens';
import { allowedInThisWorkspace } from './trust';
import { VIEWS } from './viewIds';
import { IgnoredSettingsWatch, shownNotices } from './ignoredSettings';

let services: Services | undefined;

/** Cheap by design: registrations only; the store, pool and imports start on first use. */
/** What activate() returns: used by the extension tests, and a small surface for other extensions. */
export interface CombeeApi {
  /** Which provider a run would use now (and why); never prompts for consent. */
  describeProvider(): Promise<{ provider: string; model: string; reason: string }>;
  /** Pending (or partly accepted) proposals of the open workspace folders, newest first. */
  pendingProposals(): Promise<Proposal[]>;
  loadProposal(id: string): Promise<Proposal | undefined>;
  /** Ids of the stored sessions recorded in the open workspace folders. */
  sessionIds(): Promise<string[]>;
  /** Steps of a stored session (undefined when unknown). */
  sessionSteps(id: string): Promise<number | undefined>;
  /** The settings a run would use now, after workspace values that may not count were set aside, and what was refused. */
  effectiveSettings(): { settings: Settings; problems: SettingProblem[]; trusted: boolean };
  /**
   * A view's nodes as their tree items show them (label, description, icon, contextValue), three levels down;
   * `resolved`: with the tooltips the view fills in when one is first shown.
   */
  viewItems(view: 'sessions' | 'proposals', options?: { resolved?: boolean }): Promise<TreeSnapshot[]>;
  /** The status bar item as shown once its pending updates ran. */
  statusBar(): Promise<{ text: string; visible: boolean }>;
  /** What the last Learn notice with actions said and offered; `action` runs one of them as its button would. */
  lastLearnNotice(): LearnNotice | undefined;
  runLearnAction(action: LearnAction): Promise<unknown>;
  /** The Sessions view's message (empty, VS Code shows the view's welcome only while it has none). */
  sessionsViewMessage(): string | undefined;
  /** The labels of the decision quick pick on screen (Accept/Reject Rule or File from the palette), if one is. */
  quickPickLabels(): string[] | undefined;
  /** Each time the run in progress grows (its node count) or ends (undefined): what the tree panel redraws on. */
  onDidChangeLiveRun(listener: (nodes: number | undefined) => void): vscode.Disposable;
  /** The notices shown in this session that a repository's setting was ignored. */
  ignoredSettingNotices(): string[];
  /** Looks at the repository's settings now (after the checks already started): the settings notified now. */
  checkIgnoredSettings(): Promise<string[]>;
  /** The review comments on the team's lines that pending proposals' rules contradict, once brought up to date. */
  conflictThreads(): Promise<ConflictThreadView[]>;
  /** The lines (0-based, inclusive) highlighted as cited steps in the transcript of this URI. */
  citedLines(uri: vscode.Uri): ReadonlyArray<{ start: number; end: number }>;
}

export function activate(context: vscode.ExtensionContext): CombeeApi {
  const log = redactingLog(vscode.window.createOutputChannel('Combee', { log: true }));
  services = new Services(context, log);
  const s = services;
  const conflictComments = new ConflictComments();
  // one refresh at a time, in order: the last one shows the proposals as they are now
  let conflictsShown = Promise.resolve();
  const refreshConflicts = () =>
    (conflictsShown = conflictsShown.then(async () => conflictComments.update(await pendingProposals())));
  const sessionsView = new SessionsView(s);
  const sessionsTree = vscode.window.createTreeView(VIEWS.sessions, { treeDataProvider: sessionsView });
  sessionsView.attach(sessionsTree);
  const rule = (a: unknown) => (typeof a === 'string' ? a : ruleIdOf(a));
  // one handler per declared command: the table's type makes a missing or unknown id a compile error
  const handlers: Record<CommandId, (...args: unknown[]) => unknown> = {
    [COMMANDS.learn]: () => learnFromRecentSessions(s),
    [COMMANDS.reviewProposals]: () => reviewProposals(s),
    [COMMANDS.backtest]: () => backtestRules(s),
    [COMMANDS.calibrateCapacity]: (confirmed) => calibrateCapacityCommand(s, confirmed),
    [COMMANDS.acceptProposal]: (id, includeFlagged, confirmed) =>
      acceptProposal(s, isNode(id) ? id.proposalId : id, includeFlagged, confirmed),
    [COMMANDS.undoDecision]: () => undoLastDecision(s),
    [COMMANDS.rejectProposal]: (id, confirmed) => rejectProposal(s, isNode(id) ? id.proposalId : id, confirmed),
    // From the Proposals view the argument is the tree node; from tests and the palette, plain ids.
    [COMMANDS.acceptFile]: (a, b) => (isNode(a) ? acceptFile(s, a.proposalId, a.path) : acceptFile(s, a, b)),
    [COMMANDS.acceptRule]: (a, b, c) => (isNode(a) ? acceptRule(s, a.proposalId, a.ruleId) : acceptRule(s, a, b, c)),
    [COMMANDS.showRuleEvidence]: (a, b) =>
      isNode(a) ? showRuleEvidence(s, a.proposalId, a.ruleId) : showRuleEvidence(s, a, b),
    [COMMANDS.rejectRule]: (a, b) => (isNode(a) ? rejectRule(s, a.proposalId, a.ruleId) : rejectRule(s, a, b)),
    [COMMANDS.rejectFile]: (a, b) => (isNode(a) ? rejectFile(s, a.proposalId, a.path) : rejectFile(s, a, b)),
    [COMMANDS.editProposal]: (a, b) => (isNode(a) ? editProposal(s, a.proposalId, a.path) : editProposal(s, a, b)),
    [COMMANDS.acceptEdited]: (uri) => acceptEdited(s, uri),
    [COMMANDS.discardEdit]: (uri) => discardEdit(s, uri),
    [COMMANDS.applyConflictSuggestion]: (thread) =>
      allowedInThisWorkspace('apply a suggested change') && conflictComments.applySuggestion(thread),
    [COMMANDS.openProposalFile]: (id, path) => openProposalFile(s, id, path),
    [COMMANDS.showTree]: () => void showPanel(s, 'tree'),
    [COMMANDS.showHelpfulness]: () => void showPanel(s, 'helpfulness'),
    // from the Sessions view the argument is the tree node; from the tree panel and tests, a session id
    // the steps: one step or a list of them (the cursor goes to the first, each is highlighted)
    [COMMANDS.openSession]: (a, steps) => {
      const traceId = typeof a === 'string' ? a : sessionIdOf(a);
      const cited = (Array.isArray(steps) ? steps : [steps]).filter(
        (n): n is number => typeof n === 'number' && Number.isInteger(n),
      );
      return traceId ? openSession(s.store, traceId, cited, s.citedSteps) : false;
    },
    [COMMANDS.revealSessionSource]: (a) => {
      const traceId = typeof a === 'string' ? a : sessionIdOf(a);
      return traceId ? revealSessionSource(s.store, traceId) : undefined;
    },
    [COMMANDS.showSessionInTree]: (a) => {
      const traceId = typeof a === 'string' ? a : sessionIdOf(a);
      return traceId ? showSessionInTree(s, traceId) : false;
    },
    [COMMANDS.forgetSession]: (a, confirmed) => {
      const traceId = typeof a === 'string' ? a : sessionIdOf(a);
      return traceId ? forgetSessionCommand(s, traceId, confirmed) : false;
    },
    // from the Proposals and Rules views the argument is the tree node; from tests, a rule id
    [COMMANDS.showRuleInTree]: (a) => {
      const ruleId = rule(a);
      return ruleId ? showRuleInTree(s, ruleId) : false;
    },
    [COMMANDS.openRuleInPlaybook]: (a) => {
      const ruleId = rule(a);
      return ruleId ? openRuleInPlaybook(ruleId) : false;
    },
    [COMMANDS.retireRule]: (a) => {
      const ruleId = rule(a);
      return ruleId ? retireRule(s, ruleId) : undefined;
    },
    [COMMANDS.pinRule]: (a) => {
      const ruleId = rule(a);
      return ruleId ? pinRule(s, ruleId, true) : undefined;
    },
    [COMMANDS.unpinRule]: (a) => {
      const ruleId = rule(a);
      return ruleId ? pinRule(s, ruleId, false) : undefined;
    },
    [COMMANDS.importSessions]: (folder) => importSessionsCommand(s, folder),
    [COMMANDS.importTeamBundles]: () => importTeamBundlesCommand(s),
    [COMMANDS.setApiKey]: (key) => setApiKeyCommand(s, key),
    [COMMANDS.openPlaybook]: () => openPlaybookCommand(),
    [COMMANDS.showLog]: () => log.show(),
    [COMMANDS.forgetLearning]: (confirmed) => forgetLearningCommand(s, confirmed),
    [COMMANDS.clearCache]: async () => {
      await s.callCache.clear();
      log.info('model call cache cleared');
      void vscode.window.showInformationMessage('Combee: the cache of model calls is cleared.');
    },
    [COMMANDS.showMoreSessions]: () => sessionsView.showMore(),
    [COMMANDS.showSearchedFolders]: async () => {
      const document = await vscode.workspace.openTextDocument(SEARCHED_FOLDERS_URI);
      await vscode.window.showTextDocument(document, { preview: true });
      return document.getText();
    },
  };
  for (const [id, run] of Object.entries(handlers))
    context.subscriptions.push(vscode.commands.registerCommand(id, run));
  context.subscriptions.push(...registerPanelSerializers(s));
  const statusBar = createStatusBar(s);
  const ignoredSettings = new IgnoredSettingsWatch(s);
  const proposalsView = new ProposalsView(s);
  const content = new ProposalContentProvider((ws, id) => s.proposals.load(ws, id));
  s.proposalDocuments = content;
  const drafts = new EditDrafts();
  s.editDrafts = drafts;
  const backtests = new BacktestContentProvider((report) => backtestNames(s, report));
  const backtestsFollow = s.onDidChange(() => backtests.refresh());
  const citedSteps = new CitedSteps();
  s.citedSteps = citedSteps;
  s.backtestDocuments = backtests;
  context.subscriptions.push(
    log,
    s,
    vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, content),
    citedSteps,
    backtestsFollow,
    drafts,
    vscode.workspace.registerFileSystemProvider(EDIT_SCHEME, drafts, { isCaseSensitive: true }),
    vscode.languages.registerCodeLensProvider(
      { scheme: EDIT_SCHEME },
      new EditDraftLens(drafts, { accept: COMMANDS.acceptEdited, discard: COMMANDS.discardEdit }),
    ),
    vscode.workspace.registerTextDocumentContentProvider(SESSION_SCHEME, new SessionContentProvider(s.store)),
    vscode.workspace.registerTextDocumentContentProvider(SEARCHED_FOLDERS_URI.scheme, {
      provideTextDocumentContent: () => sessionsView.emptyReport(),
    }),
    backtests,
    vscode.workspace.registerTextDocumentContentProvider(BACKTEST_SCHEME, backtests),
    vscode.workspace.registerTextDocumentContentProvider(
      EVIDENCE_SCHEME,
      new EvidenceContentProvider((ws, id) => s.proposals.load(ws, id), s.store),
    ),
    ...restrictedModeMessages(
      [
        sessionsTree,
        vscode.window.createTreeView(VIEWS.proposals, { treeDataProvider: proposalsView }),
        vscode.window.createTreeView(VIEWS.rules, { treeDataProvider: new RulesView(s) }),
      ],
      s,
    ),
    // Accept / Reject appear in the editor title only while a proposal diff is the active tab.
    vscode.window.tabGroups.onDidChangeTabs(updateProposalContext),
    vscode.window.onDidChangeActiveTextEditor(updateProposalContext),
    statusBar,
    ...registerRuleLens(s),
    conflictComments,
    s.onDidChange(() => void refreshConflicts()),
    // a team line changed by hand may settle a conflict
    vscode.workspace.onDidSaveTextDocument(() => void refreshConflicts()),
    // Started on startup only when the user turned background capture on; otherwise it does nothing.
    startBackground(s),
    ignoredSettings,
  );
  updateProposalContext();
  void refreshConflicts();
  log.info(`Combee activated (store: ${s.store.dir})`);
  return {
    describeProvider: async () => {
      const { info, reason } = await chooseProvider(s, false);
      return { ...info, reason };
    },
    pendingProposals,
    conflictThreads: async () => {
      await refreshConflicts();
      return conflictComments.shown();
    },
    sessionIds: async () => {
      const inWorkspace = createWorkspaceMatcher(workspaceFolderPaths());
      return (await s.store.listSummaries()).filter((t) => inWorkspace(t.cwd)).map((t) => t.id);
    },
    sessionSteps: async (id) => (await s.store.loadTrace(id))?.steps.length,
    effectiveSettings: () => {
      const problems: SettingProblem[] = [];
      return { settings: readSettings(undefined, problems), problems, trusted: vscode.workspace.isTrusted };
    },
    viewItems: (view, options) =>
      view === 'sessions'
        ? snapshotTree(sessionsView, 3, undefined, options?.resolved)
        : snapshotTree(proposalsView, 3, undefined, options?.resolved),
    statusBar: () => statusBar.shown(),
    ignoredSettingNotices: () => [...shownNotices],
    checkIgnoredSettings: () => ignoredSettings.check(),
    quickPickLabels: () => shownPickLabels(),
    sessionsViewMessage: () => sessionsTree.message,
    lastLearnNotice: () => s.lastLearnNotice,
    runLearnAction: (action) => runLearnAction(s, action),
    onDidChangeLiveRun: (listener) => s.onDidChangeLiveRun(() => listener(s.liveRun?.nodes.length)),
    citedLines: (uri) => citedSteps.highlighted(uri),
    loadProposal: async (id) => {
      for (const ws of workspaceFolderPaths()) {
        const found = await s.proposals.load(ws, id);
        if (found) return found;
      }
      return undefined;
    },
  };
}

/** Pending (or partly accepted) proposals of the open workspace folders, newest first. */
async function pendingProposals(): Promise<Proposal[]> {
  if (!services) return [];
  const s = services;
  return (await Promise.all(workspaceFolderPaths().map((ws) => s.proposals.list(ws))))
    .flat()
    .filter((p) => p.status === 'pending' || p.status === 'partial');
}

/** In Restricted Mode every view says why nothing is learned or written; the message goes once the folder is trusted. */
function restrictedModeMessages(views: vscode.TreeView<unknown>[], s: Services): vscode.Disposable[] {
  const update = () => {
    for (const view of views)
      view.message = vscode.workspace.isTrusted
        ? undefined
        : "Restricted Mode: Combee lists this folder's sessions but learns and writes nothing, and ignores the folder's Combee settings, until you trust it.";
  };
  update();
  return [
    ...views,
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      update();
      s.notifyChanged();
    }),
  ];
}

/** The read-only page of where sessions were searched (the empty Sessions view's welcome links to it). */
const SEARCHED_FOLDERS_URI = vscode.Uri.from({ scheme: 'combee-searched', path: '/Where Combee looked for sessions' });

/** Tree nodes of the Proposals view carry what their commands need. */
function ruleIdOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const node = value as { ruleId?: unknown; rule?: { id?: unknown } };
  if (typeof node.ruleId === 'string') return node.ruleId;
  return typeof node.rule?.id === 'string' ? node.rule.id : undefined;
}

function isNode(value: unknown): value is { proposalId: string; path?: string; ruleId?: string } {
  return (
    typeof value === 'object' && value !== null && typeof (value as { proposalId?: unknown }).proposalId === 'string'
  );
}

function updateProposalContext(): void {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const active = input instanceof vscode.TabInputTextDiff && parseProposalUri(input.modified) !== undefined;
  void vscode.commands.executeCommand('setContext', 'combee.proposalDiffActive', active);
}

export function deactivate(): void {
  services?.dispose();
  services = undefined;
}
