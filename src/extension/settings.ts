import * as vscode from 'vscode';
import { z } from 'zod';
import { PROVIDER_CHOICES } from '../core/llm/providers';
import { ASSET_TARGETS, DEFAULT_ASSET_SETTINGS } from '../core/assets/targets';
import { DEFAULT_READ_LIMITS } from '../core/trace/importer';

// Settings are external input too: validated, with a clear message and the default on a bad value.
const Settings = z.object({
  provider: z.enum(PROVIDER_CHOICES).catch('auto'),
  defaultLocations: z.boolean().catch(true),
  extraFolders: z.array(z.string()).catch([]),
  playbookPath: z.string().min(1).catch('.combee/playbook.md'),
  windowDays: z.number().int().min(0).catch(14),
  strategy: z.enum(['combee', 'naive', 'sequential']).catch('combee'),
  batchSize: z.union([z.number().int().min(1), z.literal('auto')]).catch('auto'),
  poolSize: z.number().int().min(0).catch(0),
  extraRedactionPatterns: z.array(z.string()).catch([]),
  backgroundCapture: z.boolean().catch(false),
  maxToolOutputChars: z.number().int().min(1000).catch(DEFAULT_READ_LIMITS.maxOutputChars),
  backgroundLearning: z.boolean().catch(false),
  backgroundThreshold: z.number().int().min(1).catch(10),
  openaiBaseUrl: z.string().url().catch('https://api.openai.com/v1'),
  openaiModel: z.string().min(1).catch('gpt-4.1-mini'),
  embeddingModel: z.string().min(1).catch('text-embedding-3-small'),
  lmVendor: z.string().catch(''),
  lmFamily: z.string().catch(''),
  llmConcurrency: z.number().int().min(1).catch(4),
  condenseBudget: z.number().int().min(500).catch(6000),
  assetTargets: z.array(z.enum(ASSET_TARGETS)).catch([...DEFAULT_ASSET_SETTINGS.targets]),
  rulesBudget: z.number().int().min(100).catch(1500),
  skillRoots: z.array(z.string().min(1)).min(1).catch(['.claude/skills']),
  maxTokensPerRun: z.number().int().min(0).catch(0),
  maxCostPerRun: z.number().min(0).catch(0),
  prices: z.record(z.string(), z.object({ input: z.number().min(0), output: z.number().min(0) })).catch({}),
});
export type Settings = z.infer<typeof Settings>;

export function readSettings(scope?: vscode.Uri): Settings {
  const c = vscode.workspace.getConfiguration('combee', scope);
  return Settings.parse({
    provider: c.get('provider'),
    defaultLocations: c.get('sources.defaultLocations'),
    extraFolders: c.get('sources.extraFolders'),
    playbookPath: c.get('playbook.path'),
    windowDays: c.get('learn.windowDays'),
    strategy: c.get('learn.strategy'),
    batchSize: c.get('learn.batchSize'),
    poolSize: c.get('pool.size'),
    extraRedactionPatterns: c.get('redaction.extraPatterns'),
    backgroundCapture: c.get('capture.background'),
    maxToolOutputChars: c.get('capture.maxToolOutputChars'),
    backgroundLearning: c.get('learn.background'),
    backgroundThreshold: c.get('learn.backgroundThreshold'),
    openaiBaseUrl: c.get('openai.baseUrl'),
    openaiModel: c.get('openai.model'),
    embeddingModel: c.get('openai.embeddingModel'),
    lmVendor: c.get('lm.vendor'),
    lmFamily: c.get('lm.family'),
    llmConcurrency: c.get('llm.concurrency'),
    condenseBudget: c.get('llm.sessionBudgetTokens'),
    assetTargets: c.get('assets.targets'),
    rulesBudget: c.get('assets.rulesBudgetTokens'),
    skillRoots: c.get('assets.skillRoots'),
    maxTokensPerRun: c.get('llm.maxTokensPerRun'),
    maxCostPerRun: c.get('llm.maxCostPerRun'),
    prices: c.get('llm.prices'),
  });
}
