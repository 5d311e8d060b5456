import type { TraceStore } from '../store/traceStore';
import type { LearnedState, WorkspaceState } from '../store/workspaceState';
import type { TraceSummary } from '../trace/summary';
import { createWorkspaceMatcher } from '../trace/workspaceMatch';
import { learningStatus, type LearningStatus } from './learningStatus';

/** One session as the lists show it: its summary and where its learning stands. */
export interface SessionRow {
  summary: TraceSummary;
  status: LearningStatus;
}

export interface SessionPage {
  /** The newest sessions first, at most the number asked for. */
  rows: SessionRow[];
  /** All the sessions of these workspace folders. */
  total: number;
  /** Of those, how many each teammate's bundles brought (by exporter); this machine's own are not counted here. */
  byContributor: Array<{ contributor: string; sessions: number }>;
  /** Sessions in the store that belong to other folders, the folders with the most first (at most `OTHER_FOLDERS`). */
  elsewhere: { sessions: number; folders: Array<{ cwd: string; sessions: number }> };
}

/** The other folders an empty view names: enough to recognise the one meant, not a listing of the store. */
export const OTHER_FOLDERS = 5;

/** The first non-new status a workspace folder records for the session (learned wins, then given up). */
export function statusIn(states: readonly LearnedState[], id: string): LearningStatus {
  const all = states.map((state) => learningStatus(state, id));
  return (
    all.find((s) => s.kind === 'learned') ??
    all.find((s) => s.kind === 'given up') ??
    all.find((s) => s.kind === 'failed') ?? { kind: 'new' }
  );
}

/** The summaries of the workspace folders' sessions and each folder's learned.json (never a trace body). */
async function workspaceSessions(
  store: TraceStore,
  state: WorkspaceState,
  workspaces: string[],
): Promise<{ mine: TraceSummary[]; others: TraceSummary[]; states: LearnedState[] }> {
  const inWorkspace = createWorkspaceMatcher(workspaces);
  const [summaries, states] = await Promise.all([
    store.listSummaries(),
    Promise.all(workspaces.map((ws) => state.loadLearned(ws))),
  ]);
  const mine: TraceSummary[] = [];
  const others: TraceSummary[] = [];
  for (const summary of summaries) (inWorkspace(summary.cwd) ? mine : others).push(summary);
  return { mine, others, states };
}

/** Counts by a key, the largest first (ties by key, so the same store lists the same way). */
function countsBy<T>(items: readonly T[], keyOf: (item: T) => string | undefined): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const item of items) {
    const key = keyOf(item);
    if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** The sessions of the workspace folders, newest first, `limit` of them. */
export async function sessionPage(
  store: TraceStore,
  state: WorkspaceState,
  workspaces: string[],
  limit: number,
): Promise<SessionPage> {
  const { mine, others, states } = await workspaceSessions(store, state, workspaces);
  mine.sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? '') || (a.id < b.id ? -1 : 1));
  return {
    rows: mine.slice(0, limit).map((summary) => ({ summary, status: statusIn(states, summary.id) })),
    total: mine.length,
    byContributor: countsBy(mine, (s) => s.contributor).map(([contributor, sessions]) => ({ contributor, sessions })),
    elsewhere: {
      sessions: others.length,
      folders: countsBy(others, (s) => s.cwd ?? '(no folder recorded)')
        .slice(0, OTHER_FOLDERS)
        .map(([cwd, sessions]) => ({ cwd, sessions })),
    },
  };
}

/** The sessions of the workspace folders a run would learn: new, or failed fewer times than it gives up after. */
export async function waitingSessions(
  store: TraceStore,
  state: WorkspaceState,
  workspaces: string[],
): Promise<string[]> {
  const { mine, states } = await workspaceSessions(store, state, workspaces);
  return mine
    .filter((s) => {
      const status = statusIn(states, s.id).kind;
      return status === 'new' || status === 'failed';
    })
    .map((s) => s.id);
}
