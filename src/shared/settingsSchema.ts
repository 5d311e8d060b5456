import { z } from 'zod';
import { DEFAULT_RULES_BUDGET_TOKENS } from '../core/assets/agentsMd';
import { DEFAULT_PLAYBOOK_PATH } from '../core/assets/playbookAsset';
import { DEFAULT_SKILL_ROOT } from '../core/assets/skills';
import { ASSET_TARGETS, DEFAULT_AGENT_BUDGET_TOKENS, DEFAULT_ASSET_SETTINGS } from '../core/assets/targets';
import { DEFAULT_EMBEDDING_MODEL } from '../core/llm/openaiClient';
import { DEFAULT_OPENAI_BASE_URL, DEFAULT_OPENAI_MODEL, PROVIDER_CHOICES } from '../core/llm/providers';
import { DEFAULT_CONDENSE_BUDGET } from '../core/trace/condense';
import { DEFAULT_PLAYBOOK_BUDGET_TOKENS } from '../core/learn/budget';
import { DEFAULT_WINDOW_DAYS } from '../core/learn/window';
import { STALE_AFTER_RUNS } from '../core/learn/ruleStanding';
import { DEFAULT_AGGREGATION_CAPACITY_TOKENS, MIN_AGGREGATION_CAPACITY_TOKENS } from '../core/learn/capacity';
import { DEFAULT_READ_LIMITS } from '../core/import/limits';
import { DEFAULT_TEAM_BUNDLE_SOURCES } from '../core/team/teamLimits';

/**
 * The settings' types and defaults, in one place: the defaults that core shares with the CLI come from core, and a
 * unit test checks every one against the manifest's declaration (which VS Code shows and falls back to). Settings are
 * external input too: a bad value is replaced by its default. No `vscode` import, so plain Node can test it.
 */
export const Settings = z.object({
  provider: z.enum(PROVIDER_CHOICES).catch('auto'),
  defaultLocations: z.boolean().catch(true),
  extraFolders: z.array(z.string()).catch([]),
  teamBundles: z.array(z.string()).catch([...DEFAULT_TEAM_BUNDLE_SOURCES]),
  teamAllowedSigners: z.string().catch(''),
  playbookPath: z.string().min(1).catch(DEFAULT_PLAYBOOK_PATH),
  playbookBudget: z.number().int().min(500).catch(DEFAULT_PLAYBOOK_BUDGET_TOKENS),
  staleAfterRuns: z.number().int().min(1).catch(STALE_AFTER_RUNS),
  windowDays: z.number().int().min(0).catch(DEFAULT_WINDOW_DAYS),
  strategy: z.enum(['combee', 'naive', 'sequential']).catch('combee'),
  batchSize: z.union([z.number().int().min(1), z.literal('auto')]).catch('auto'),
  poolSize: z.number().int().min(0).catch(0),
  extraRedactionPatterns: z.array(z.string()).catch([]),
  backgroundCapture: z.boolean().catch(false),
  maxToolOutputChars: z.number().int().min(1000).catch(DEFAULT_READ_LIMITS.maxOutputChars),
  backgroundLearning: z.boolean().catch(false),
  backgroundThreshold: z.number().int().min(1).catch(10),
  agentMemories: z.boolean().catch(true),
  openaiBaseUrl: z.string().url().catch(DEFAULT_OPENAI_BASE_URL),
  openaiModel: z.string().min(1).catch(DEFAULT_OPENAI_MODEL),
  allowInsecureHttp: z.boolean().catch(false),
  embeddingModel: z.string().min(1).catch(DEFAULT_EMBEDDING_MODEL),
  lmVendor: z.string().catch('copilot'),
  lmFamily: z.string().catch(''),
  llmConcurrency: z.number().int().min(1).catch(4),
  requestTimeoutSeconds: z.number().int().min(0).catch(0),
  condenseBudget: z.number().int().min(500).catch(DEFAULT_CONDENSE_BUDGET),
  aggregationCapacity: z.number().int().min(MIN_AGGREGATION_CAPACITY_TOKENS).catch(DEFAULT_AGGREGATION_CAPACITY_TOKENS),
  assetTargets: z.array(z.enum(ASSET_TARGETS)).catch([...DEFAULT_ASSET_SETTINGS.targets]),
  rulesBudget: z.number().int().min(100).catch(DEFAULT_RULES_BUDGET_TOKENS),
  agentBudget: z.number().int().min(100).catch(DEFAULT_AGENT_BUDGET_TOKENS),
  skillRoots: z.array(z.string().min(1)).min(1).catch([DEFAULT_SKILL_ROOT]),
  maxTokensPerRun: z.number().int().min(0).catch(0),
  maxCostPerRun: z.number().min(0).catch(0),
  prices: z.record(z.string(), z.object({ input: z.number().min(0), output: z.number().min(0) })).catch({}),
});
export type Settings = z.infer<typeof Settings>;

/** Every field's default: what an unset or invalid value reads as. */
export const SETTING_DEFAULTS: Settings = Settings.parse({});
