import { outsideManagedBlocks } from '../../assets/managedBlock';
import type { TeamConflict } from '../../assets/proposal';
import type { LocalCounts } from '../../learn/rules/confirmedCounters';
import { teamRuleFiles } from '../../learn/rules/teamFiles';
import { bullets } from '../../playbook/model';
import { redactDeep } from '../../secrets/deep';
import { redactText } from '../../trace/redact';
import { listWorkspaceFiles, listWorkspaceFolders, readWorkspaceFile } from '../proposalFiles';
import { suggestedLine } from '../review/teamConflicts';
import type { LearnResult } from './options';
import { resolveConflicts } from './resolveConflicts';

// The team's own text in the files the agents load, and the run's rules held against it: no contradiction leaves a
// proposal, and each one the team's text takes part in is a review comment on its line.

/** What the team wrote itself in the files the agents load (agents/teamFiles.ts): everything outside Combee's block. */
export function teamTexts(workspace: string): Array<{ path: string; text: string }> {
  const read = (rel: string) => readWorkspaceFile(workspace, rel);
  const out: Array<{ path: string; text: string }> = [];
  const files = teamRuleFiles(
    read,
    (folder) => listWorkspaceFiles(workspace, folder),
    (folder) => listWorkspaceFolders(workspace, folder),
  );
  for (const path of files) {
    const text = read(path);
    if (text === undefined) continue;
    try {
      out.push({ path, text: outsideManagedBlocks(text, path) });
    } catch {
      out.push({ path, text }); // damaged markers: the renderer reports them; all of it is the team's here
    }
  }
  return out;
}

function teamConflict(
  ruleId: string,
  content: string,
  at: { path: string; line: string; reason: string },
  outcome: TeamConflict['outcome'],
): TeamConflict {
  return redactDeep(
    {
      ruleId,
      content,
      path: at.path,
      line: at.line,
      reason: at.reason,
      outcome,
      suggestion: suggestedLine(at.line, content),
    },
    redactText,
  );
}

export const openTeamConflicts = (conflicts: TeamConflict[]) =>
  conflicts.length > 0 ? { teamConflicts: conflicts } : {};

/**
 * The run's new rules held against each other, the playbook and the team's text (`result` takes the outcome): the
 * rules a better-evidenced one overrules, and a review comment for each contradiction with the team's text.
 */
export function settleTeamConflicts(
  result: LearnResult,
  team: Array<{ path: string; text: string }>,
  counted: LocalCounts,
): { overruledBy: Map<string, string>; teamConflicts: TeamConflict[] } {
  const overruledBy = new Map<string, string>();
  // each a review comment on the team's line, with what the line would say instead
  const teamConflicts: TeamConflict[] = [];
  if (result.record.status !== 'completed') return { overruledBy, teamConflicts };
  const conflicts = resolveConflicts(result, team, counted);
  for (const w of conflicts.withdrawn) result.record.warnings.push(`rule ${w.id} left out: ${w.reason}`);
  for (const r of conflicts.removed) overruledBy.set(r.id, r.by);
  const contentOf = (id: string) => bullets(result.playbook).find((b) => b.id === id)?.content;
  for (const c of conflicts.overrulingTeam) {
    const content = contentOf(c.id);
    if (content) teamConflicts.push(teamConflict(c.id, content, c, 'overrules'));
  }
  for (const c of conflicts.overruledByTeam) teamConflicts.push(teamConflict(c.id, c.content, c, 'left-out'));
  return { overruledBy, teamConflicts };
}
