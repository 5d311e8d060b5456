/**
 * Every command the extension registers, declared once. extension.ts registers a handler for each (its handler table is
 * typed by these ids, so one left out does not compile) and package.json's `contributes.commands` must list exactly
 * these (test/unit/architecture/commands.test.ts checks both ways in plain Node). No `vscode` import.
 */
export const COMMANDS = {
  learn: 'combee.learn',
  reviewProposals: 'combee.reviewProposals',
  backtest: 'combee.backtest',
  calibrateCapacity: 'combee.calibrateCapacity',
  showTree: 'combee.showTree',
  showHelpfulness: 'combee.showHelpfulness',
  importSessions: 'combee.importSessions',
  importTeamBundles: 'combee.importTeamBundles',
  setApiKey: 'combee.setApiKey',
  openPlaybook: 'combee.openPlaybook',
  acceptProposal: 'combee.acceptProposal',
  rejectProposal: 'combee.rejectProposal',
  undoDecision: 'combee.undoDecision',
  forgetLearning: 'combee.forgetLearning',
  clearCache: 'combee.clearCache',
  acceptFile: 'combee.acceptFile',
  acceptRule: 'combee.acceptRule',
  rejectRule: 'combee.rejectRule',
  rejectFile: 'combee.rejectFile',
  showRuleEvidence: 'combee.showRuleEvidence',
  editProposal: 'combee.editProposal',
  acceptEdited: 'combee.acceptEdited',
  discardEdit: 'combee.discardEdit',
  applyConflictSuggestion: 'combee.applyConflictSuggestion',
  openProposalFile: 'combee.openProposalFile',
  openSession: 'combee.openSession',
  revealSessionSource: 'combee.revealSessionSource',
  showSessionInTree: 'combee.showSessionInTree',
  forgetSession: 'combee.forgetSession',
  showRuleInTree: 'combee.showRuleInTree',
  openRuleInPlaybook: 'combee.openRuleInPlaybook',
  retireRule: 'combee.retireRule',
  pinRule: 'combee.pinRule',
  unpinRule: 'combee.unpinRule',
  showLog: 'combee.showLog',
  showMoreSessions: 'combee.showMoreSessions',
  showSearchedFolders: 'combee.showSearchedFolders',
} as const;

export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];
