import { basename, dirname } from 'node:path';
import type { SqlValue } from 'sql.js';
import type { TraceDraft } from '../model';
import { isRecord } from './common';
import { CHAT_DATA_KEY, readChatTabs } from './cursorChatTabs';
import { type ComposerDraft, readComposer } from './cursorComposer';
import { commonFolder, composerFolders } from './cursorFolders';
import { SessionLosses } from './sessionLosses';
import { segments } from './sniffHead';
import { cellJson, isSqliteHead, readSqliteStore, type SqliteImage } from './sqlite';
import type { ReadContext, SessionFile, SourceReader } from './types';
import { workspaceJsonFolder } from './vscodeWorkspace';

// Cursor IDE chats (research §6.1) in `state.vscdb`, VS Code's SQLite key-value store:
// - cursorDiskKV `composerData:<id>`: one composer (chat or agent session); its messages are listed in
//   `fullConversationHeadersOnly` and stored as `bubbleId:<composerId>:<bubbleId>` rows (type 1 user, 2 assistant,
//   tool calls in `toolFormerData`), or inline in `conversation` in older builds;
// - ItemTable `workbench.panel.aichat.view.aichat.chatdata`: the old chat pane's tabs, in workspace databases.
// Only those keys are read: the same tables hold auth tokens. The global database has the composers of every
// workspace; their folder comes from `workspaceIdentifier` (Cursor 3), else from the workspace databases that list
// them (ItemTable `composer.composerData`, folder in the sibling workspace.json), else from the files in context.

const COMPOSER_KEYS = ['composerData:', 'composerData;'];

export const cursorDbReader: SourceReader = {
  agent: 'cursor',

  accepts(path) {
    return basename(path) === 'state.vscdb';
  },

  sniff(path, head) {
    if (!isSqliteHead(head) || basename(path) !== 'state.vscdb') return false;
    // VS Code's own state.vscdb has no cursorDiskKV table (the schema sits in the first page).
    return head.includes('cursorDiskKV') || /[\\/]cursor[^\\/]*[\\/]/i.test(path);
  },

  claims(path) {
    // <Cursor…>/User/globalStorage/state.vscdb or User/workspaceStorage/<id>/state.vscdb: a damaged head is Cursor's to report
    const [name, dir, parent, grand, great] = segments(path);
    if (name !== 'state.vscdb') return false;
    if (dir === 'globalStorage') return parent === 'User' && /^cursor/i.test(grand ?? '');
    return parent === 'workspaceStorage' && grand === 'User' && /^cursor/i.test(great ?? '');
  },

  read(file: SessionFile, ctx: ReadContext): Promise<TraceDraft[]> {
    return readSqliteStore(file, ctx, (image) => readDatabase(image, file, ctx));
  },
};

async function readDatabase(image: SqliteImage, file: SessionFile, ctx: ReadContext): Promise<TraceDraft[]> {
  const losses = new SessionLosses(ctx, file.path);
  const composers: ComposerDraft[] = [];
  const tabs: TraceDraft[] = [];
  try {
    const tables = image.tables();
    if (tables.has('cursorDiskKV')) {
      const valueOf = image.lookup('SELECT value FROM cursorDiskKV WHERE key = ?');
      for (const key of composerKeys(image, losses)) {
        const id = key.slice(COMPOSER_KEYS[0].length);
        const found = valueOf([key]);
        if (found.error || found.rows.length === 0) {
          losses.lose(key, found.error ?? new Error(`${key} listed by the key index but not in the table`));
          continue;
        }
        const data = cellJson(found.rows[0].value);
        if (data === null) continue;
        if (!id || !isRecord(data)) {
          losses.skip(key, 'not a Cursor composer');
          continue;
        }
        try {
          const composer = readComposer(key, id, data, file, ctx, valueOf, losses);
          if (composer) composers.push(composer);
        } catch (error) {
          losses.lose(key, error);
        }
      }
    }
    if (tables.has('ItemTable')) {
      const error = image.scan('SELECT value FROM ItemTable WHERE key = ?', [CHAT_DATA_KEY], (row) =>
        tabs.push(...readChatTabs(cellJson(row.value), file, ctx, losses)),
      );
      // one row holds every tab of the old chat pane
      if (error) losses.lose(CHAT_DATA_KEY, error);
    }
  } catch (error) {
    losses.damaged(error);
  }
  losses.done(composers.length + tabs.length);

  const folder = await workspaceJsonFolder(dirname(file.path));
  let listed: Map<string, string> | undefined;
  const parents = new Map<string, string>();
  for (const c of composers) for (const child of c.children) parents.set(child, c.draft.id);
  for (const c of composers) {
    const composerId = c.draft.id.slice('cursor:'.length);
    if (!folder && !c.draft.cwd) listed ??= await composerFolders(file.path);
    c.draft.cwd = folder ?? c.draft.cwd ?? listed?.get(composerId) ?? commonFolder(c.paths);
    c.draft.parentId = parents.get(composerId);
  }
  for (const tab of tabs) tab.cwd = folder;
  return [...composers.map((c) => c.draft), ...tabs];
}

/**
 * The composer keys, from the key's index (a range, not LIKE: it uses the index on multi-GB stores). When that scan
 * fails midway, the table itself is scanned for the keys past the damage, so none is left out unseen.
 */
function composerKeys(image: SqliteImage, losses: SessionLosses): string[] {
  const keys = new Set<string>();
  const add = (row: Record<string, SqlValue>) => {
    if (typeof row.key === 'string') keys.add(row.key);
  };
  const error = image.scan('SELECT key FROM cursorDiskKV WHERE key >= ? AND key < ?', COMPOSER_KEYS, add);
  if (error) {
    losses.damaged(error);
    image.scan('SELECT key FROM cursorDiskKV NOT INDEXED WHERE key >= ? AND key < ?', COMPOSER_KEYS, add);
  }
  return [...keys];
}
