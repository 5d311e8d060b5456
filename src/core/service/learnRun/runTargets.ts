import { skillRootsCovering, type LoadingAgent } from '../../agents/loading';
import { AGENT_LABELS, agentsOfTargets, chooseTargets } from '../../assets/agentTargets';
import { DEFAULT_SKILL_ROOT } from '../../assets/skills';
import { renderedTargets, TARGETS, type AssetTarget } from '../../assets/targets';
import type { AgentId } from '../../trace/model';

export interface RunTargets {
  targets: AssetTarget[];
  /** One line per target beyond the playbook, saying why it is rendered (kept on the proposal, logged). */
  reasons: string[];
  /** Where skills are written: the setting, else the folders the workspace's agents look in. */
  skillRoots: string[];
  /**
   * The agents of the sessions, most sessions first, then those without sessions Combee reads whose own target is
   * rendered (Windsurf, Kiro, Qwen Code): whose context cost a proposal shows.
   */
  agents: LoadingAgent[];
}

/** The agents of the sessions, most sessions first (then by name). */
function agentsOf(sessions: ReadonlyArray<{ agent: AgentId }>): AgentId[] {
  const perAgent = new Map<AgentId, number>();
  for (const s of sessions) perAgent.set(s.agent, (perAgent.get(s.agent) ?? 0) + 1);
  return [...perAgent].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1)).map(([agent]) => agent);
}

/**
 * The skill roots of a run: the user's setting when there is one; else the fewest folders that reach every agent of
 * the sessions (most sessions first), none for agents without skills; the default root for a workspace without
 * sessions.
 */
function chooseSkillRoots(
  configured: readonly string[] | undefined,
  sessions: ReadonlyArray<{ agent: AgentId }>,
): { roots: string[]; reason: string } {
  if (configured !== undefined && configured.length > 0)
    return { roots: [...configured], reason: `Skills: in ${configured.join(', ')} (set in the settings)` };
  if (sessions.length === 0) return { roots: [DEFAULT_SKILL_ROOT], reason: `Skills: in ${DEFAULT_SKILL_ROOT}` };
  const agents = agentsOf(sessions);
  const roots = skillRootsCovering(agents);
  const who = agents.map((a) => AGENT_LABELS[a]).join(', ');
  return {
    roots,
    reason:
      roots.length > 0
        ? `Skills: in ${roots.join(', ')} (looked in by ${who})`
        : `Skills: none written (no skill folder is looked in by ${who})`,
  };
}

/**
 * What a learning run renders: the configured targets or, without a setting, those the workspace's agents load; then
 * every file already holding Combee's rules, kept in sync. Skills go where the agents look for them.
 */
export function runTargets(
  configured: readonly AssetTarget[] | undefined,
  sessions: ReadonlyArray<{ agent: AgentId }>,
  readFile: (relPath: string) => string | undefined,
  configuredSkillRoots?: readonly string[],
): RunTargets {
  const choice = chooseTargets(configured, sessions);
  const skills = chooseSkillRoots(configuredSkillRoots, sessions);
  const targets = renderedTargets({ targets: choice.targets }, readFile).filter(
    (t) => t !== 'skills' || skills.roots.length > 0,
  );
  const synced = targets
    .filter((t) => !choice.targets.includes(t))
    .map((t) => `${TARGETS.find((info) => info.id === t)?.paths[0] ?? t}: already holds Combee's rules (kept in sync)`);
  const reasons = choice.reasons.flatMap((r) =>
    r.startsWith('Skills:') ? (choice.targets.includes('skills') ? [`${r}; ${skills.reason.slice(8)}`] : []) : [r],
  );
  return {
    targets,
    reasons: [...reasons, ...synced],
    skillRoots: skills.roots,
    agents: [...agentsOf(sessions), ...agentsOfTargets(targets)],
  };
}
