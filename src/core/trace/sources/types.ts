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
}

/** One reader per agent format. Readers never throw on bad content: they warn and skip. */
export interface SourceReader {
  readonly agent: AgentId;
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
