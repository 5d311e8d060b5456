import { existsSync } from 'node:fs';
import { AGENT_LABELS } from '../../core/assets/agentTargets';
import { shortPath } from '../../core/service/emptySessionsText';
import { defaultSourceFolders } from '../../core/trace/locations';
import type { AgentId } from '../../core/trace/model';
import { readSettings } from '../settings';

/** Where sessions were looked for: each agent's folders (found or not), then the folders the settings add. */
export function searchedFolders(): string[] {
  const settings = readSettings();
  const byAgent = new Map<AgentId, string[]>();
  if (settings.defaultLocations)
    for (const folder of defaultSourceFolders())
      byAgent.set(folder.agent, [
        ...(byAgent.get(folder.agent) ?? []),
        `${shortPath(folder.path)}${existsSync(folder.path) ? '' : ' (not on this machine)'}`,
      ]);
  const lines = [...byAgent].map(([agent, paths]) => `${AGENT_LABELS[agent]}: ${paths.join(', ')}`);
  for (const extra of settings.extraFolders)
    lines.push(`combee.sources.extraFolders: ${shortPath(extra)}${existsSync(extra) ? '' : ' (not found)'}`);
  if (!settings.defaultLocations) lines.push("the agents' own folders are off (combee.sources.defaultLocations)");
  return lines;
}
