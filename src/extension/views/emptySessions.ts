import { existsSync } from 'node:fs';
import { AGENT_LABELS } from '../../core/assets/agentTargets';
import { shortPath } from '../../core/service/emptySessionsText';
import type { AgentId } from '../../core/trace/model';
import { configuredFolders } from '../capture';
import { readSettings } from '../settings';

/** Where sessions were looked for (the folders a capture reads): each agent's (found or not), then the extra ones. */
export function searchedFolders(): string[] {
  const byAgent = new Map<AgentId, string[]>();
  const extras: string[] = [];
  for (const folder of configuredFolders()) {
    const found = existsSync(folder.path);
    if (folder.specStory) extras.push(`SpecStory: ${shortPath(folder.path)}${found ? '' : ' (not found)'}`);
    else if (folder.agent === 'auto')
      extras.push(`combee.sources.extraFolders: ${shortPath(folder.path)}${found ? '' : ' (not found)'}`);
    else
      byAgent.set(folder.agent, [
        ...(byAgent.get(folder.agent) ?? []),
        `${shortPath(folder.path)}${found ? '' : ' (not on this machine)'}`,
      ]);
  }
  const lines = [...[...byAgent].map(([agent, paths]) => `${AGENT_LABELS[agent]}: ${paths.join(', ')}`), ...extras];
  if (!readSettings().defaultLocations) lines.push("the agents' own folders are off (combee.sources.defaultLocations)");
  return lines;
}
