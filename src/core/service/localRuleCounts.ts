import { localCounts, type LocalCounts } from '../learn/rules/confirmedCounters';
import { RuleLedger } from '../store/ruleLedger';
import { loadRunRecords } from '../store/runs';
import type { WorkspaceState } from '../store/workspaceState';

/** What this machine counted for the workspace's rules: its evidence ledger and the runs recorded before it. */
export async function localRuleCounts(state: WorkspaceState, workspace: string): Promise<LocalCounts> {
  return localCounts(await RuleLedger.load(state, workspace), await loadRunRecords(state, workspace));
}
