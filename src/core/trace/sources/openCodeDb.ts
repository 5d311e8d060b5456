import { basename } from 'node:path';
import type { SqlValue } from 'sql.js';
import type { TraceDraft } from '../model';
import { msToIso } from './common';
import { applyMessage, bad, Message, newAcc, Part } from './openCode';
import { cellJson, isSqliteHead, readSqliteStore, type SqliteImage } from './sqlite';
import { SessionLosses } from './sessionLosses';
import { segments } from './sniffHead';
import type { ReadContext, SessionFile, SourceReader } from './types';
import { titleLine } from '../../util/text';

// OpenCode ≥1.2 (research §8): `opencode.db` (`opencode-<channel>.db` off the latest and beta channels) with tables
// session, message(id, session_id, time_created, data) and part(id, message_id, data). `data` is the ≤1.1 storage
// file without its ids, so the JSON reader's message and part handling applies as is. Trace ids are the same as the
// JSON storage's: a session migrated to the database and still on disk as JSON is stored once.

const DB_NAME = /^opencode(?:-[\w.-]+)?\.db$/;
const TABLES = ['session', 'message', 'part'];

export const openCodeDbReader: SourceReader = {
  agent: 'opencode',

  accepts(path) {
    return DB_NAME.test(basename(path));
  },

  sniff(path, head) {
    return isSqliteHead(head) && DB_NAME.test(basename(path));
  },

  claims(path) {
    // <data dir>/opencode/opencode.db: a damaged head is OpenCode's to report
    const [name, dir] = segments(path);
    return DB_NAME.test(name) && dir === 'opencode';
  },

  read(file: SessionFile, ctx: ReadContext): Promise<TraceDraft[]> {
    return readSqliteStore(file, ctx, (image) => readSessions(image, file, ctx));
  },
};

function readSessions(image: SqliteImage, file: SessionFile, ctx: ReadContext): TraceDraft[] {
  const losses = new SessionLosses(ctx, file.path);
  const drafts: TraceDraft[] = [];
  try {
    const tables = image.tables();
    const missing = TABLES.filter((t) => !tables.has(t));
    if (missing.length > 0) {
      ctx.warn(`${file.path}: not an OpenCode database (no ${missing.join(', ')} table); skipped`);
      return [];
    }
    const sessions = listSessions(image, losses);
    const messagesOf = image.lookup(
      'SELECT id, time_created, data FROM message WHERE session_id = ? ORDER BY time_created, id',
    );
    const partsOf = image.lookup('SELECT id, data FROM part WHERE message_id = ? ORDER BY id');
    for (const { row, rowError } of sessions) {
      try {
        const draft = readSession(row, file, ctx, messagesOf, partsOf, losses, rowError);
        if (draft) drafts.push(draft);
      } catch (error) {
        losses.lose(`session ${String(row.id)}`, error);
      }
    }
  } catch (error) {
    losses.damaged(error);
  }
  losses.done(drafts.length);
  return drafts;
}

interface Listed {
  row: Record<string, SqlValue>;
  /** Only the id is known: its row could not be read. */
  rowError?: Error;
}

/**
 * The sessions in time order. A table scan that fails midway is completed from the ids in the primary key's index
 * and in the messages, each row then looked up alone: a session past the damage is read from its messages, or
 * counted as lost, never left out unseen.
 */
function listSessions(image: SqliteImage, losses: SessionLosses): Listed[] {
  const listed = new Map<string, Listed>();
  const error = image.scan('SELECT * FROM session', [], (row) => {
    const id = str(row.id);
    if (id) listed.set(id, { row });
  });
  if (error) {
    losses.damaged(error);
    const ids = new Set<string>();
    for (const sql of ['SELECT id FROM session ORDER BY id', 'SELECT DISTINCT session_id AS id FROM message']) {
      image.scan(sql, [], (row) => {
        const id = str(row.id);
        if (id) ids.add(id);
      });
    }
    const rowOf = image.lookup('SELECT * FROM session WHERE id = ?');
    for (const id of ids) {
      if (listed.has(id)) continue;
      const found = rowOf([id]);
      listed.set(id, found.rows[0] ? { row: found.rows[0] } : { row: { id }, rowError: found.error ?? error });
    }
  }
  return [...listed.values()].sort(
    (a, b) =>
      num(a.row.time_created, 0) - num(b.row.time_created, 0) || String(a.row.id).localeCompare(String(b.row.id)),
  );
}

type Lookup = (params: SqlValue[]) => { rows: Array<Record<string, SqlValue>>; error?: Error };

/**
 * One session's trace, from what of it can be read; a session that gives no step is empty (quietly), malformed
 * (skipped, said) or lost to damage (counted).
 */
function readSession(
  row: Record<string, SqlValue>,
  file: SessionFile,
  ctx: ReadContext,
  messagesOf: Lookup,
  partsOf: Lookup,
  losses: SessionLosses,
  rowError?: Error,
): TraceDraft | undefined {
  const id = str(row.id);
  if (!id) return undefined;
  const parentId = str(row.parent_id);
  const acc = newAcc(ctx, file.path, Boolean(parentId));
  let cwd = str(row.directory);
  const messages = messagesOf([id]);
  let damage = messages.error ?? rowError;
  if (messages.error) losses.damaged(messages.error);
  for (const m of messages.rows) {
    const parsed = Message.safeParse(cellJson(m.data));
    if (!parsed.success) {
      bad(acc, `${file.path}: message ${String(m.id)}: not an OpenCode message; skipped`);
      continue;
    }
    const message = { ...parsed.data, id: str(m.id) ?? parsed.data.id };
    if (message.time?.created === undefined && typeof m.time_created === 'number')
      message.time = { ...message.time, created: m.time_created };
    cwd ??= typeof message.path === 'string' ? message.path : message.path?.cwd;
    const parts = [];
    const found = message.id ? partsOf([message.id]) : { rows: [] };
    if (found.error) {
      damage ??= found.error;
      losses.damaged(found.error);
    }
    for (const p of found.rows) {
      const part = Part.safeParse(cellJson(p.data));
      if (part.success) parts.push(part.data);
      else bad(acc, `${file.path}: part ${String(p.id)}: not an OpenCode part; skipped`);
    }
    applyMessage(acc, message, parts);
  }
  if (acc.badFiles > 3)
    ctx.warn(`${file.path}: session ${id}: ${acc.badFiles} malformed message/part rows skipped in all`);
  if (acc.steps.length === 0) {
    if (damage) losses.lose(`session ${id}`, damage);
    else if (acc.badFiles > 0)
      losses.skip(`session ${id}`, `none of its ${messages.rows.length} message(s) could be read`);
    return undefined;
  }
  const firstUser = acc.steps.find((step) => step.kind === 'user');
  return {
    id: `opencode:${id}`,
    agent: 'opencode',
    agentVersion: str(row.version),
    cwd,
    title: str(row.title) ?? (firstUser?.kind === 'user' ? titleLine(firstUser.text) : undefined),
    startedAt: msToIso(typeof row.time_created === 'number' ? row.time_created : undefined) ?? acc.steps[0].time,
    endedAt:
      msToIso(typeof row.time_updated === 'number' ? row.time_updated : undefined) ??
      [...acc.steps].reverse().find((step) => step.time)?.time,
    source: { path: file.path, bytes: file.bytes },
    parentId: parentId ? `opencode:${parentId}` : undefined,
    steps: acc.steps,
    unknown: acc.unknown,
    warnings: [],
  };
}

function str(value: SqlValue | undefined): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function num(value: SqlValue | undefined, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}
