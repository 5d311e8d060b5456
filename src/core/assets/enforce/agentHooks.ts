import { AGENT_LOADING } from '../../agents/loading';
import type { AgentId } from '../../trace/model';
import type { HookConfigShape } from './hookConfig';

// What each agent that can stop a shell command before it runs needs from Combee: the project file its hooks live in,
// the event and entry that run Combee's script, and whether Combee may create that file. Where Combee reads the agent's
// sessions, its hook file, event and shell matcher are the loading model's (agents/loading.ts, cited in
// docs/agents.md); the rest is cited in docs/enforcement.md. All of them run the same script (hookScript.ts) from
// `.combee/hooks/`, which reads the stdin of the agent named by its argument and answers in that agent's protocol.

/** The agents whose hook Combee writes (Claude Code's lives in `.claude/hooks/`, the others share `.combee/hooks/`). */
export const HOOK_AGENTS = ['claude-code', 'codex', 'cursor', 'copilot', 'gemini-cli', 'windsurf'] as const;
export type HookAgent = (typeof HOOK_AGENTS)[number];

export const SHARED_HOOK_DIR = '.combee/hooks';
export const SHARED_HOOK_SCRIPT_PATH = `${SHARED_HOOK_DIR}/combee-enforce.mjs`;
export const SHARED_HOOK_DATA_PATH = `${SHARED_HOOK_DIR}/combee-enforce.json`;

/**
 * The command an agent's hooks file runs: the shared script from the repository's root, whatever folder the agent is
 * in. Each of these agents runs a hook command through a shell in the project, where git finds the root (outside a
 * repository node finds no script and fails, which none of them reads as a denial).
 */
export function sharedHookCommand(agent: Exclude<HookAgent, 'claude-code'>): string {
  return `node "$(git rev-parse --show-toplevel)/${SHARED_HOOK_SCRIPT_PATH}" ${agent}`;
}

export interface AgentHookFacts {
  agent: HookAgent;
  /** As a person says it: "Codex". */
  label: string;
  /** Whose sessions it stops (Windsurf's sessions are not read yet: its hook is only ever rendered from a mark). */
  sessions?: AgentId;
  /** The project file that registers the hook. */
  configPath: string;
  /** Combee's entry in that file; none when Combee owns the whole file (Copilot's `.github/hooks/*.json`). */
  shape?: HookConfigShape;
  /**
   * Whether Combee may create the file when the repository has none: a file that holds hooks only, which the agent
   * runs only once the project (or the hook itself) is trusted. A general settings file (Gemini CLI's) is only edited.
   */
  creates: boolean;
}

const sharedEntry = (agent: Exclude<HookAgent, 'claude-code'>) => sharedHookCommand(agent);

/** The loading model's hook of an agent whose sessions Combee reads: its file, event and shell matcher. */
function modelHook(agent: AgentId): { config: string; event: string; matcher?: string } {
  const hook = AGENT_LOADING[agent].shellHook;
  if (!hook) throw new Error(`agents/loading.ts records no shell hook for ${agent}`);
  return hook;
}
const CODEX = modelHook('codex');
const CURSOR = modelHook('cursor');
const COPILOT = modelHook('copilot');
const GEMINI = modelHook('gemini-cli');

export const AGENT_HOOKS: Record<Exclude<HookAgent, 'claude-code'>, AgentHookFacts> = {
  codex: {
    agent: 'codex',
    label: AGENT_LOADING.codex.label,
    sessions: 'codex',
    configPath: CODEX.config,
    shape: {
      event: CODEX.event,
      entry: { matcher: CODEX.matcher, hooks: [{ type: 'command', command: sharedEntry('codex') }] },
      command: sharedEntry('codex'),
      nested: true,
    },
    creates: true,
  },
  cursor: {
    agent: 'cursor',
    label: AGENT_LOADING.cursor.label,
    sessions: 'cursor',
    configPath: CURSOR.config,
    shape: {
      event: CURSOR.event,
      entry: { command: sharedEntry('cursor') },
      command: sharedEntry('cursor'),
      nested: false,
      base: { version: 1 },
    },
    creates: true,
  },
  copilot: {
    agent: 'copilot',
    label: 'GitHub Copilot',
    sessions: 'copilot',
    // the folder's JSON files are all loaded (`<name>.json`): Combee's is a file of its own
    configPath: COPILOT.config.replace('<name>', 'combee-enforce'),
    creates: true,
  },
  'gemini-cli': {
    agent: 'gemini-cli',
    label: AGENT_LOADING['gemini-cli'].label,
    sessions: 'gemini-cli',
    configPath: GEMINI.config,
    shape: {
      event: GEMINI.event,
      entry: {
        matcher: GEMINI.matcher,
        hooks: [{ type: 'command', name: 'combee-enforce', command: sharedEntry('gemini-cli') }],
      },
      command: sharedEntry('gemini-cli'),
      nested: true,
    },
    creates: false,
  },
  windsurf: {
    agent: 'windsurf',
    label: 'Windsurf',
    configPath: '.windsurf/hooks.json',
    shape: {
      event: 'pre_run_command',
      entry: { command: sharedEntry('windsurf'), show_output: true },
      command: sharedEntry('windsurf'),
      nested: false,
    },
    creates: true,
  },
};

/** Copilot's hooks file, all Combee's own: one `preToolUse` command, or none once the last rule is out. */
export function copilotHookFile(on: boolean): string {
  const hooks = on
    ? { [COPILOT.event]: [{ type: 'command', bash: sharedHookCommand('copilot'), timeoutSec: 10 }] }
    : {};
  return `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`;
}

export const HOOK_LABELS: Record<HookAgent, string> = {
  'claude-code': 'Claude Code',
  codex: AGENT_HOOKS.codex.label,
  cursor: AGENT_HOOKS.cursor.label,
  copilot: AGENT_HOOKS.copilot.label,
  'gemini-cli': AGENT_HOOKS['gemini-cli'].label,
  windsurf: AGENT_HOOKS.windsurf.label,
};

/** The agent hooks a repository can take: Claude Code's always; another's where its file is, or Combee may create it. */
export function hookAgentsAvailable(readFile: (rel: string) => string | undefined): Set<HookAgent> {
  const available = new Set<HookAgent>(['claude-code']);
  for (const facts of Object.values(AGENT_HOOKS))
    if (facts.creates || readFile(facts.configPath) !== undefined) available.add(facts.agent);
  return available;
}
