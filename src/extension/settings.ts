import * as vscode from 'vscode';
import { z } from 'zod';
import { PROVIDER_CHOICES } from '../core/llm/providers';
import { ASSET_TARGETS, DEFAULT_ASSET_SETTINGS } from '../core/assets/targets';
import { DEFAULT_READ_LIMITS } from '../core/trace/importer';
import { OutsideWorkspaceError, workspaceRelative } from '../core/trust/workspacePath';
import { SETTINGS } from '../shared/settingIds';

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
  allowInsecureHttp: z.boolean().catch(false),
  embeddingModel: z.string().min(1).catch('text-embedding-3-small'),
  lmVendor: z.string().catch(''),
  lmFamily: z.string().catch(''),
  llmConcurrency: z.number().int().min(1).catch(4),
  requestTimeoutSeconds: z.number().int().min(0).catch(0),
  condenseBudget: z.number().int().min(500).catch(6000),
  assetTargets: z.array(z.enum(ASSET_TARGETS)).catch([...DEFAULT_ASSET_SETTINGS.targets]),
  rulesBudget: z.number().int().min(100).catch(1500),
  skillRoots: z.array(z.string().min(1)).min(1).catch(['.claude/skills']),
  maxTokensPerRun: z.number().int().min(0).catch(0),
  maxCostPerRun: z.number().min(0).catch(0),
  prices: z.record(z.string(), z.object({ input: z.number().min(0), output: z.number().min(0) })).catch({}),
});
export type Settings = z.infer<typeof Settings>;
export { USER_ONLY_SETTINGS, WORKSPACE_SETTINGS } from '../shared/settingIds';
// Every field has exactly one setting in the table.
void (SETTINGS satisfies Record<keyof Settings, { id: string; who: 'user' | 'workspace' }>);

/** Bad values that were replaced by their default (shown once in the log by whoever reads settings for a run). */
export interface SettingProblem {
  setting: string;
  message: string;
}

export function readSettings(scope?: vscode.Uri, problems: SettingProblem[] = []): Settings {
  const c = vscode.workspace.getConfiguration('combee', scope);
  const trusted = vscode.workspace.isTrusted;
  const raw: Record<string, unknown> = {};
  for (const [field, { id, who }] of Object.entries(SETTINGS)) {
    if (who === 'workspace' && trusted) {
      raw[field] = c.get(id);
      continue;
    }
    const seen = c.inspect(id);
    raw[field] = seen?.globalValue ?? seen?.defaultValue;
  }
  const settings = Settings.parse(raw);
  settings.playbookPath = confined(settings.playbookPath, 'playbook.path', problems) ?? '.combee/playbook.md';
  const roots = settings.skillRoots.map((root) => confined(root, 'assets.skillRoots', problems)).filter((r): r is string => r !== undefined);
  settings.skillRoots = roots.length > 0 ? [...new Set(roots)] : ['.claude/skills'];
  return settings;
}

/** A workspace-relative path setting, or undefined (with the reason in `problems`) when it would leave the folder. */
function confined(path: string, setting: string, problems: SettingProblem[]): string | undefined {
  try {
    return workspaceRelative(path);
  } catch (error) {
    if (!(error instanceof OutsideWorkspaceError)) throw error;
    problems.push({ setting: `combee.${setting}`, message: `combee.${setting}: ${error.message}; the default is used instead` });
    return undefined;
  }
}
