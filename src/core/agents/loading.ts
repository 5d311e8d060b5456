import { z } from 'zod';
import { AGENTS } from '../trace/model';

// How each agent Combee reads sessions from loads context by itself: one table, every fact checked against the agent's
// documentation (cited per agent in docs/agents.md). Rendering, target choice, the rules in play and the context cost
// all read it; nothing else keeps a list of which agent loads which file.

/** A folder whose files of one extension the agent loads (all, or those marked always-on, see `note`). */
export interface RulesFolder {
  folder: string;
  extension: string;
}

/** A blocking hook run before a shell command: where it is configured and under which event. */
export interface ShellHook {
  /** Workspace-relative config file (or folder, for agents that run one script per event). */
  config: string;
  event: string;
  /** The tool name the event is matched on for shell commands, where the agent asks for one. */
  matcher?: string;
  /** How the hook says no. */
  blocks: string;
}

/** Agents Combee writes rules for without reading their sessions: their targets are chosen only in the settings. */
export const AGENTS_WITHOUT_SESSIONS = ['windsurf', 'kiro', 'qwen-code'] as const;
export const LoadingAgent = z.enum([...AGENTS, ...AGENTS_WITHOUT_SESSIONS]);
export type LoadingAgent = z.infer<typeof LoadingAgent>;

export interface AgentLoading {
  label: string;
  /** The rules file or folder named for it, where it has one (AGENTS.md for the agents that adopted it as theirs). */
  own?: string;
  /**
   * Files at the workspace root it loads into every session by itself, its own first. A file loaded only when another
   * is absent is in `fallback`, not here.
   */
  rootFiles: readonly string[];
  /** Folders of rule files it loads by itself. */
  rootFolders: readonly RulesFolder[];
  /** Loaded in place of `rootFiles[0]` when that file is absent (OpenCode reads CLAUDE.md when there is no AGENTS.md). */
  fallback?: string;
  /** File names it also loads from a folder below the root when it works there. */
  nestedFiles: readonly string[];
  /** Its own file pulls another in with a line `@path` (relative to the importing file), expanded when loaded. */
  atImports: boolean;
  /** Workspace-relative folders it looks in for skills (`<root>/<name>/SKILL.md`). */
  skillRoots: readonly string[];
  shellHook?: ShellHook;
  /** A config file of the repository that names the files it loads (Aider's `read:`), see trust/aiderConfig.ts. */
  configFile?: string;
  /** What the table cannot say in its fields (a setting that changes the files, a file loaded only when configured). */
  note?: string;
}

export const AGENT_LOADING: Readonly<Record<LoadingAgent, AgentLoading>> = {
  'claude-code': {
    label: 'Claude Code',
    own: 'CLAUDE.md',
    rootFiles: ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md'],
    rootFolders: [{ folder: '.claude/rules', extension: '.md' }],
    nestedFiles: ['CLAUDE.md'],
    atImports: true,
    skillRoots: ['.claude/skills'],
    shellHook: { config: '.claude/settings.json', event: 'PreToolUse', matcher: 'Bash', blocks: 'exit code 2' },
    note: 'Rules in .claude/rules with a `paths` front matter load only for matching files.',
  },
  codex: {
    label: 'Codex',
    own: 'AGENTS.md',
    rootFiles: ['AGENTS.md'],
    rootFolders: [],
    nestedFiles: ['AGENTS.md'],
    atImports: false,
    skillRoots: ['.agents/skills'],
    shellHook: {
      config: '.codex/hooks.json',
      event: 'PreToolUse',
      matcher: 'Bash',
      blocks: 'exit code 2, or permissionDecision "deny"',
    },
    note: 'AGENTS.override.md takes the place of AGENTS.md in its folder; project hooks run once the project is trusted.',
  },
  copilot: {
    label: 'Copilot',
    own: '.github/copilot-instructions.md',
    rootFiles: ['.github/copilot-instructions.md', 'AGENTS.md', 'CLAUDE.md'],
    rootFolders: [],
    nestedFiles: ['AGENTS.md'],
    atImports: false,
    skillRoots: ['.github/skills', '.claude/skills', '.agents/skills'],
    shellHook: { config: '.github/hooks/<name>.json', event: 'preToolUse', blocks: 'permissionDecision "deny"' },
    note: "CLAUDE.md is loaded by VS Code's local agent; hooks run in Copilot CLI and the cloud agent.",
  },
  cursor: {
    label: 'Cursor',
    own: '.cursor/rules',
    rootFiles: ['AGENTS.md'],
    rootFolders: [{ folder: '.cursor/rules', extension: '.mdc' }],
    nestedFiles: ['AGENTS.md'],
    atImports: false,
    skillRoots: ['.cursor/skills', '.claude/skills', '.codex/skills'],
    shellHook: { config: '.cursor/hooks.json', event: 'beforeShellExecution', blocks: 'permission "deny"' },
    note: 'Of .cursor/rules, only rules with alwaysApply: true load into every session.',
  },
  cline: {
    label: 'Cline',
    own: '.clinerules',
    rootFiles: ['.clinerules', 'AGENTS.md'],
    rootFolders: [{ folder: '.clinerules', extension: '.md' }],
    nestedFiles: [],
    atImports: false,
    skillRoots: ['.cline/skills'],
    shellHook: { config: '.clinerules/hooks/PreToolUse', event: 'PreToolUse', blocks: 'JSON "cancel": true' },
    note: '.clinerules is a folder of rule files, or (older repositories) one file; each detected rule file can be toggled off.',
  },
  'roo-code': {
    label: 'Roo Code',
    own: '.roo/rules',
    rootFiles: ['.roorules', 'AGENTS.md'],
    rootFolders: [{ folder: '.roo/rules', extension: '.md' }],
    nestedFiles: [],
    atImports: false,
    skillRoots: [],
    note: '.roorules is read only when .roo/rules is absent or empty; AGENTS.md can be turned off (roo-cline.useAgentRules).',
  },
  'gemini-cli': {
    label: 'Gemini CLI',
    own: 'GEMINI.md',
    rootFiles: ['GEMINI.md'],
    rootFolders: [],
    nestedFiles: ['GEMINI.md'],
    atImports: true,
    skillRoots: ['.gemini/skills', '.agents/skills'],
    shellHook: {
      config: '.gemini/settings.json',
      event: 'BeforeTool',
      matcher: 'run_shell_command',
      blocks: 'exit code 2, or decision "deny"',
    },
    note: 'The setting context.fileName can name other files (AGENTS.md) in place of GEMINI.md.',
  },
  opencode: {
    label: 'OpenCode',
    own: 'AGENTS.md',
    rootFiles: ['AGENTS.md'],
    rootFolders: [],
    fallback: 'CLAUDE.md',
    nestedFiles: ['AGENTS.md'],
    atImports: false,
    skillRoots: ['.opencode/skills', '.claude/skills', '.agents/skills'],
    shellHook: {
      config: '.opencode/plugins/<name>.js',
      event: 'tool.execute.before',
      matcher: 'bash',
      blocks: 'the plugin throws',
    },
    note: 'Files listed under `instructions` in opencode.json load too.',
  },
  continue: {
    label: 'Continue',
    own: '.continue/rules',
    rootFiles: [],
    rootFolders: [{ folder: '.continue/rules', extension: '.md' }],
    nestedFiles: [],
    atImports: false,
    skillRoots: [],
  },
  aider: {
    label: 'Aider',
    own: 'CONVENTIONS.md',
    configFile: '.aider.conf.yml',
    rootFiles: [],
    rootFolders: [],
    nestedFiles: [],
    atImports: false,
    skillRoots: [],
    note: 'Loads only the files named under `read:` in .aider.conf.yml (or --read), such as CONVENTIONS.md.',
  },
  windsurf: {
    label: 'Windsurf',
    own: '.windsurf/rules',
    rootFiles: ['AGENTS.md'],
    rootFolders: [{ folder: '.windsurf/rules', extension: '.md' }],
    nestedFiles: ['AGENTS.md'],
    atImports: false,
    skillRoots: [],
    note: 'Of .windsurf/rules, only rules with `trigger: always_on` load into every session; a folder AGENTS.md applies to its files.',
  },
  kiro: {
    label: 'Kiro',
    own: '.kiro/steering',
    rootFiles: ['AGENTS.md'],
    rootFolders: [{ folder: '.kiro/steering', extension: '.md' }],
    nestedFiles: [],
    atImports: false,
    skillRoots: [],
    note: 'Of .kiro/steering, files with `inclusion: always` (the default without front matter) load into every session.',
  },
  'qwen-code': {
    label: 'Qwen Code',
    own: 'QWEN.md',
    rootFiles: ['QWEN.md', 'AGENTS.md'],
    rootFolders: [],
    nestedFiles: [],
    atImports: true,
    skillRoots: [],
    note: 'A fork of Gemini CLI: `@path` imports in QWEN.md, relative to the file; .qwen/QWEN.local.md loads too (personal).',
  },
};

const inFolder = (path: string, { folder, extension }: RulesFolder) =>
  path.startsWith(`${folder}/`) && path.endsWith(extension) && !path.slice(folder.length + 1).includes('/');

/**
 * Whether the agent loads this workspace-relative file at the root by itself at session start. `exists` answers for
 * the fallback (OpenCode reads CLAUDE.md only without an AGENTS.md); without it the fallback never counts.
 */
export function loadsAtStart(agent: LoadingAgent, path: string, exists?: (path: string) => boolean): boolean {
  const model = AGENT_LOADING[agent];
  if (model.rootFiles.includes(path) || model.rootFolders.some((f) => inFolder(path, f))) return true;
  return path === model.fallback && exists !== undefined && !exists(model.rootFiles[0] ?? '');
}

/** Whether the agent loads a folder's own file of this name (`billing/AGENTS.md`) when it works in that folder. */
export function loadsInFolder(agent: LoadingAgent, path: string): boolean {
  const at = path.lastIndexOf('/');
  return at > 0 && AGENT_LOADING[agent].nestedFiles.includes(path.slice(at + 1));
}

/** Every file and folder any agent loads by itself at the root: where a rule can be in play. */
export function rootFilesOfAnyAgent(): string[] {
  const all = Object.values(AGENT_LOADING).flatMap((m) => [...m.rootFiles, ...(m.fallback ? [m.fallback] : [])]);
  return [...new Set(all)].sort();
}

/** The skill roots the agents look in, each once, in the agents' order then the roots' own. */
export function skillRootsOf(agents: Iterable<LoadingAgent>): string[] {
  const roots: string[] = [];
  for (const agent of agents)
    for (const root of AGENT_LOADING[agent].skillRoots) if (!roots.includes(root)) roots.push(root);
  return roots;
}

/**
 * The fewest skill roots that reach every agent that loads skills (a skill written once per agent): each time the root
 * most of the agents not yet reached look in, the earlier agent's and root's first on a tie.
 */
export function skillRootsCovering(agents: readonly LoadingAgent[]): string[] {
  let open = agents.filter((agent) => AGENT_LOADING[agent].skillRoots.length > 0);
  const chosen: string[] = [];
  while (open.length > 0) {
    const candidates = skillRootsOf(open);
    const reach = (root: string) => open.filter((agent) => AGENT_LOADING[agent].skillRoots.includes(root)).length;
    const best = candidates.reduce((a, b) => (reach(b) > reach(a) ? b : a));
    chosen.push(best);
    open = open.filter((agent) => !AGENT_LOADING[agent].skillRoots.includes(best));
  }
  return chosen;
}
