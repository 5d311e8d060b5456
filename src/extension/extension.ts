import * as vscode from 'vscode';
import { learnFromRecentSessions } from './commands/learn';
import { importSessionsCommand, openPlaybookCommand, setApiKeyCommand } from './commands/misc';
import { acceptProposal, rejectProposal, reviewProposals } from './commands/proposals';
import { parseProposalUri, PROPOSAL_SCHEME, ProposalContentProvider } from './review/proposalDocuments';
import { startBackground } from './background';
import { chooseRoles } from './llm/providerChoice';
import { createStatusBar } from './statusBar';
import { Services } from './services';
import { ProposalsView } from './views/proposalsView';
import { RulesView } from './views/rulesView';
import { SessionsView } from './views/sessionsView';
import { showPanel } from './webview/panel';

let services: Services | undefined;

/** Cheap by design: registrations only; the store, pool and imports start on first use. */
/** What activate() returns: used by the extension tests, and a small surface for other extensions. */
export interface CombeeApi {
  /** Which provider a run would use now (and why); never prompts for consent. */
  describeProvider(): Promise<{ provider: string; model: string; reason: string }>;
}

export function activate(context: vscode.ExtensionContext): CombeeApi {
  const log = vscode.window.createOutputChannel('Combee', { log: true });
  services = new Services(context, log);
  const s = services;
  const command = (id: string, run: (...args: unknown[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, run));

  command('combee.learn', () => learnFromRecentSessions(s));
  command('combee.reviewProposals', () => reviewProposals(s));
  command('combee.acceptProposal', (id) => acceptProposal(s, id));
  command('combee.rejectProposal', (id) => rejectProposal(s, id));
  command('combee.showTree', () => void showPanel(s, 'tree'));
  command('combee.showHelpfulness', () => void showPanel(s, 'helpfulness'));
  command('combee.importSessions', (folder) => importSessionsCommand(s, folder));
  command('combee.setApiKey', () => setApiKeyCommand(s));
  command('combee.openPlaybook', () => openPlaybookCommand());
  command('combee.clearCache', async () => {
    await s.callCache.clear();
    log.info('model call cache cleared');
    void vscode.window.showInformationMessage('Combee: the cache of model calls is cleared.');
  });

  const content = new ProposalContentProvider((ws, id) => s.proposals.load(ws, id));
  context.subscriptions.push(
    log,
    s,
    vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, content),
    vscode.window.registerTreeDataProvider('combee.sessions', new SessionsView(s)),
    vscode.window.registerTreeDataProvider('combee.proposals', new ProposalsView(s)),
    vscode.window.registerTreeDataProvider('combee.rules', new RulesView(s)),
    // Accept / Reject appear in the editor title only while a proposal diff is the active tab.
    vscode.window.tabGroups.onDidChangeTabs(updateProposalContext),
    vscode.window.onDidChangeActiveTextEditor(updateProposalContext),
    createStatusBar(s),
    // Started on startup only when the user turned background capture on; otherwise it does nothing.
    startBackground(s),
  );
  updateProposalContext();
  log.info(`Combee activated (store: ${s.store.dir})`);
  return {
    describeProvider: async () => {
      const { roles, reason } = await chooseRoles(s, false);
      return { ...roles.info, reason };
    },
  };
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
