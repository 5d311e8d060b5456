import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, posix, win32 } from 'node:path';
import type { SqlValue } from 'sql.js';
import type { Step, StepInput, TraceDraft } from '../model';
import { clipMiddle, titleLine } from '../../util/text';
import { cellJson, isSqliteHead, openSqlite, type SqliteImage } from './sqlite';
import type { ReadContext, SessionFile, SourceReader } from './types';
import { jsonText } from './jsonText';
import { SessionLosses } from './sessionLosses';
import { segments } from './sniffHead';
import { countUnknown, isRecord, storedOutput, uriToPath } from './common';
import { pushStep } from './sessionDraft';

// Cursor IDE chats (research §6.1) in `state.vscdb`, VS Code's SQLite key-value store:
// - cursorDiskKV `composerData:<id>`: one composer (chat or agent session); its messages are listed in
//   `fullConversationHeadersOnly` and stored as `bubbleId:<composerId>:<bubbleId>` rows (type 1 user, 2 assistant,
//   tool calls in `toolFormerData`), or inline in `conversation` in older builds;
// - ItemTable `workbench.panel.aichat.view.aichat.chatdata`: the old chat pane's tabs, in workspace databases.
// Only those keys are read: the same tables hold auth tokens. The global database has the composers of every
// workspace; their folder comes from `workspaceIdentifier` (Cursor 3), else from the workspace databases that list
// them (ItemTable `composer.composerData`, folder in the sibling workspace.json), else from the files in context.

const COMPOSER_KEYS = ['composerData:', 'composerData;'];
const CHAT_DATA_KEY = 'workbench.panel.aichat.view.aichat.chatdata';
const WORKSPACE_COMPOSERS_KEY = 'composer.composerData';
/** Workspace databases are opened only to map composers to folders; larger ones are passed over. */
const MAX_WORKSPACE_DB_BYTES = 64 * 1024 * 1024;
const PENDING_STATUSES = new Set(['loading', 'pending', 'running', 'generating', 'streaming']);

interface Acc {
  ctx: ReadContext;
  steps: Step[];
  unknown: Record<string, number>;
  synthetic: number;
  model?: string;
  firstTime?: string;
  lastTime?: string;
}

interface ComposerDraft {
  draft: TraceDraft;
  /** Folder hints, resolved after every composer is read. */
  paths: string[];
  children: string[];
}

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

  async read(file: SessionFile, ctx: ReadContext): Promise<TraceDraft[]> {
    const image = await openSqlite(file.path, file.bytes, {
      warn: (message) => ctx.warn(message),
      tooLarge: (path) => ctx.tooLarge(path),
      maxBytes: ctx.maxSqliteBytes,
    });
    if (!image) return [];
    try {
      return await readDatabase(image, file, ctx);
    } finally {
      image.close();
    }
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

  const folder = await workspaceFolder(dirname(file.path));
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

type Lookup = (params: SqlValue[]) => { rows: Array<Record<string, SqlValue>>; error?: Error };

/**
 * One composer's trace, from what of it can be read; one that gives no step is empty (quietly: no message yet),
 * unreadable in itself (skipped, said) or lost to damage (counted).
 */
function readComposer(
  key: string,
  id: string,
  data: Record<string, unknown>,
  file: SessionFile,
  ctx: ReadContext,
  bubbleOf: Lookup,
  losses: SessionLosses,
): ComposerDraft | undefined {
  const modelConfig = isRecord(data.modelConfig) ? data.modelConfig : undefined;
  const acc: Acc = { ctx, steps: [], unknown: {}, synthetic: 0, model: str(modelConfig?.modelName) };
  const headers = Array.isArray(data.fullConversationHeadersOnly) ? data.fullConversationHeadersOnly : [];
  let damage: Error | undefined;
  if (headers.length > 0) {
    for (const header of headers) {
      if (!isRecord(header) || typeof header.bubbleId !== 'string') {
        countUnknown(acc.unknown, 'header:invalid');
        continue;
      }
      const found = bubbleOf([`bubbleId:${id}:${header.bubbleId}`]);
      if (found.error) {
        damage ??= found.error;
        losses.damaged(found.error);
        countUnknown(acc.unknown, 'bubble:unreadable');
        continue;
      }
      if (!found.rows[0]) {
        countUnknown(acc.unknown, 'bubble:missing');
        continue;
      }
      applyBubble(
        acc,
        cellJson(found.rows[0].value),
        typeof header.type === 'number' ? header.type : undefined,
        header.bubbleId,
      );
    }
  } else if (Array.isArray(data.conversation)) {
    for (const bubble of data.conversation)
      applyBubble(acc, bubble, undefined, isRecord(bubble) ? str(bubble.bubbleId) : undefined);
  }
  if (acc.steps.length === 0) {
    const messages = headers.length || (Array.isArray(data.conversation) ? data.conversation.length : 0);
    if (damage) losses.lose(key, damage);
    else if (Object.keys(acc.unknown).length > 0) losses.skip(key, unreadableWhy(messages, acc.unknown));
    else if (!Array.isArray(data.fullConversationHeadersOnly) && !Array.isArray(data.conversation))
      losses.skip(key, 'no conversation in a shape this reader knows');
    return undefined;
  }
  const firstUser = acc.steps.find((s) => s.kind === 'user');
  const workspace =
    isRecord(data.workspaceIdentifier) && isRecord(data.workspaceIdentifier.uri)
      ? data.workspaceIdentifier.uri
      : undefined;
  const context = isRecord(data.context) ? data.context : undefined;
  const paths = (Array.isArray(context?.fileSelections) ? context.fileSelections : [])
    .map((s) => (isRecord(s) && isRecord(s.uri) ? uriPath(s.uri) : undefined))
    .filter((p): p is string => p !== undefined);
  return {
    draft: {
      id: `cursor:${id}`,
      agent: 'cursor',
      cwd: workspace ? uriPath(workspace) : undefined,
      title: str(data.name)?.trim() || (firstUser?.kind === 'user' ? titleLine(firstUser.text) : undefined),
      startedAt: timeOf(data.createdAt) ?? acc.firstTime,
      endedAt: timeOf(data.lastUpdatedAt) ?? acc.lastTime,
      source: { path: file.path, bytes: file.bytes },
      steps: acc.steps,
      unknown: acc.unknown,
      warnings: [],
    },
    paths,
    children: Array.isArray(data.subComposerIds)
      ? data.subComposerIds.filter((c): c is string => typeof c === 'string')
      : [],
  };
}

/** Why a session with messages gave no step: what its messages were counted as. */
function unreadableWhy(messages: number, unknown: Record<string, number>): string {
  return `none of its ${messages} message(s) could be read (${Object.entries(unknown)
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ')})`;
}

function applyBubble(acc: Acc, bubble: unknown, headerType: number | undefined, bubbleId: string | undefined): void {
  if (bubble === null) return; // deleted bubbles are stored as JSON null
  if (!isRecord(bubble)) {
    countUnknown(acc.unknown, 'bubble:invalid');
    return;
  }
  const type = typeof bubble.type === 'number' ? bubble.type : headerType;
  const time = timeOf(bubble.createdAt) ?? clientTime(bubble.timingInfo);
  if (type === 1) {
    const text = userText(bubble);
    if (text) push(acc, { kind: 'user', text }, time);
    return;
  }
  if (type !== 2) {
    countUnknown(acc.unknown, `bubble:type:${type ?? 'none'}`);
    return;
  }
  const text = typeof bubble.text === 'string' ? bubble.text.trim() : '';
  const modelInfo = isRecord(bubble.modelInfo) ? bubble.modelInfo : undefined;
  if (text) push(acc, { kind: 'assistant', text, model: str(modelInfo?.modelName) ?? acc.model }, time);
  const tool = bubble.toolFormerData;
  if (isRecord(tool) && (tool.name !== undefined || tool.tool !== undefined || tool.rawArgs !== undefined))
    applyTool(acc, tool, bubbleId, time);
}

function applyTool(
  acc: Acc,
  tool: Record<string, unknown>,
  bubbleId: string | undefined,
  time: string | undefined,
): void {
  const name =
    str(tool.name) ??
    (typeof tool.tool === 'string' ? tool.tool : typeof tool.tool === 'number' ? `tool-${tool.tool}` : 'unknown');
  const callId = str(tool.toolCallId) ?? bubbleId ?? `cursor-call-${++acc.synthetic}`;
  const args =
    typeof tool.rawArgs === 'string'
      ? tool.rawArgs
      : tool.params === undefined
        ? ''
        : typeof tool.params === 'string'
          ? tool.params
          : jsonText(tool.params);
  const parsedArgs = parseObject(args);
  push(
    acc,
    {
      kind: 'tool_call',
      callId,
      tool: name,
      command: typeof parsedArgs?.command === 'string' ? parsedArgs.command : undefined,
      input: clipMiddle(args, acc.ctx.maxOutputChars).text,
    },
    time,
  );

  const status = str(tool.status);
  const result = toolOutput(tool.result);
  let ending: 'ok' | 'error' | 'cancelled' | 'rejected' | undefined;
  if (tool.userDecision === 'rejected' || status === 'rejected' || result.rejected) ending = 'rejected';
  else if (status === 'completed' || status === 'success') ending = 'ok';
  else if (status === 'error' || status === 'failed') ending = 'error';
  else if (status === 'cancelled' || status === 'canceled' || status === 'aborted') ending = 'cancelled';
  else if (status === undefined) ending = tool.result !== undefined ? 'ok' : undefined;
  else if (!PENDING_STATUSES.has(status)) countUnknown(acc.unknown, `tool-status:${status}`);
  if (!ending) return;

  const error = errorText(tool.error);
  let output = result.text;
  if (error && ending !== 'ok') output = output ? `${error}\n${output}` : error;
  else if (error) output = output ? `${output}\n${error}` : error;
  if (!output && ending === 'rejected') output = 'rejected by the user';
  if (!output && ending === 'cancelled') output = 'cancelled';
  push(
    acc,
    {
      kind: 'tool_result',
      callId,
      ...storedOutput(output, acc.ctx.maxOutputChars),
      isError: ending !== 'ok' || error !== undefined || (result.exitCode !== undefined && result.exitCode !== 0),
      exitCode: result.exitCode,
      interrupted: ending === 'cancelled' ? true : undefined,
    },
    time,
  );
}

/** `result` is JSON text or an object; terminal results carry `output` and an exit code. */
function toolOutput(result: unknown): { text: string; exitCode?: number; rejected?: boolean } {
  if (result === undefined || result === null) return { text: '' };
  const value = typeof result === 'string' ? (parseObject(result) ?? result) : result;
  if (typeof value === 'string') return { text: value };
  if (!isRecord(value)) return { text: jsonText(value) };
  const code = [value.exitCode, value.exitCodeV2, value.exit_code].find(
    (c): c is number => typeof c === 'number' && Number.isInteger(c),
  );
  const text = typeof value.output === 'string' ? value.output : typeof result === 'string' ? result : jsonText(value);
  return { text, exitCode: code, rejected: value.rejected === true ? true : undefined };
}

function errorText(error: unknown): string | undefined {
  if (typeof error === 'string') return error.trim() || undefined;
  if (isRecord(error)) return str(error.message) ?? jsonText(error);
  return undefined;
}

function userText(bubble: Record<string, unknown>): string | undefined {
  const text = typeof bubble.text === 'string' ? bubble.text.trim() : '';
  if (text) return text;
  // Rich text (Lexical JSON) when the plain text was not kept.
  const rich = typeof bubble.richText === 'string' ? parseObject(bubble.richText) : undefined;
  const fromRich = rich ? lexicalText(rich).trim() : '';
  return fromRich || undefined;
}

function lexicalText(node: unknown): string {
  if (!isRecord(node)) return '';
  if (typeof node.text === 'string') return node.text;
  const children = Array.isArray(node.children) ? node.children : isRecord(node.root) ? [node.root] : [];
  return children.map(lexicalText).join(node.type === 'root' ? '\n' : '');
}

/** The old chat pane: `{tabs:[{tabId, chatTitle, lastSendTime, bubbles:[{type:"user"|"ai", text, rawText}]}]}`. */
function readChatTabs(data: unknown, file: SessionFile, ctx: ReadContext, losses: SessionLosses): TraceDraft[] {
  if (data === null) return [];
  if (!isRecord(data) || !Array.isArray(data.tabs)) {
    losses.skip(CHAT_DATA_KEY, 'not the chat pane’s tabs');
    return [];
  }
  const drafts: TraceDraft[] = [];
  for (const [i, tab] of data.tabs.entries()) {
    if (!isRecord(tab) || typeof tab.tabId !== 'string' || !Array.isArray(tab.bubbles)) {
      losses.skip(`${CHAT_DATA_KEY} tab ${i + 1}`, 'not a chat tab');
      continue;
    }
    const acc: Acc = { ctx, steps: [], unknown: {}, synthetic: 0 };
    for (const bubble of tab.bubbles) {
      if (!isRecord(bubble)) {
        countUnknown(acc.unknown, 'bubble:invalid');
        continue;
      }
      const delegate = isRecord(bubble.delegate) ? bubble.delegate : undefined;
      if (bubble.type === 'user') {
        const text = (str(bubble.text) ?? str(bubble.rawText) ?? str(delegate?.a))?.trim();
        if (text) push(acc, { kind: 'user', text }, undefined);
      } else if (bubble.type === 'ai') {
        const text = (str(bubble.rawText) ?? str(bubble.text))?.trim();
        if (text) push(acc, { kind: 'assistant', text, model: str(bubble.modelType) }, undefined);
      } else {
        countUnknown(acc.unknown, `bubble:${String(bubble.type)}`);
      }
    }
    if (acc.steps.length === 0) {
      if (Object.keys(acc.unknown).length > 0)
        losses.skip(`tab ${tab.tabId}`, unreadableWhy(tab.bubbles.length, acc.unknown));
      continue;
    }
    const firstUser = acc.steps.find((s) => s.kind === 'user');
    drafts.push({
      id: `cursor:${tab.tabId}`,
      agent: 'cursor',
      title:
        str(tab.chatTitle)?.split('\n')[0].trim() ||
        (firstUser?.kind === 'user' ? titleLine(firstUser.text) : undefined),
      endedAt: timeOf(tab.lastSendTime),
      source: { path: file.path, bytes: file.bytes },
      steps: acc.steps,
      unknown: acc.unknown,
      warnings: [],
    });
  }
  return drafts;
}

/** The folder of a workspace database, from the workspace.json beside it (`folder`, or a multi-root file's folder). */
async function workspaceFolder(dir: string): Promise<string | undefined> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(join(dir, 'workspace.json'), 'utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(json)) return undefined;
  if (typeof json.folder === 'string') return uriToPath(json.folder);
  const file = typeof json.workspace === 'string' ? uriToPath(json.workspace) : undefined;
  return file ? (file.includes('\\') ? win32 : posix).dirname(file) : undefined;
}

interface ListedWorkspace {
  bytes: number;
  mtimeMs: number;
  folder?: string;
  composerIds: string[];
}

/** Per process: each workspace database is opened again only when it changed. */
const listedCache = new Map<string, ListedWorkspace>();

/** composerId → folder, from the workspace databases next to a global one (`<User>/workspaceStorage/*`). */
async function composerFolders(globalDb: string): Promise<Map<string, string>> {
  const folders = new Map<string, string>();
  const storage = dirname(globalDb);
  if (basename(storage) !== 'globalStorage') return folders;
  const root = join(dirname(storage), 'workspaceStorage');
  let names: string[];
  try {
    names = (await readdir(root)).sort();
  } catch {
    return folders;
  }
  for (const name of names) {
    const path = join(root, name, 'state.vscdb');
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) continue;
    let entry = listedCache.get(path);
    if (!entry || entry.bytes !== info.size || entry.mtimeMs !== info.mtimeMs) {
      const folder = await workspaceFolder(join(root, name));
      entry = {
        bytes: info.size,
        mtimeMs: info.mtimeMs,
        folder,
        composerIds: folder ? await listedComposers(path, info.size) : [],
      };
      listedCache.set(path, entry);
    }
    if (entry.folder) for (const id of entry.composerIds) if (!folders.has(id)) folders.set(id, entry.folder);
  }
  return folders;
}

async function listedComposers(path: string, bytes: number): Promise<string[]> {
  // Only a hint for the folder: a workspace database that cannot be read is passed over quietly.
  const image = await openSqlite(path, bytes, {
    warn: () => undefined,
    tooLarge: () => undefined,
    maxBytes: MAX_WORKSPACE_DB_BYTES,
  });
  if (!image) return [];
  const ids: string[] = [];
  try {
    if (!image.tables().has('ItemTable')) return ids;
    image.each('SELECT value FROM ItemTable WHERE key = ?', [WORKSPACE_COMPOSERS_KEY], (row) => {
      const data = cellJson(row.value);
      if (!isRecord(data)) return;
      for (const c of Array.isArray(data.allComposers) ? data.allComposers : [])
        if (isRecord(c) && typeof c.composerId === 'string') ids.push(c.composerId);
      for (const c of Array.isArray(data.selectedComposerIds) ? data.selectedComposerIds : [])
        if (typeof c === 'string') ids.push(c);
    });
  } catch {
    // damaged: what was listed so far
  } finally {
    image.close();
  }
  return ids;
}

/** A VS Code URI object (`fsPath`, `path`, `external`) as a path. */
function uriPath(uri: Record<string, unknown>): string | undefined {
  if (typeof uri.fsPath === 'string' && uri.fsPath) return uri.fsPath;
  if (typeof uri.external === 'string') return uriToPath(uri.external);
  if (typeof uri.path === 'string' && uri.path) return uri.path;
  return undefined;
}

/** The deepest folder holding every path (a single file: its folder). */
function commonFolder(paths: string[]): string | undefined {
  if (paths.length === 0) return undefined;
  const flavour = paths[0].includes('\\') ? win32 : posix;
  const split = paths.map((p) => flavour.dirname(p).split(flavour.sep));
  const first = split[0];
  let depth = 0;
  while (depth < first.length && split.every((parts) => parts[depth] === first[depth])) depth++;
  // Not a bare root (`/`, `C:`): that says nothing about the project.
  return depth >= 2 ? first.slice(0, depth).join(flavour.sep) : undefined;
}

function push(acc: Acc, step: StepInput, time: string | undefined): void {
  if (time) {
    acc.firstTime ??= time;
    acc.lastTime = time;
  }
  pushStep(acc.steps, step, time);
}

/** ms since the epoch or an ISO string. */
function timeOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return new Date(value).toISOString();
  if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return new Date(value).toISOString();
  return undefined;
}

function clientTime(timing: unknown): string | undefined {
  // Only epoch milliseconds (some builds store a monotonic clock).
  return isRecord(timing) && typeof timing.clientStartTime === 'number' && timing.clientStartTime > 1e12
    ? timeOf(timing.clientStartTime)
    : undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
