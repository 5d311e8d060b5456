import { basename } from 'node:path';
import type { Trace } from '../../src/core/trace/model';

// Labels name a session the way a reader of the raw files does: a Claude Code session by its id, a Codex rollout or a
// SpecStory history by its file name, an Aider session by the local time its header gives. A trace is known by all of them.

/** Every name a label may use for this trace's session. */
export function sessionKeys(trace: Pick<Trace, 'id' | 'source' | 'startedAt' | 'title'>): string[] {
  const file = basename(trace.source.path);
  const keys = new Set([trace.id, trace.id.slice(trace.id.indexOf(':') + 1), file, file.replace(/\.[^.]+$/, '')]);
  // Aider: one history file holds many sessions, each known by its header's local time (kept in startedAt's wall time).
  const local = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)/.exec(trace.startedAt ?? '');
  if (local) keys.add(`${local[1]} ${local[2]}`);
  return [...keys];
}

/** Whether a label's session name is this trace's. */
export function isSession(trace: Pick<Trace, 'id' | 'source' | 'startedAt' | 'title'>, name: string): boolean {
  return sessionKeys(trace).includes(name);
}
