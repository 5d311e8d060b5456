import { AGENT_LOADING, AGENTS_WITHOUT_SESSIONS, loadsAtStart, type LoadingAgent } from '../agents/loading';
import { AGENTS, type AgentId } from '../trace/model';
import { TARGETS, type AssetTarget } from './targets';

// Without a setting, the targets follow the agents that work in the workspace: a rule is only worth something in a
// file the agent loads by itself (agents/loading.ts), and written once per agent: an agent that loads AGENTS.md is
// served by it when it is on, not by a second copy in its own file. Decided from the sessions' summaries alone.

const fileOf = (target: AssetTarget) => TARGETS.find((t) => t.id === target)?.paths[0] ?? target;

function ownTarget(agent: LoadingAgent): AssetTarget | undefined {
  const own = AGENT_LOADING[agent].own;
  const target = own && TARGETS.find((t) => !t.required && (t.paths[0] === own || t.paths[0].startsWith(`${own}/`)));
  // an agent that loads only what its config names (Aider) is served by its own target, which writes there
  if (target && (loadsAtStart(agent, target.paths[0]) || AGENT_LOADING[agent].configFile)) return target.id;
  return loadsAtStart(agent, fileOf('agents-md')) ? 'agents-md' : undefined;
}

/** The asset target each agent loads by itself, its own file first; none for agents without one Combee writes. */
export const AGENT_TARGET: Readonly<Record<AgentId, AssetTarget | undefined>> = Object.fromEntries(
  AGENTS.map((agent) => [agent, ownTarget(agent)]),
) as Record<AgentId, AssetTarget | undefined>;

export const AGENT_LABELS: Readonly<Record<AgentId, string>> = Object.fromEntries(
  AGENTS.map((agent) => [agent, AGENT_LOADING[agent].label]),
) as Record<AgentId, string>;

/**
 * The agents Combee reads no sessions of whose own target is rendered (turned on in the settings, or its file holding
 * Combee's rules): the only way to know one works in the workspace, so its context cost is shown too.
 */
export function agentsOfTargets(targets: readonly AssetTarget[]): LoadingAgent[] {
  return AGENTS_WITHOUT_SESSIONS.filter((agent) => {
    const own = ownTarget(agent);
    return own !== undefined && own !== 'agents-md' && targets.includes(own);
  });
}

/** The target that brings the rules to the agent: AGENTS.md when it is on and the agent loads it, else its own. */
export function targetServing(agent: AgentId, agentsMdOn: boolean): AssetTarget | undefined {
  return agentsMdOn && loadsAtStart(agent, fileOf('agents-md')) ? 'agents-md' : AGENT_TARGET[agent];
}

export interface TargetChoice {
  targets: AssetTarget[];
  /** Why each target beyond the playbook is on, one line each ("CLAUDE.md: 12 Claude Code sessions"). */
  reasons: string[];
  from: 'settings' | 'sessions';
}

const sessionsOf = (n: number, agent: AgentId) => `${n} ${AGENT_LABELS[agent]} ${n === 1 ? 'session' : 'sessions'}`;

/**
 * The targets of a run: the user's setting when there is one, else those on by default plus, for each agent the
 * sessions come from, the file that brings it the rules (see targetServing). In the order of TARGETS, whatever the
 * order of the sessions.
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
  const agentsMdOn = TARGETS.some((t) => t.id === 'agents-md' && t.defaultEnabled);
  const reasons: string[] = [];
  const targets: AssetTarget[] = [];
  for (const target of TARGETS) {
    const agents = [...perAgent]
      .filter(([agent]) => targetServing(agent, agentsMdOn) === target.id)
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
