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
}

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
): Promise<{ mine: TraceSummary[]; states: LearnedState[] }> {
  const inWorkspace = createWorkspaceMatcher(workspaces);
  const [summaries, states] = await Promise.all([
    store.listSummaries(),
    Promise.all(workspaces.map((ws) => state.loadLearned(ws))),
  ]);
  return { mine: summaries.filter((s) => inWorkspace(s.cwd)), states };
}

/** The sessions of the workspace folders, newest first, `limit` of them. */
export async function sessionPage(
  store: TraceStore,
  state: WorkspaceState,
  workspaces: string[],
  limit: number,
): Promise<SessionPage> {
  const { mine, states } = await workspaceSessions(store, state, workspaces);
  mine.sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? '') || (a.id < b.id ? -1 : 1));
  return {
    rows: mine.slice(0, limit).map((summary) => ({ summary, status: statusIn(states, summary.id) })),
    total: mine.length,
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
