import { z } from 'zod';
import { DEFAULT_RULES_BUDGET_TOKENS } from '../core/assets/agentsMd';
import { DEFAULT_PLAYBOOK_PATH } from '../core/assets/playbookAsset';
import { DEFAULT_SKILL_ROOT } from '../core/assets/skills';
import { ASSET_TARGETS, DEFAULT_AGENT_BUDGET_TOKENS, DEFAULT_ASSET_SETTINGS } from '../core/assets/targets';
import { DEFAULT_EMBEDDING_MODEL } from '../core/llm/openaiClient';
import { DEFAULT_OPENAI_BASE_URL, DEFAULT_OPENAI_MODEL, PROVIDER_CHOICES } from '../core/llm/providers';
import { DEFAULT_CONDENSE_BUDGET } from '../core/trace/condense';
import { DEFAULT_PLAYBOOK_BUDGET_TOKENS } from '../core/learn/rules/budget';
import { DEFAULT_WINDOW_DAYS } from '../core/learn/window';
import { STALE_AFTER_RUNS } from '../core/learn/rules/ruleStanding';
import { DEFAULT_AGGREGATION_CAPACITY_TOKENS, MIN_AGGREGATION_CAPACITY_TOKENS } from '../core/learn/capacity/capacity';
import { DEFAULT_READ_LIMITS } from '../core/import/limits';
import { DEFAULT_TEAM_BUNDLE_SOURCES } from '../core/team/teamLimits';

// Every Combee setting, defined once: its id, who may set it, the values it takes, its default and what it does. The
// settings reader (settingsSchema.ts), who may set what (settingIds.ts), the manifest's configuration and its
// Restricted Mode list, and the README's table all come from here (scripts/settings.mjs writes the last three; a unit
// test fails when they differ). No `vscode` import, so plain Node reads it.

/**
 * Who may set a setting. `application` and `machine`: only the user's own settings count — where data goes, which key
 * is used, which files outside the workspace are read, what runs unasked, what a run may cost (a repository's
 * `.vscode/settings.json` is read past, whatever VS Code does). `resource`: harmless choices a trusted repository may
 * make (its paths are confined to the folder where they are used); ignored in Restricted Mode.
 */
export type SettingScope = 'application' | 'machine' | 'resource';

export interface SettingDefinition<Value extends z.ZodType = z.ZodType> {
  /** The id after `combee.`. */
  id: string;
  scope: SettingScope;
  /** The values it takes; anything else reads as the default. */
  value: Value;
  default: z.output<Value>;
  /** What the Settings editor shows (Markdown). */
  description: string;
  /** The README table's one line. */
  summary: string;
}

/** One definition, its default checked against its values by the compiler. */
const setting = <Value extends z.ZodType>(definition: SettingDefinition<Value>) => definition;

/** In the order the Settings editor and the README show them. */
export const SETTING_TABLE = {
  provider: setting({
    id: 'provider',
    scope: 'application',
    value: z.enum(PROVIDER_CHOICES),
    default: 'auto',
    description:
      "Who learns: `offline` (built in, nothing leaves the machine), `openai` (any OpenAI-compatible endpoint), `vscode` (VS Code's language models) or `auto`.",
    summary: 'Who learns: `offline`, `openai`, `vscode` or `auto` (see [Providers](#providers))',
  }),
  openaiBaseUrl: setting({
    id: 'openai.baseUrl',
    scope: 'application',
    value: z.string().url(),
    default: DEFAULT_OPENAI_BASE_URL,
    description:
      'Base URL of the OpenAI-compatible endpoint (OpenAI, Azure, DeepSeek, OpenRouter, Ollama, vLLM, LM Studio). User settings only: a repository cannot choose where its sessions are sent. The key is stored per endpoint (**Combee: Set API Key**) and never sent to another one.',
    summary: 'Base URL of the OpenAI-compatible endpoint',
  }),
  openaiModel: setting({
    id: 'openai.model',
    scope: 'application',
    value: z.string().min(1),
    default: DEFAULT_OPENAI_MODEL,
    description: 'Model id for the OpenAI-compatible endpoint.',
    summary: 'Model id at that endpoint',
  }),
  allowInsecureHttp: setting({
    id: 'openai.allowInsecureHttp',
    scope: 'machine',
    value: z.boolean(),
    default: false,
    description:
      'Allow plain `http://` to an endpoint on another machine (a model server on your network). Sessions and the key then travel unencrypted. Only your user settings can allow it; `http://` to this machine (localhost) is always allowed.',
    summary: 'Allow plain `http://` to an endpoint on another machine (`http://` to this machine is always allowed)',
  }),
  defaultLocations: setting({
    id: 'sources.defaultLocations',
    scope: 'machine',
    value: z.boolean(),
    default: true,
    description:
      "Import sessions from every supported agent's default folders (for example `~/.claude/projects` and `~/.codex/sessions`, honouring `CLAUDE_CONFIG_DIR` and `CODEX_HOME`; the README's *Nothing found* lists them all).",
    summary: "Import sessions from the agents' default folders",
  }),
  extraFolders: setting({
    id: 'sources.extraFolders',
    scope: 'machine',
    value: z.array(z.string()),
    default: [],
    description: "More folders of agent sessions to import (an agent's home or any folder of session files).",
    summary: "More folders of agent sessions (an agent's home or any folder of session files)",
  }),
  teamBundles: setting({
    id: 'team.bundles',
    scope: 'resource',
    value: z.array(z.string()),
    default: [...DEFAULT_TEAM_BUNDLE_SOURCES],
    description:
      "Where the team's bundles (`combee export --bundle`, `*.combee-bundle`) are imported from when sessions are captured: a workspace-relative folder, or `git:<branch>:<folder>` for the bundles committed on another branch of the repository (read without checking it out, e.g. `git:combee-team:.combee/team`). A folder that leaves the workspace, or a branch that is not a plain branch name, is refused. Not used in Restricted Mode.",
    summary: "Where teammates' session bundles are imported from: workspace folders, or `git:<branch>:<folder>`",
  }),
  teamAllowedSigners: setting({
    id: 'team.allowedSigners',
    scope: 'machine',
    value: z.string(),
    default: '',
    description:
      "An allowed-signers file (as `ssh-keygen -Y verify` and git's `gpg.ssh.allowedSignersFile` read it): a team bundle with a `<bundle>.sig` made by `ssh-keygen -Y sign -n combee-bundle` with a key listed there counts its signer as verified. A relative path is read inside each workspace folder (a file the repository commits, such as `.github/allowed_signers`: the repository then says which key is whose, nothing more). Empty: your global git config's `gpg.ssh.allowedSignersFile`, never the repository's. A user setting only: a repository cannot choose it.",
    summary: 'An allowed-signers file: a bundle signed by a key listed there counts its signer as verified',
  }),
  playbookPath: setting({
    id: 'playbook.path',
    scope: 'resource',
    value: z.string().min(1),
    default: DEFAULT_PLAYBOOK_PATH,
    description: 'Workspace-relative path of the playbook (it must stay inside the workspace folder).',
    summary: 'Workspace-relative path of the playbook (must stay inside the workspace)',
  }),
  staleAfterRuns: setting({
    id: 'playbook.staleAfterRuns',
    scope: 'resource',
    value: z.number().int().min(1),
    default: STALE_AFTER_RUNS,
    description:
      'A rule that no session had in play for this many learning runs is stale: Combee proposes retiring it (never a pinned one).',
    summary: 'A rule no session had in play for this many runs is proposed for retiring (never a pinned one)',
  }),
  playbookBudget: setting({
    id: 'playbook.budgetTokens',
    scope: 'resource',
    value: z.number().int().min(500),
    default: DEFAULT_PLAYBOOK_BUDGET_TOKENS,
    description:
      'Token budget of the playbook. When a run leaves it over, the least helpful rules (never new or pinned ones) are proposed for retiring, each saying what it makes room for.',
    summary: 'Token budget of the playbook; over it, the least helpful rules are proposed for retiring',
  }),
  windowDays: setting({
    id: 'learn.windowDays',
    scope: 'machine',
    value: z.number().int().min(0),
    default: DEFAULT_WINDOW_DAYS,
    description:
      "Learn from sessions that ended within N days of the workspace's newest session (0: all). The CLI's --window-days has the same default.",
    summary: "Learn from sessions that ended within N days of the workspace's newest session (0: all)",
  }),
  strategy: setting({
    id: 'learn.strategy',
    scope: 'resource',
    value: z.enum(['combee', 'naive', 'sequential']),
    default: 'combee',
    description:
      '`combee`: parallel scan aggregation with augmented shuffling (recommended); `naive`: one aggregation of everything; `sequential`: one session at a time.',
    summary:
      '`combee` (parallel scan with augmented shuffling), `naive` (one aggregation of everything) or `sequential`',
  }),
  batchSize: setting({
    id: 'learn.batchSize',
    scope: 'resource',
    value: z.union([z.number().int().min(1), z.literal('auto')]),
    default: 'auto',
    description: 'Sessions per batch: a number, or `auto`.',
    summary: 'Sessions per batch: a number, or `auto` (chosen from a latency profile)',
  }),
  poolSize: setting({
    id: 'pool.size',
    scope: 'machine',
    value: z.number().int().min(0),
    default: 0,
    description: 'Worker threads for parsing and learning (0: a small default; the extension host is shared).',
    summary: 'Worker threads for parsing and learning (0: a small default)',
  }),
  extraRedactionPatterns: setting({
    id: 'redaction.extraPatterns',
    scope: 'machine',
    value: z.array(z.string()),
    default: [],
    description:
      'Extra regular expressions (RE2 syntax, run in linear time; backreferences and lookaround are rejected with a warning) whose matches are removed from sessions before they are stored or sent anywhere.',
    summary: 'Your own secret patterns (RE2 syntax, linear time), removed before sessions are stored or sent',
  }),
  backgroundCapture: setting({
    id: 'capture.background',
    scope: 'machine',
    value: z.boolean(),
    default: false,
    description: "Watch the agents' folders and import new sessions in the background.",
    summary: "Watch the agents' folders and import new sessions in the background",
  }),
  maxToolOutputChars: setting({
    id: 'capture.maxToolOutputChars',
    scope: 'machine',
    value: z.number().int().min(1000),
    default: DEFAULT_READ_LIMITS.maxOutputChars,
    description:
      'Tool outputs longer than this are stored cut in the middle (head and tail kept). Condensing shows a model at most 2,400 characters of one output, so the default keeps three times that. Applies to sessions imported from now on.',
    summary: 'Tool outputs longer than this are stored cut in the middle (head and tail kept)',
  }),
  lmVendor: setting({
    id: 'lm.vendor',
    scope: 'application',
    value: z.string(),
    default: 'copilot',
    description: 'VS Code language model vendor to use with the vscode provider (empty: any).',
    summary: 'VS Code language model vendor for the `vscode` provider (empty: any)',
  }),
  lmFamily: setting({
    id: 'lm.family',
    scope: 'application',
    value: z.string(),
    default: '',
    description: 'VS Code language model family, e.g. gpt-4o (empty: the first available).',
    summary: 'VS Code language model family, e.g. `gpt-4o` (empty: the first available)',
  }),
  llmConcurrency: setting({
    id: 'llm.concurrency',
    scope: 'machine',
    value: z.number().int().min(1),
    default: 4,
    description: 'Model calls in flight at once (lowered automatically when the endpoint answers 429).',
    summary: 'Model calls in flight at once (lowered automatically on a 429)',
  }),
  requestTimeoutSeconds: setting({
    id: 'llm.requestTimeoutSeconds',
    scope: 'machine',
    value: z.number().int().min(0),
    default: 0,
    description:
      'Seconds one model request may take before it fails and is retried (0: sized to the request, from 20 s up). Independently, a request still unanswered after 4× the median latency of recent ones (at least 5 s) is sent a second time and the first answer wins, so one hung request never stalls a batch.',
    summary: 'Seconds one request may take before it is retried (0: sized to the request, from 20 s up)',
  }),
  condenseBudget: setting({
    id: 'llm.sessionBudgetTokens',
    scope: 'machine',
    value: z.number().int().min(500),
    default: DEFAULT_CONDENSE_BUDGET,
    description: 'Token budget of one condensed session shown to the model.',
    summary: 'Token budget of one condensed session shown to the model',
  }),
  aggregationCapacity: setting({
    id: 'llm.aggregationCapacityTokens',
    scope: 'machine',
    value: z.number().int().min(MIN_AGGREGATION_CAPACITY_TOKENS),
    default: DEFAULT_AGGREGATION_CAPACITY_TOKENS,
    description:
      'Most tokens one aggregation call may hold. Models lose items well before their context window is full, so every call of the parallel scan is planned to fit this (more, smaller groups; more levels); operations that are the same lesson are merged in code before each higher level.',
    summary:
      'Most tokens one aggregation call may hold (an upper bound; the capacity the model shows is used below it)',
  }),
  backgroundLearning: setting({
    id: 'learn.background',
    scope: 'machine',
    value: z.boolean(),
    default: false,
    description:
      'Learn by itself when enough new sessions have accumulated (needs `combee.capture.background`). Never shows a consent prompt or a dialog; the result waits in *Proposals*.',
    summary: 'Learn by itself when enough new sessions have gathered (needs `combee.capture.background`)',
  }),
  agentMemories: setting({
    id: 'learn.agentMemories',
    scope: 'machine',
    value: z.boolean(),
    default: true,
    description:
      "Read the agents' own memories of the workspace (Claude Code's `~/.claude/projects/<project>/memory/`, Codex's `~/.codex/memories/`, the *Gemini Added Memories* section of `~/.gemini/GEMINI.md`, VS Code Copilot Chat's memory-tool files; read only, secrets removed, screened) and propose those the workspace's sessions bear out as rules. Contradicted and unverified memories are reported, never proposed.",
    summary: "Read the agents' own memories of the workspace (read only) and propose those its sessions bear out",
  }),
  backgroundThreshold: setting({
    id: 'learn.backgroundThreshold',
    scope: 'machine',
    value: z.number().int().min(1),
    default: 10,
    description: 'New sessions that start a background learning run.',
    summary: 'New sessions that start a background run',
  }),
  assetTargets: setting({
    id: 'assets.targets',
    scope: 'resource',
    value: z.array(z.enum(ASSET_TARGETS)),
    default: [...DEFAULT_ASSET_SETTINGS.targets],
    description:
      "Which context assets Combee proposes changes to. The playbook is always kept. Left unset, the targets follow the agents whose sessions the workspace has: `AGENTS.md` and Skills, plus `CLAUDE.md` for Claude Code, `.github/copilot-instructions.md` for Copilot, `.cursor/rules/combee.mdc` for Cursor, `.clinerules/combee.md` for Cline and Roo Code, `GEMINI.md` for Gemini CLI and, for Aider, the file `read:` names in `.aider.conf.yml` (`CONVENTIONS.md`; none without that config) (the proposal says which and why); Windsurf (`.windsurf/rules/combee.md`), Kiro (`.kiro/steering/combee.md`) and Qwen Code (`QWEN.md`), whose sessions Combee does not read, only when listed here; the default shown here is what a workspace without sessions gets. Set, the list is used as it is. A file that already holds Combee's block is kept in sync either way. In Markdown files Combee only edits its own marked block.",
    summary: 'Which files Combee proposes changes to; unset, they follow the agents whose sessions the workspace has',
  }),
  rulesBudget: setting({
    id: 'assets.rulesBudgetTokens',
    scope: 'resource',
    value: z.number().int().min(100),
    default: DEFAULT_RULES_BUDGET_TOKENS,
    description:
      "Token budget of the rules block in AGENTS.md and the other agents' files (the best-evidenced rules first).",
    summary: "Token budget of the rules block in `AGENTS.md` and the other agents' files (best-evidenced rules first)",
  }),
  agentBudget: setting({
    id: 'assets.agentBudgetTokens',
    scope: 'resource',
    value: z.number().int().min(100),
    default: DEFAULT_AGENT_BUDGET_TOKENS,
    description:
      "Tokens of Combee's text one agent may load at session start, all the files it loads together (imports followed): past it, the rules blocks hold fewer rules, the best-evidenced first. Each proposal says what every agent of the workspace loads.",
    summary:
      "Tokens of Combee's text one agent may load at session start, all its files together (best-evidenced rules first)",
  }),
  skillRoots: setting({
    id: 'assets.skillRoots',
    scope: 'resource',
    value: z.array(z.string().min(1)).min(1),
    default: [DEFAULT_SKILL_ROOT],
    description:
      'Workspace-relative folders where proposed Skills go: `.claude/skills` (Claude Code); `.github/skills` and `.agents/skills` are read by other agents. A root that leaves the workspace folder is refused.',
    summary: 'Workspace-relative folders where proposed Skills go',
  }),
  maxTokensPerRun: setting({
    id: 'llm.maxTokensPerRun',
    scope: 'machine',
    value: z.number().int().min(0),
    default: 0,
    description:
      'Stop a learning run cleanly once it has used this many tokens (0: no limit). Batches finished before are kept.',
    summary: 'Stop a run cleanly after this many tokens (0: no limit); finished batches are kept',
  }),
  maxCostPerRun: setting({
    id: 'llm.maxCostPerRun',
    scope: 'machine',
    value: z.number().min(0),
    default: 0,
    description:
      'Stop a learning run cleanly once its estimated cost reaches this many US dollars (0: no limit; needs a price in combee.llm.prices).',
    summary: 'Stop a run cleanly at this estimated cost in US dollars (0: no limit; needs `combee.llm.prices`)',
  }),
  prices: setting({
    id: 'llm.prices',
    scope: 'machine',
    value: z.record(z.string(), z.object({ input: z.number().min(0), output: z.number().min(0) })),
    default: {},
    description:
      'Prices in US dollars per million tokens, by model id, for cost estimates and limits, e.g. `{"gpt-4.1-mini": {"input": 0.4, "output": 1.6}}`.',
    summary: 'US dollars per million tokens by model id, e.g. `{"gpt-4.1-mini": {"input": 0.4, "output": 1.6}}`',
  }),
  embeddingModel: setting({
    id: 'openai.embeddingModel',
    scope: 'application',
    value: z.string().min(1),
    default: DEFAULT_EMBEDDING_MODEL,
    description:
      'Embedding model of the OpenAI-compatible endpoint, used to catch duplicate rules worded differently (endpoints without embeddings fall back to lexical detection).',
    summary: 'Embedding model used to catch duplicate rules worded differently (lexical without embeddings)',
  }),
} as const;

export type SettingField = keyof typeof SETTING_TABLE;
