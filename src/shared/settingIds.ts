// Which Combee setting each field of `Settings` reads, and who may set it. No `vscode` import: the manifest test
// checks the declared scopes against this table in plain Node.

/**
 * Each field's setting, and who may set it. `user`: where data goes, which key is used, which files outside the
 * workspace are read, what runs unasked, what a run may cost — only the user's own settings count (the manifest scopes
 * them `application` or `machine`; a repository's `.vscode/settings.json` is read past here, whatever VS Code does).
 * `workspace`: harmless choices a repository may make (its paths are confined to the folder where they are used).
 */
export const SETTINGS = {
  provider: { id: 'provider', who: 'user' },
  defaultLocations: { id: 'sources.defaultLocations', who: 'user' },
  extraFolders: { id: 'sources.extraFolders', who: 'user' },
  // folders of the workspace, or folders on a branch of its repository: confined and validated where they are read
  teamBundles: { id: 'team.bundles', who: 'workspace' },
  teamAllowedSigners: { id: 'team.allowedSigners', who: 'user' },
  playbookPath: { id: 'playbook.path', who: 'workspace' },
  playbookBudget: { id: 'playbook.budgetTokens', who: 'workspace' },
  staleAfterRuns: { id: 'playbook.staleAfterRuns', who: 'workspace' },
  windowDays: { id: 'learn.windowDays', who: 'user' },
  strategy: { id: 'learn.strategy', who: 'workspace' },
  batchSize: { id: 'learn.batchSize', who: 'workspace' },
  poolSize: { id: 'pool.size', who: 'user' },
  extraRedactionPatterns: { id: 'redaction.extraPatterns', who: 'user' },
  backgroundCapture: { id: 'capture.background', who: 'user' },
  maxToolOutputChars: { id: 'capture.maxToolOutputChars', who: 'user' },
  backgroundLearning: { id: 'learn.background', who: 'user' },
  backgroundThreshold: { id: 'learn.backgroundThreshold', who: 'user' },
  // files in the user's home (the agents' memory folders), like the session capture's default locations
  agentMemories: { id: 'learn.agentMemories', who: 'user' },
  openaiBaseUrl: { id: 'openai.baseUrl', who: 'user' },
  openaiModel: { id: 'openai.model', who: 'user' },
  allowInsecureHttp: { id: 'openai.allowInsecureHttp', who: 'user' },
  embeddingModel: { id: 'openai.embeddingModel', who: 'user' },
  lmVendor: { id: 'lm.vendor', who: 'user' },
  lmFamily: { id: 'lm.family', who: 'user' },
  llmConcurrency: { id: 'llm.concurrency', who: 'user' },
  requestTimeoutSeconds: { id: 'llm.requestTimeoutSeconds', who: 'user' },
  condenseBudget: { id: 'llm.sessionBudgetTokens', who: 'user' },
  aggregationCapacity: { id: 'llm.aggregationCapacityTokens', who: 'user' },
  assetTargets: { id: 'assets.targets', who: 'workspace' },
  rulesBudget: { id: 'assets.rulesBudgetTokens', who: 'workspace' },
  agentBudget: { id: 'assets.agentBudgetTokens', who: 'workspace' },
  skillRoots: { id: 'assets.skillRoots', who: 'workspace' },
  maxTokensPerRun: { id: 'llm.maxTokensPerRun', who: 'user' },
  maxCostPerRun: { id: 'llm.maxCostPerRun', who: 'user' },
  prices: { id: 'llm.prices', who: 'user' },
} as const satisfies Record<string, { id: string; who: 'user' | 'workspace' }>;

/** Setting ids only the user's own settings may set (the manifest test checks their scopes against this). */
export const USER_ONLY_SETTINGS: string[] = Object.values(SETTINGS)
  .filter((s) => s.who === 'user')
  .map((s) => `combee.${s.id}`);
/** Setting ids a trusted repository may set; in Restricted Mode their workspace values are ignored too. */
export const WORKSPACE_SETTINGS: string[] = Object.values(SETTINGS)
  .filter((s) => s.who === 'workspace')
  .map((s) => `combee.${s.id}`);
