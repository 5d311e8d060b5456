import { windowStart } from '../../learn/window';
import type { WorkspaceState } from '../../store/workspaceState';
import type { Trace } from '../../trace/model';
import type { TraceSummary } from '../../trace/summary';
import { createWorkspaceMatcher } from '../../trace/workspaceMatch';
import { learningStatus } from '../learningStatus';
import type { LearnWorkspaceOptions, LearnWorkspaceResult } from './options';

/** The sessions a run learns from, and what the selection left out. */
export interface SessionSelection {
  /** Every session in the store (who contributed each one; the targets' agents with `allWorkspaces`). */
  all: TraceSummary[];
  /** The store's sessions of this workspace (every one with `allWorkspaces`): whose agents the targets follow. */
  workspaceSessions: TraceSummary[];
  /** The unlearned sessions of the window, read and parsed (only these are). */
  traces: Trace[];
  givenUp: LearnWorkspaceResult['givenUp'];
  outsideWindow: number;
  invalidStoredTraces: number;
}

const timeOf = (t: TraceSummary) => Date.parse(t.endedAt ?? t.startedAt ?? '');

/** The newest time among `sessions`; a reduce, not Math.max(...), which overflows the arguments at 100,000 sessions. */
function newest(sessions: readonly TraceSummary[]): number {
  return sessions.reduce((latest, t) => {
    const when = timeOf(t);
    return Number.isFinite(when) && when > latest ? when : latest;
  }, -Infinity);
}

/**
 * This workspace's sessions not learned yet, of the agents and time asked for, within the window: chosen from the
 * summaries in the pack index, so only the sessions the run learns are read.
 */
export async function selectSessions(options: LearnWorkspaceOptions, state: WorkspaceState): Promise<SessionSelection> {
  let invalidStoredTraces = 0;
  const all = await options.store.listSummaries(() => invalidStoredTraces++);
  const learned = await state.loadLearned(options.workspace);
  const inWorkspace = createWorkspaceMatcher([options.workspace]);
  const workspaceSessions = options.allWorkspaces ? all : all.filter((t) => inWorkspace(t.cwd));
  const sinceTime = options.since === undefined ? undefined : Date.parse(options.since);
  const mine = workspaceSessions.filter(
    (t) => (!options.agents || options.agents.includes(t.agent)) && (sinceTime === undefined || timeOf(t) >= sinceTime),
  );
  // anchored to this machine's sessions: a teammate's bundle session dated in the future moves no window
  const local = newest(mine.filter((t) => t.contributor === undefined));
  const anchor = options.now?.getTime() ?? (Number.isFinite(local) ? local : newest(mine));
  const since = windowStart(anchor, options.windowDays);
  const givenUp: LearnWorkspaceResult['givenUp'] = [];
  let outsideWindow = 0;
  const chosen = mine.filter((t) => {
    const status = learningStatus(learned, t.id);
    if (status.kind === 'learned') return false;
    if (status.kind === 'given up') {
      givenUp.push({ id: t.id, reason: status.reason, count: status.count });
      return false;
    }
    if (since !== undefined && timeOf(t) < since) {
      outsideWindow++;
      return false;
    }
    return true;
  });
  const traces = await options.store.loadTraces(
    chosen.map((t) => t.id),
    () => invalidStoredTraces++,
  );
  return { all, workspaceSessions, traces, givenUp, outsideWindow, invalidStoredTraces };
}
