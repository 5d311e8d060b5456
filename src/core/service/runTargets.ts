import { chooseTargets } from '../assets/agentTargets';
import { renderedTargets, TARGETS, type AssetTarget } from '../assets/targets';
import type { AgentId } from '../trace/model';

export interface RunTargets {
  targets: AssetTarget[];
  /** One line per target beyond the playbook, saying why it is rendered (kept on the proposal, logged). */
  reasons: string[];
}

/**
 * What a learning run renders: the configured targets or, without a setting, those the workspace's agents load; then
 * every file already holding Combee's rules, kept in sync.
 */
export function runTargets(
  configured: readonly AssetTarget[] | undefined,
  sessions: ReadonlyArray<{ agent: AgentId }>,
  readFile: (relPath: string) => string | undefined,
): RunTargets {
  const choice = chooseTargets(configured, sessions);
  const targets = renderedTargets({ targets: choice.targets }, readFile);
  const synced = targets
    .filter((t) => !choice.targets.includes(t))
    .map((t) => `${TARGETS.find((info) => info.id === t)?.paths[0] ?? t}: already holds Combee's rules (kept in sync)`);
  return { targets, reasons: [...choice.reasons, ...synced] };
}
