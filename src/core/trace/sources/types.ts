import type { IncrementalContext } from '../incremental';
import type { AgentId, TraceDraft } from '../model';
import type { SniffEvidence } from './sniffHead';

export interface SessionFile {
  path: string;
  agent: AgentId;
  bytes: number;
  mtimeMs: number;
}

/** `resume` / `checkpoint` (IncrementalContext): append-only readers continue where the last import stopped. */
export interface ReadContext extends IncrementalContext {
  /** A counted, human-readable warning; reading goes on. */
  warn(message: string): void;
  maxLineBytes: number;
  /** Tool outputs longer than this are cut in the middle (head and tail kept). */
  maxOutputChars: number;
  /** This file's sessions are read from `path` instead (a stale copy): its having none is no loss to warn about. */
  readElsewhere?(path: string): void;
  /**
   * A file refused for its size (this one, or a sibling it reads): counted as skipped `too large` with its path,
   * not as a warning; a file too big to hold is not a damaged session.
   */
  tooLarge(path: string): void;
  /**
   * Opening keys (recurringOpenings.ts) that start many sessions of this import: a first message starting with one is
   * a prompt the agent expanded, not the user's words.
   */
  recurringOpenings?: ReadonlySet<string>;
  /**
   * This file is a session with nothing in it (a header, no turn): counted as skipped `empty`, not as a warning; it
   * is read again when it grows.
   */
  empty?(): void;
  /** Files parsed whole as one JSON document (sessions, their sibling files) are refused from this size on. */
  maxDocumentBytes: number;
  /** SQLite stores are loaded in memory: refused above this size (with their -wal). */
  maxSqliteBytes: number;
}

/** One reader per agent format. Readers never throw on bad content: they warn and skip. */
export interface SourceReader {
  readonly agent: AgentId;
  /**
   * Bumped when the reader reads its format differently (more of it, or more truly): files an older version imported
   * are read again in full, changed or not. Absent: 1.
   */
  readonly version?: number;
  /** Cheap check on the first bytes of a file: is it this agent's session format, and by evidence only it has? */
  sniff(path: string, head: string): SniffEvidence;
  /** Whether a file found while walking a folder should be sniffed at all (extension / name check). */
  accepts(path: string): boolean;
  /**
   * A name and place only this agent writes sessions at: such a file is read as this agent's even when its head
   * tells nothing (cut, damaged), so what cannot be read in it is a warning, not a file passed over.
   */
  claims?(path: string): boolean;
  read(file: SessionFile, ctx: ReadContext): Promise<TraceDraft[]>;
}
