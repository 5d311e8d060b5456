// The backtest's split in time: the earlier sessions teach, the later ones are replayed. Ordered by when each
// session ended (its start when it has no end), ties by id, so the same store always splits the same way.

export interface Dated {
  id: string;
  startedAt?: string;
  endedAt?: string;
}

/** Where to cut: at a date (earlier = ended before it), or after a share of the sessions (default half). */
export type SplitChoice = { at: string } | { ratio: number };

export const DEFAULT_RATIO = 0.5;

export interface SessionSplit<T extends Dated> {
  earlier: T[];
  later: T[];
  /** Sessions with no time at all: they cannot be placed on either side. */
  undated: number;
  /** What the cut was given as. */
  by: { at: string } | { ratio: number };
}

export class SplitError extends Error {}

/** The session's place in time, as an instant (readers keep times as the agent wrote them). */
export function sessionTime(session: Dated): number {
  return Date.parse(session.endedAt ?? session.startedAt ?? '');
}

export function inTimeOrder<T extends Dated>(sessions: readonly T[]): T[] {
  return sessions
    .filter((s) => Number.isFinite(sessionTime(s)))
    .sort((a, b) => sessionTime(a) - sessionTime(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function splitSessions<T extends Dated>(sessions: readonly T[], choice: SplitChoice): SessionSplit<T> {
  const ordered = inTimeOrder(sessions);
  const undated = sessions.length - ordered.length;
  if ('at' in choice) {
    const cut = Date.parse(choice.at);
    if (!Number.isFinite(cut)) throw new SplitError(`the split date ${JSON.stringify(choice.at)} is not a date`);
    const earlier = ordered.filter((s) => sessionTime(s) < cut);
    return { earlier, later: ordered.slice(earlier.length), undated, by: { at: new Date(cut).toISOString() } };
  }
  const { ratio } = choice;
  if (!(ratio > 0 && ratio < 1)) throw new SplitError('the split ratio must be between 0 and 1 (exclusive)');
  const count = Math.floor(ordered.length * ratio);
  return { earlier: ordered.slice(0, count), later: ordered.slice(count), undated, by: { ratio } };
}
