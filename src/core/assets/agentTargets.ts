import type { AgentId } from '../trace/model';
import { TARGETS, type AssetTarget } from './targets';

// Without a setting, the targets follow the agents that work in the workspace: a rule is only worth something in a
// file the agent loads by itself (see learn/inPlay.ts, AGENT_READS). Decided from the sessions' summaries alone.

/** The asset target each agent loads by itself; none for agents without a project rules file of their own. */
export const AGENT_TARGET: Readonly<Record<AgentId, AssetTarget | undefined>> = {
  'claude-code': 'claude-md',
  codex: 'agents-md',
  opencode: 'agents-md',
  copilot: 'copilot-instructions',
  cursor: 'cursor-rules',
  cline: 'clinerules',
  'roo-code': 'clinerules',
  'gemini-cli': 'gemini-md',
  continue: undefined,
  aider: undefined,
};

export const AGENT_LABELS: Readonly<Record<AgentId, string>> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  opencode: 'OpenCode',
  copilot: 'Copilot',
  cursor: 'Cursor',
  cline: 'Cline',
  'roo-code': 'Roo Code',
  'gemini-cli': 'Gemini CLI',
  continue: 'Continue',
  aider: 'Aider',
};

export interface TargetChoice {
  targets: AssetTarget[];
  /** Why each target beyond the playbook is on, one line each ("CLAUDE.md: 12 Claude Code sessions"). */
  reasons: string[];
  from: 'settings' | 'sessions';
}

const fileOf = (target: AssetTarget) => TARGETS.find((t) => t.id === target)?.paths[0] ?? target;

const sessionsOf = (n: number, agent: AgentId) => `${n} ${AGENT_LABELS[agent]} ${n === 1 ? 'session' : 'sessions'}`;

/**
 * The targets of a run: the user's setting when there is one, else those on by default plus each agent's own file
 * for the agents the sessions come from. In the order of TARGETS, whatever the order of the sessions.
 */
export function chooseTargets(
  configured: readonly AssetTarget[] | undefined,
  sessions: ReadonlyArray<{ agent: AgentId }>,
): TargetChoice {
  if (configured !== undefined) {
    const targets = TARGETS.filter((t) => t.required || configured.includes(t.id)).map((t) => t.id);
    return {
      targets,
      reasons: targets
        .filter((t) => t !== 'playbook')
        .map((t) => `${t === 'skills' ? 'Skills' : fileOf(t)}: set in the settings`),
      from: 'settings',
    };
  }
  const perAgent = new Map<AgentId, number>();
  for (const s of sessions) perAgent.set(s.agent, (perAgent.get(s.agent) ?? 0) + 1);
  const reasons: string[] = [];
  const targets: AssetTarget[] = [];
  for (const target of TARGETS) {
    const agents = [...perAgent]
      .filter(([agent]) => AGENT_TARGET[agent] === target.id)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([agent, count]) => sessionsOf(count, agent));
    if (!target.defaultEnabled && agents.length === 0) continue;
    targets.push(target.id);
    if (target.required) continue;
    const why = [...(target.defaultEnabled ? ['on by default'] : []), ...agents].join(', ');
    reasons.push(`${target.id === 'skills' ? 'Skills' : fileOf(target.id)}: ${why}`);
  }
  return { targets, reasons, from: 'sessions' };
}
