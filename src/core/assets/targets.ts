import { authoredChanges, withAuthorMarks } from '../playbook/authorMark';
import { withCorroborationMarks } from '../playbook/provenanceMark';
import { basename } from 'node:path';
import type { Lesson } from '../learn/types';
import type { LocalCounts } from '../learn/rules/confirmedCounters';
import { bullets, type Playbook } from '../playbook/model';
import type { RuleFlag } from '../trust/kinds';
import { withMarks, withoutBullets, withRemovalMarks } from '../trust/hold';
import { screenText } from '../trust/screen';
import {
  AGENTS_MD,
  DEFAULT_RULES_BUDGET_TOKENS,
  LESSON_MATCH,
  renderAgentsMd,
  resolveScopes,
  type RuleWithScope,
} from './agentsMd';
import { jaccard, tokens } from '../playbook/similarity';
import {
  AIDER_CONVENTIONS,
  CLAUDE_MD,
  GEMINI_MD,
  KIRO_STEERING,
  QWEN_MD,
  renderAiderConventions,
  renderKiroSteering,
  renderQwenMd,
  renderWindsurfRule,
  WINDSURF_RULE,
  renderClaudeMd,
  renderClineRule,
  renderCopilotInstructions,
  renderCursorRule,
  renderGeminiMd,
  renderImportOf,
  type RulesTargetInput,
} from './otherTargets';
import { findManagedBlocks } from './managedBlock';
import { DEFAULT_PLAYBOOK_PATH, renderPlaybookChange } from './playbookAsset';
import type { FileChange } from './proposal';
import { DEFAULT_SKILL_ROOT, renderSkills } from './skills';
import { targetsHoldingRules } from './syncedTargets';
import { renderEnforcement } from './enforce/render';
import { contextCost } from './contextCost';
import { AGENT_LOADING, type LoadingAgent } from '../agents/loading';
import { AIDER_CONFIG, aiderReads, aiderRulesFile } from '../trust/aiderConfig';

export const ASSET_TARGETS = [
  'playbook',
  'agents-md',
  'skills',
  'claude-md',
  'copilot-instructions',
  'cursor-rules',
  'clinerules',
  'gemini-md',
  'aider-conventions',
  'windsurf-rules',
  'kiro-steering',
  'qwen-md',
] as const;
export type AssetTarget = (typeof ASSET_TARGETS)[number];

export interface TargetInfo {
  id: AssetTarget;
  label: string;
  /** Files it writes (patterns for per-folder or per-skill files). */
  paths: string[];
  defaultEnabled: boolean;
  /** The playbook is the source of every other target: it cannot be turned off. */
  required?: boolean;
}

export const TARGETS: readonly TargetInfo[] = [
  { id: 'playbook', label: 'Playbook', paths: [DEFAULT_PLAYBOOK_PATH], defaultEnabled: true, required: true },
  {
    id: 'agents-md',
    label: 'AGENTS.md (Codex, Amp, OpenCode, Copilot, Cursor…)',
    paths: ['AGENTS.md', '<folder>/AGENTS.md'],
    defaultEnabled: true,
  },
  { id: 'skills', label: 'Skills (SKILL.md)', paths: ['<root>/<name>/SKILL.md'], defaultEnabled: true },
  { id: 'claude-md', label: 'CLAUDE.md (Claude Code)', paths: ['CLAUDE.md'], defaultEnabled: false },
  {
    id: 'copilot-instructions',
    label: 'Copilot repository instructions',
    paths: ['.github/copilot-instructions.md'],
    defaultEnabled: false,
  },
  { id: 'cursor-rules', label: 'Cursor project rule', paths: ['.cursor/rules/combee.mdc'], defaultEnabled: false },
  { id: 'clinerules', label: 'Cline rules', paths: ['.clinerules/combee.md'], defaultEnabled: false },
  { id: 'gemini-md', label: 'GEMINI.md (Gemini CLI)', paths: ['GEMINI.md'], defaultEnabled: false },
  {
    id: 'aider-conventions',
    label: 'Aider conventions (the file `read:` names in .aider.conf.yml)',
    paths: [AIDER_CONVENTIONS],
    defaultEnabled: false,
  },
  { id: 'windsurf-rules', label: 'Windsurf workspace rule', paths: [WINDSURF_RULE], defaultEnabled: false },
  { id: 'kiro-steering', label: 'Kiro steering file', paths: [KIRO_STEERING], defaultEnabled: false },
  { id: 'qwen-md', label: 'QWEN.md (Qwen Code)', paths: [QWEN_MD], defaultEnabled: false },
];

export interface AssetSettings {
  /** Enabled targets; `playbook` is always rendered. */
  targets: AssetTarget[];
  playbookPath: string;
  /** Token budget of each rules block (AGENTS.md, CLAUDE.md, …). */
  budgetTokens: number;
  /** Skill roots: `.claude/skills` by default; `.github/skills`, `.agents/skills` optional. */
  skillRoots: string[];
  /** Sessions a procedure must recur in before it becomes a skill. */
  skillMinSessions: number;
  /** Token budget of the playbook itself: past it, the least helpful rules are proposed for retiring. */
  playbookBudgetTokens?: number;
  /** Runs without a session that had a rule in play before it is stale (proposed for retiring). */
  staleAfterRuns?: number;
  /** The agents of the workspace's sessions: each loads at most `agentBudgetTokens` of Combee's text at session start. */
  agents?: LoadingAgent[];
  /** Tokens of Combee's text one agent may load at session start, all its files together (see contextCost.ts). */
  agentBudgetTokens?: number;
}

/** One agent loads one rules block's worth of Combee's text at most, however many of its files Combee writes. */
export const DEFAULT_AGENT_BUDGET_TOKENS = DEFAULT_RULES_BUDGET_TOKENS;
/** Below this a rules block holds hardly a rule: the per-agent budget lowers the blocks no further. */
const MIN_BLOCK_BUDGET_TOKENS = 100;

export const DEFAULT_ASSET_SETTINGS: AssetSettings = {
  targets: TARGETS.filter((t) => t.defaultEnabled).map((t) => t.id),
  playbookPath: DEFAULT_PLAYBOOK_PATH,
  budgetTokens: DEFAULT_RULES_BUDGET_TOKENS,
  skillRoots: [DEFAULT_SKILL_ROOT],
  skillMinSessions: 2,
};

/** Fills defaults and drops unknown target names (settings come from users). */
export function resolveAssetSettings(partial: Partial<AssetSettings> = {}): AssetSettings {
  const targets = (partial.targets ?? DEFAULT_ASSET_SETTINGS.targets).filter((t): t is AssetTarget =>
    (ASSET_TARGETS as readonly string[]).includes(t),
  );
  return {
    targets: [...new Set<AssetTarget>(['playbook', ...targets])],
    playbookPath: partial.playbookPath || DEFAULT_ASSET_SETTINGS.playbookPath,
    budgetTokens:
      partial.budgetTokens && partial.budgetTokens > 0 ? partial.budgetTokens : DEFAULT_ASSET_SETTINGS.budgetTokens,
    skillRoots:
      partial.skillRoots && partial.skillRoots.length > 0 ? partial.skillRoots : DEFAULT_ASSET_SETTINGS.skillRoots,
    skillMinSessions: partial.skillMinSessions ?? DEFAULT_ASSET_SETTINGS.skillMinSessions,
    ...(partial.agents && partial.agents.length > 0 ? { agents: partial.agents } : {}),
    agentBudgetTokens:
      partial.agentBudgetTokens && partial.agentBudgetTokens > 0
        ? partial.agentBudgetTokens
        : DEFAULT_AGENT_BUDGET_TOKENS,
  };
}

/** The targets a render covers: the enabled ones and every one whose file already holds Combee's rules. */
export function renderedTargets(
  partial: Partial<AssetSettings> | undefined,
  readFile: (relPath: string) => string | undefined,
): AssetTarget[] {
  const on = new Set([...resolveAssetSettings(partial).targets, ...targetsHoldingRules(readFile)]);
  return ASSET_TARGETS.filter((t) => on.has(t));
}

/**
 * The targets a proposal's files belong to (so re-rendering part of it writes the same kinds of files). `aiderFile`:
 * the file the repository's Aider config names for Combee's rules (see aiderRulesFile), when it names one.
 */
export function targetsOfFiles(
  paths: readonly string[],
  playbookPath = DEFAULT_PLAYBOOK_PATH,
  aiderFile?: string,
): AssetTarget[] {
  const found = new Set<AssetTarget>(['playbook']);
  const single: Record<string, AssetTarget> = {
    'CLAUDE.md': 'claude-md',
    '.github/copilot-instructions.md': 'copilot-instructions',
    '.cursor/rules/combee.mdc': 'cursor-rules',
    '.clinerules/combee.md': 'clinerules',
    '.clinerules': 'clinerules',
    'GEMINI.md': 'gemini-md',
    [WINDSURF_RULE]: 'windsurf-rules',
    [KIRO_STEERING]: 'kiro-steering',
    [QWEN_MD]: 'qwen-md',
  };
  // a folder's own CLAUDE.md or GEMINI.md imports its AGENTS.md
  const inFolder: Array<[string, AssetTarget]> = [
    [`/${CLAUDE_MD}`, 'claude-md'],
    [`/${GEMINI_MD}`, 'gemini-md'],
  ];
  for (const path of paths) {
    if (path === playbookPath) continue;
    if (aiderFile !== undefined && path === aiderFile && path !== AGENTS_MD) found.add('aider-conventions');
    else if (single[path]) found.add(single[path]);
    else if (path === 'AGENTS.md' || path.endsWith('/AGENTS.md')) found.add('agents-md');
    else if (inFolder.some(([end]) => path.endsWith(end)))
      found.add(inFolder.find(([end]) => path.endsWith(end))?.[1] ?? 'playbook');
    else if (path.endsWith('/SKILL.md')) found.add('skills');
  }
  return [...found];
}

export interface RenderAssetsInput {
  /** The workspace folder (absolute); named in warnings — files are read through `readFile`. */
  workspace: string;
  /** The playbook after the run. */
  playbook: Playbook;
  /** The proposal's rule changes with provenance; `scope`/`kind` from the delta's ADD ops when known. */
  rules: RuleWithScope[];
  /** Lessons of the run (see `lessonsFromRecord`): skills and rule scopes come from them. */
  lessons: Lesson[];
  /** Current text of a workspace-relative file, undefined when it does not exist (or is a folder). */
  readFile: (relPath: string) => string | undefined;
  /** Folder names inside a workspace-relative folder ([] when absent); optional, improves skill updates. */
  listDir?: (relPath: string) => string[];
  /** Folders with an AGENTS.md holding a Combee block (from a previous run); keeps their rules there. */
  nestedAgentsFolders?: string[];
  settings?: Partial<AssetSettings>;
  warn?: (message: string) => void;
  /** This machine's counts: the playbook's counters rank rules only as far as they confirm them (none without). */
  local?: LocalCounts;
  /** Held-back rules (see trust/hold.ts): only in the playbook, marked when `marks` names them; nowhere else. */
  hold?: {
    ids: ReadonlySet<string>;
    marks?: ReadonlyMap<string, readonly RuleFlag[]>;
    /** The playbook the other assets are drawn from when a flagged change edits or removes a rule (hold.ts). */
    others?: Playbook;
  };
}

/**
 * What the other assets may draw from: the playbook without the held rules, and lessons that neither became a held
 * rule nor read as risky themselves (skills quote lessons, not bullets).
 */
function visibleInputs(input: RenderAssetsInput): { playbook: Playbook; rules: RuleWithScope[]; lessons: Lesson[] } {
  const held = input.hold?.ids ?? new Set<string>();
  const rules = input.rules.filter((r) => !held.has(r.id));
  // A lesson belongs to a rule as in lessonOf: from one of its sessions, with similar words (tokens computed once).
  const shapes = (list: RuleWithScope[]) =>
    list
      .filter((r) => r.content)
      .map((r) => ({ traces: new Set(r.support.map((e) => e.traceId)), words: tokens(r.content as string) }));
  const heldShapes = shapes(input.rules.filter((r) => held.has(r.id)));
  const keptShapes = shapes(rules);
  const of = (list: ReturnType<typeof shapes>, lesson: Lesson, words: Set<string>) =>
    list.some((r) => r.traces.has(lesson.evidence.traceId) && jaccard(r.words, words) >= LESSON_MATCH);
  const lessons = input.lessons.filter((l) => {
    const words = tokens(l.content);
    return !of(heldShapes, l, words) && (of(keptShapes, l, words) || screenText(l.content).length === 0);
  });
  // Drawn from `others`, a flagged edit or removal is not applied at all: its rule stays as it was, so only the held
  // ADDs and held existing rules are left out.
  const others = input.hold?.others;
  const edited = new Set(input.rules.filter((r) => r.op !== 'ADD' && held.has(r.id)).map((r) => r.id));
  const playbook = others
    ? withoutBullets(others, new Set([...held].filter((id) => !edited.has(id))))
    : withoutBullets(input.playbook, held);
  return { playbook, rules, lessons };
}

/**
 * Whether the playbook holds a rule kept out of the agents' files, one already there: a flagged rule this proposal
 * adds is in no file until accepted by name, and then it is trusted.
 */
function holdsHeldRules(input: RenderAssetsInput): boolean {
  const held = input.hold?.ids;
  if (!held || held.size === 0) return false;
  const added = new Set(input.rules.filter((r) => r.op === 'ADD').map((r) => r.id));
  return bullets(input.playbook).some((b) => held.has(b.id) && !added.has(b.id));
}

/** Distinct sessions behind each rule a proposal adds, rewords or merges: its evidence in the agents' files. */
function sessionsBehind(rules: readonly RuleWithScope[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of rules) {
    if (r.op === 'REMOVE') continue;
    // a team bundle's sessions corroborate it too
    const sessions = Math.max(new Set(r.support.map((s) => s.traceId)).size, r.corroboration?.sessions ?? 0);
    out.set(r.id, Math.max(out.get(r.id) ?? 0, sessions));
  }
  return out;
}

/** The AGENTS.md files (root first) that hold Combee's rules once `files` are written: what an import can point to. */
function agentsFilesHoldingRules(
  files: readonly FileChange[],
  readFile: (relPath: string) => string | undefined,
  nestedFolders: readonly string[] = [],
): string[] {
  const holds = (text: string, path: string) => {
    try {
      return findManagedBlocks(text, path).length > 0;
    } catch {
      return false; // broken markers: the renderer reported them and left the file alone
    }
  };
  const written = files.filter((f) => f.path === AGENTS_MD || f.path.endsWith(`/${AGENTS_MD}`));
  const out = written.filter((f) => holds(f.after, f.path)).map((f) => f.path);
  for (const path of [AGENTS_MD, ...nestedFolders.map((folder) => `${folder}/${AGENTS_MD}`)]) {
    if (written.some((f) => f.path === path) || out.includes(path)) continue;
    const text = readFile(path);
    if (text !== undefined && holds(text, path)) out.push(path);
  }
  return out.sort((a, b) => (a === AGENTS_MD ? -1 : b === AGENTS_MD ? 1 : a.localeCompare(b)));
}

interface RulesFiles {
  /** AGENTS.md, root and folders. */
  agentsMd: FileChange[];
  /** The other agents' files: imports of AGENTS.md, or their own blocks. */
  others: FileChange[];
}

/** Every rules target that is on, rendered with one block budget. */
function renderRulesTargets(
  on: ReadonlySet<AssetTarget>,
  common: RulesTargetInput,
  input: RenderAssetsInput,
  warn: ((message: string) => void) | undefined,
): RulesFiles {
  const quiet = { ...common, warn };
  const agentsMd = on.has('agents-md') ? renderAgentsMd({ ...quiet, nestedFolders: input.nestedAgentsFolders }) : [];
  // Claude Code and Gemini CLI import: with AGENTS.md holding the rules, their files import it instead of a copy,
  // a folder's own file its folder's AGENTS.md (both load a folder's file when they work there)
  const withRules = on.has('agents-md')
    ? agentsFilesHoldingRules(agentsMd, input.readFile, input.nestedAgentsFolders)
    : [];
  const single: Array<[AssetTarget, (i: RulesTargetInput) => FileChange | undefined, string?]> = [
    ['claude-md', renderClaudeMd, CLAUDE_MD],
    ['copilot-instructions', renderCopilotInstructions],
    ['cursor-rules', renderCursorRule],
    ['clinerules', renderClineRule],
    ['gemini-md', renderGeminiMd, GEMINI_MD],
    ['windsurf-rules', renderWindsurfRule],
    ['kiro-steering', renderKiroSteering],
    ['qwen-md', renderQwenMd],
  ];
  const others: FileChange[] = [];
  for (const [target, render, importer] of single) {
    if (!on.has(target)) continue;
    if (!importer || !withRules.includes(AGENTS_MD)) {
      const change = render(quiet);
      if (change) others.push(change);
      continue;
    }
    for (const agentsFile of withRules) {
      const path = `${agentsFile.slice(0, agentsFile.length - AGENTS_MD.length)}${importer}`;
      const change = renderImportOf(path, agentsFile, input.readFile, { dotSlash: target === 'gemini-md', warn });
      if (change) others.push(change);
    }
  }
  if (on.has('aider-conventions')) {
    const change = renderAiderTarget(common, input, on.has('agents-md'), warn);
    if (change) others.push(change);
  }
  return { agentsMd, others };
}

/**
 * Aider reads only what its config names: a block goes in that file (a CONVENTIONS file first), none without a config
 * naming one, and none when the file it names is AGENTS.md holding the rules already.
 */
function renderAiderTarget(
  common: RulesTargetInput,
  input: RenderAssetsInput,
  agentsMdOn: boolean,
  warn: ((message: string) => void) | undefined,
): FileChange | undefined {
  const reads = aiderReads(input.readFile, input.workspace);
  for (const refused of reads.refused) warn?.(refused);
  const path = aiderRulesFile(reads.files);
  if (path === undefined) {
    warn?.(
      `Aider's rules are not written: ${AIDER_CONFIG} names no rules file under \`read:\` (add \`read: ${AIDER_CONVENTIONS}\` for Aider to load one)`,
    );
    return undefined;
  }
  if (path === AGENTS_MD && agentsMdOn) return undefined;
  return renderAiderConventions({ ...common, warn }, path);
}

/**
 * The rules files with every agent of the workspace within its budget: while one would load more of Combee's text
 * than `agentBudgetTokens` (an agent that loads several of Combee's files, Copilot with AGENTS.md and its own
 * instructions), the blocks are rendered again with a smaller budget, the best-evidenced rules kept (rankRules).
 */
function rulesWithinAgentBudgets(
  settings: AssetSettings,
  readFile: (relPath: string) => string | undefined,
  warn: (message: string) => void,
  render: (blockBudget: number, quiet: boolean) => RulesFiles,
): RulesFiles {
  if (!settings.agents?.length) return render(settings.budgetTokens, false);
  const limit = settings.agentBudgetTokens ?? DEFAULT_AGENT_BUDGET_TOKENS;
  const over = (files: RulesFiles) =>
    contextCost(settings.agents ?? [], readFile, [...files.agentsMd, ...files.others]).filter((c) => c.after > limit);
  let budget = settings.budgetTokens;
  let files = render(budget, true);
  // tokens are not linear in a block's budget (headers, a rule's line whole or not at all): a few rounds
  for (let tries = 0; tries < 8; tries++) {
    const heavy = over(files);
    if (heavy.length === 0) break;
    const worst = Math.max(...heavy.map((c) => c.after));
    const next = Math.max(MIN_BLOCK_BUDGET_TOKENS, Math.min(budget - 1, Math.floor((budget * limit) / worst)));
    if (next >= budget) break;
    budget = next;
    files = render(budget, true);
  }
  // rendered once more with the warnings on: a rule the smaller blocks leave out is named
  files = render(budget, false);
  if (budget < settings.budgetTokens)
    warn(
      `the rules blocks hold ${budget} tokens (not ${settings.budgetTokens}) so that each agent loads at most ${limit} tokens of Combee's text at session start (combee.assets.agentBudgetTokens)`,
    );
  for (const c of over(files))
    warn(
      `${AGENT_LOADING[c.agent].label} loads ${c.after} tokens of Combee's text at session start, over its budget of ${limit} (combee.assets.agentBudgetTokens)`,
    );
  return files;
}

/**
 * Every enabled target, and every file already holding Combee's rules, rendered against the new playbook, as file
 * changes (unchanged files are left out).
 */
export function renderAssets(input: RenderAssetsInput): FileChange[] {
  const settings = resolveAssetSettings(input.settings);
  const on = new Set(renderedTargets(settings, input.readFile));
  // Multi-root workspaces: say which folder a warning is about.
  const warn = (message: string) => input.warn?.(`${basename(input.workspace)}: ${message}`);
  const files: FileChange[] = [];
  const push = (change: FileChange | undefined) => {
    if (change && !files.some((f) => f.path === change.path)) files.push(change);
  };

  const currentPlaybook = input.readFile(settings.playbookPath);
  // A new, empty playbook is not worth a file.
  const marks = input.hold?.marks;
  const marked = marks ? withMarks(input.playbook, marks) : input.playbook;
  const unmarked = marks && input.hold?.others ? withRemovalMarks(marked, input.hold.others, marks) : marked;
  const shownPlaybook = withAuthorMarks(
    withCorroborationMarks(
      unmarked,
      new Map(input.rules.flatMap((r) => (r.corroboration && r.op !== 'REMOVE' ? [[r.id, r.corroboration]] : []))),
    ),
    authoredChanges(input.rules),
  );
  if (currentPlaybook !== undefined || bullets(input.playbook).length > 0)
    push(renderPlaybookChange(settings.playbookPath, currentPlaybook, shownPlaybook));

  const visible = visibleInputs(input);
  const scopes = resolveScopes({
    rules: visible.rules,
    lessons: visible.lessons,
    nestedFolders: input.nestedAgentsFolders,
    readFile: input.readFile,
  });
  const common = (budgetTokens: number): RulesTargetInput => ({
    playbook: visible.playbook,
    playbookPath: settings.playbookPath,
    scopes,
    readFile: input.readFile,
    budgetTokens,
    fresh: new Set(visible.rules.filter((r) => r.op === 'ADD' || r.op === 'UPDATE').map((r) => r.id)),
    sessions: sessionsBehind(visible.rules),
    holdsHeldRules: holdsHeldRules(input),
    ...(input.local ? { local: input.local } : {}),
    warn,
  });
  const rules = rulesWithinAgentBudgets(settings, input.readFile, warn, (budget, quiet) =>
    renderRulesTargets(on, common(budget), input, quiet ? undefined : warn),
  );
  for (const change of rules.agentsMd) push(change);
  if (on.has('skills')) {
    const skills = renderSkills({
      playbook: visible.playbook,
      playbookPath: settings.playbookPath,
      lessons: visible.lessons,
      rules: visible.rules,
      roots: settings.skillRoots,
      readFile: input.readFile,
      listDir: input.listDir,
      minSessions: settings.skillMinSessions,
      warn,
    });
    for (const change of skills) push(change);
  }
  for (const change of rules.others) push(change);
  // the hooks that enforce marked rules follow the playbook's marks, whatever the targets
  for (const change of renderEnforcement({
    playbook: input.playbook,
    readFile: input.readFile,
    held: input.hold?.ids,
    warn,
  }))
    push(change);
  return files;
}
