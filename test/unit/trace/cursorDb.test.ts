import assert from 'node:assert/strict';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { discoverSessions } from '../../../src/core/trace/discover';
import { DEFAULT_READ_LIMITS, importFile } from '../../../src/core/trace/importer';
import type { Step, Trace } from '../../../src/core/trace/model';
import { cursorDbReader } from '../../../src/core/trace/sources/cursorDb';
import type { SessionFile } from '../../../src/core/trace/sources/types';
import { tempDir } from '../../support/tmp';

const counts = (t: Trace) => t.steps.reduce<Partial<Record<Step['kind'], number>>>((c, s) => ({ ...c, [s.kind]: (c[s.kind] ?? 0) + 1 }), {});
const SECRET = 'cursor-access-token-5f1d2c9a7b';
const T0 = Date.parse('2026-04-02T09:00:00.000Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

// Both tables of a Cursor state.vscdb, as VS Code's storage creates them (research §6.1).
const SCHEMA = `
CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
`;

type Value = unknown;

let sql: Awaited<ReturnType<typeof initSqlJs>> | undefined;

/** A state.vscdb made with sql.js: JSON values as TEXT, one as a BLOB (as some builds store them). */
async function writeStateDb(path: string, items: Record<string, Value>, kv: Record<string, Value>, schema = SCHEMA): Promise<Buffer> {
  sql ??= await initSqlJs();
  const db = new sql.Database();
  db.exec(schema);
  const text = (v: Value) => (typeof v === 'string' ? v : JSON.stringify(v));
  for (const [key, value] of Object.entries(items)) db.run('INSERT INTO ItemTable VALUES (?, ?)', [key, text(value)]);
  for (const [key, value] of Object.entries(kv)) {
    const stored = key.endsWith(':blob-bubble') ? Buffer.from(text(value)) : text(value);
    db.run('INSERT INTO cursorDiskKV VALUES (?, ?)', [key.replace(/:blob-bubble$/, ''), stored]);
  }
  const bytes = Buffer.from(db.export());
  db.close();
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, bytes);
  return bytes;
}

const header = (bubbleId: string, type: number) => ({ bubbleId, type });
const tool = (fields: Record<string, unknown>) => ({ _v: 3, type: 2, text: '', capabilityType: 15, ...fields });

/** A Cursor `User` folder: the global database with three composers, one workspace with the old chat pane. */
async function writeCursorUser(root: string): Promise<{ global: string; workspace: string }> {
  const global = join(root, 'User', 'globalStorage', 'state.vscdb');
  const c1 = '8f0e6a52-1c7e-4d0b-9a55-0b5c1d2e3f41';
  const c2 = '2b7c9d10-4e5f-4a6b-8c7d-9e0f1a2b3c42';
  const c3 = 'd4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f43';
  await writeStateDb(global, {
    'cursorAuth/accessToken': SECRET,
    'workbench.panel.aichat.view.aichat.chatdata': { tabs: [] },
  }, {
    // Cursor 2: headers in the composer, bubbles in their own rows; its folder comes from the workspace database.
    [`composerData:${c1}`]: {
      _v: 10, composerId: c1, name: 'Fix the checkout total', createdAt: T0, lastUpdatedAt: T0 + 60_000, status: 'completed', unifiedMode: 'agent',
      modelConfig: { modelName: 'claude-4.5-sonnet', maxMode: false }, blobEncryptionKey: 'k-should-not-leak',
      fullConversationHeadersOnly: [header('b1', 1), header('b2', 2), header('b3', 2), header('b4', 2), header('b5', 2), header('b6', 2), header('b7', 2), header('b8', 2), header('b9', 2), header('b10', 3)],
      context: { fileSelections: [{ uri: { fsPath: '/home/dev/elsewhere/a.ts' } }] },
      subComposerIds: [c3],
    },
    [`bubbleId:${c1}:b1`]: { _v: 3, type: 1, bubbleId: 'b1', text: 'the checkout total is wrong with two coupons', createdAt: at(1) },
    [`bubbleId:${c1}:b2`]: { _v: 3, type: 2, bubbleId: 'b2', text: '', thinking: { text: 'Run the tests.' }, createdAt: at(2) },
    [`bubbleId:${c1}:b3:blob-bubble`]: tool({ bubbleId: 'b3', createdAt: at(3), toolFormerData: { tool: 15, name: 'run_terminal_cmd', toolCallId: 'toolu_01', rawArgs: JSON.stringify({ command: 'npm test -- checkout', is_background: false }), status: 'completed', result: JSON.stringify({ output: '1 failing\n  applies both coupons', exitCode: 1 }) } }),
    [`bubbleId:${c1}:b4`]: tool({ bubbleId: 'b4', text: 'The second coupon replaces the first; fixing.', timingInfo: { clientStartTime: T0 + 4000 }, toolFormerData: { tool: 7, name: 'edit_file', toolCallId: 'toolu_02', rawArgs: JSON.stringify({ target_file: 'src/checkout.ts', instructions: 'sum the coupons' }), status: 'completed', result: JSON.stringify({ diff: { chunks: [] }, isApplied: true }) } }),
    [`bubbleId:${c1}:b5`]: tool({ bubbleId: 'b5', createdAt: at(5), toolFormerData: { name: 'run_terminal_cmd', toolCallId: 'toolu_03', rawArgs: JSON.stringify({ command: 'npm run dev' }), status: 'cancelled' } }),
    [`bubbleId:${c1}:b6`]: tool({ bubbleId: 'b6', createdAt: at(6), toolFormerData: { name: 'delete_file', toolCallId: 'toolu_04', rawArgs: JSON.stringify({ target_file: 'src/old.ts' }), status: 'completed', userDecision: 'rejected' } }),
    [`bubbleId:${c1}:b7`]: tool({ bubbleId: 'b7', createdAt: at(7), toolFormerData: { name: 'run_terminal_cmd', toolCallId: 'toolu_05', rawArgs: JSON.stringify({ command: 'npm test -- checkout' }), status: 'completed', result: JSON.stringify({ output: '4 passing', exitCode: 0 }) } }),
    [`bubbleId:${c1}:b8`]: { _v: 3, type: 2, bubbleId: 'b8', text: 'Both coupons apply now and the checkout tests pass.', createdAt: at(8), modelInfo: { modelName: 'claude-4.5-sonnet-thinking' } },
    // b9 was deleted (no row); b10 is of a type this reader does not know.
    [`bubbleId:${c1}:b10`]: { _v: 3, type: 3, bubbleId: 'b10', text: 'summary' },
    [`bubbleId:${c1}:orphan`]: { _v: 3, type: 1, bubbleId: 'orphan', text: 'not listed in the headers' },
    // An older build: the conversation inline, no headers; the folder from the files in context.
    [`composerData:${c2}`]: {
      composerId: c2, createdAt: T0 + 100_000,
      conversation: [
        { type: 1, bubbleId: 'x1', text: 'rename fetchUser to loadUser' },
        { type: 2, bubbleId: 'x2', text: 'Renamed in 3 files.', toolFormerData: { name: 'codebase_search', rawArgs: '{"query":"fetchUser"}', status: 'weird-new-status' } },
      ],
      context: { fileSelections: [{ uri: { fsPath: '/home/dev/lib/src/user.ts' } }, { uri: { path: '/home/dev/lib/test/user.test.ts' } }] },
    },
    // Cursor 3: the workspace on the composer; a user bubble with rich text only; a subagent of c1.
    [`composerData:${c3}`]: {
      _v: 13, composerId: c3, name: 'Find coupon rules', createdAt: T0 + 30_000, workspaceIdentifier: { id: 'w3', uri: { fsPath: '/home/dev/shop', external: 'file:///home/dev/shop' } },
      fullConversationHeadersOnly: [header('r1', 1), header('r2', 2)],
    },
    [`bubbleId:${c3}:r1`]: { _v: 3, type: 1, bubbleId: 'r1', text: '', richText: JSON.stringify({ root: { type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', text: 'where are coupons validated?' }] }] } }) },
    [`bubbleId:${c3}:r2`]: { _v: 3, type: 2, bubbleId: 'r2', text: 'In src/coupons/validate.ts.' },
    'composerData:empty-one': { composerId: 'empty-one', createdAt: T0, fullConversationHeadersOnly: [] },
    'composerData:null-one': null,
    'composerData:broken-one': '{"composerId":"broken-one","conver',
    'checkpointId:abc': { files: [] },
    'agentKv:blob:0123': 'opaque',
  });

  const workspace = join(root, 'User', 'workspaceStorage', '6c1f0e2d3b4a59687766554433221100', 'state.vscdb');
  await writeStateDb(workspace, {
    'composer.composerData': { allComposers: [{ composerId: c1, name: 'Fix the checkout total' }], selectedComposerIds: [c1] },
    'workbench.panel.aichat.view.aichat.chatdata': {
      tabs: [
        {
          tabId: 'tab-7d1e', chatTitle: 'How is the build set up?\nmore', lastSendTime: T0 + 200_000,
          bubbles: [
            { type: 'user', id: 'u1', text: 'how is the build set up?', selections: [] },
            { type: 'ai', id: 'a1', rawText: 'esbuild bundles src/ into dist/.', modelType: 'gpt-4' },
            { type: 'divider', id: 'd1' },
          ],
        },
        { tabId: 'tab-empty', chatTitle: '', bubbles: [] },
      ],
    },
  }, {});
  writeFileSync(join(workspace, '..', 'workspace.json'), JSON.stringify({ folder: 'file:///home/dev/shop' }));
  return { global, workspace };
}

function sessionFile(path: string): SessionFile {
  const info = statSync(path);
  return { path, agent: 'cursor', bytes: info.size, mtimeMs: info.mtimeMs };
}

describe('Cursor IDE database reader (state.vscdb)', () => {
  it('reads composers from the global database and old chat tabs from a workspace database', async () => {
    const root = tempDir('combee-cursor-db-');
    const { global, workspace } = await writeCursorUser(root);
    const files = await discoverSessions(root);
    assert.deepEqual(files.map((f) => [f.path, f.agent]), [[global, 'cursor'], [workspace, 'cursor']]);
    const traces = new Map<string, Trace>();
    const warnings: string[] = [];
    for (const file of files) {
      const out = await importFile(file, DEFAULT_READ_LIMITS, {});
      warnings.push(...out.warnings);
      for (const t of out.traces) traces.set(t.id, t);
    }
    assert.deepEqual(warnings.map((w) => w.replace(/^.*state\.vscdb: /, '')), ['composerData:broken-one: not a Cursor composer; skipped']);
    assert.deepEqual([...traces.keys()].sort(), [
      'cursor:2b7c9d10-4e5f-4a6b-8c7d-9e0f1a2b3c42', 'cursor:8f0e6a52-1c7e-4d0b-9a55-0b5c1d2e3f41', 'cursor:d4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f43', 'cursor:tab-7d1e',
    ]);
    assert.ok(!JSON.stringify([...traces.values()]).includes(SECRET), 'no ItemTable value but the chat keys is read');
    assert.ok(!JSON.stringify([...traces.values()]).includes('k-should-not-leak'));

    const c1 = traces.get('cursor:8f0e6a52-1c7e-4d0b-9a55-0b5c1d2e3f41') as Trace;
    assert.equal(c1.cwd, '/home/dev/shop', 'listed by the workspace database, whose folder is in workspace.json');
    assert.equal(c1.title, 'Fix the checkout total');
    assert.equal(c1.startedAt, at(0));
    assert.equal(c1.endedAt, at(60));
    assert.equal(c1.source.path, global);
    assert.deepEqual(c1.steps.map((s) => s.kind), [
      'user', 'tool_call', 'tool_result', 'assistant', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'assistant',
    ]);
    assert.deepEqual(counts(c1), { user: 1, tool_call: 5, tool_result: 5, assistant: 2 });
    const failing = c1.steps[2];
    assert.ok(failing.kind === 'tool_result' && failing.callId === 'toolu_01' && failing.isError && failing.exitCode === 1 && failing.output === '1 failing\n  applies both coupons');
    const testCall = c1.steps[1];
    assert.ok(testCall.kind === 'tool_call' && testCall.tool === 'run_terminal_cmd' && testCall.command === 'npm test -- checkout');
    assert.equal(testCall.time, at(3));
    const edit = c1.steps[5];
    assert.ok(edit.kind === 'tool_result' && !edit.isError && edit.callId === 'toolu_02');
    assert.equal(c1.steps[3].time, at(4), 'clientStartTime when createdAt is missing');
    const cancelled = c1.steps[7];
    assert.ok(cancelled.kind === 'tool_result' && cancelled.isError && cancelled.interrupted === true && cancelled.output === 'cancelled');
    const rejected = c1.steps[9];
    assert.ok(rejected.kind === 'tool_result' && rejected.isError && rejected.output === 'rejected by the user');
    const passing = c1.steps[11];
    assert.ok(passing.kind === 'tool_result' && !passing.isError && passing.exitCode === 0);
    const answer = c1.steps[12];
    assert.ok(answer.kind === 'assistant' && answer.model === 'claude-4.5-sonnet-thinking');
    const fixing = c1.steps[3];
    assert.ok(fixing.kind === 'assistant' && fixing.model === 'claude-4.5-sonnet', 'the composer model when the bubble has none');
    assert.deepEqual(c1.outcome.testRuns, { passed: 1, failed: 1 });
    assert.equal(c1.outcome.toolErrors, 3);
    assert.equal(c1.outcome.interrupted, true);
    assert.deepEqual(c1.unknown, { 'bubble:missing': 1, 'bubble:type:3': 1 });

    const c2 = traces.get('cursor:2b7c9d10-4e5f-4a6b-8c7d-9e0f1a2b3c42') as Trace;
    assert.equal(c2.cwd, '/home/dev/lib', 'the common folder of the files in context');
    assert.equal(c2.title, 'rename fetchUser to loadUser');
    assert.deepEqual(c2.steps.map((s) => s.kind), ['user', 'assistant', 'tool_call']);
    assert.deepEqual(c2.unknown, { 'tool-status:weird-new-status': 1 });

    const c3 = traces.get('cursor:d4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f43') as Trace;
    assert.equal(c3.cwd, '/home/dev/shop', 'workspaceIdentifier');
    assert.equal(c3.parentId, 'cursor:8f0e6a52-1c7e-4d0b-9a55-0b5c1d2e3f41');
    assert.deepEqual(c3.steps.map((s) => (s.kind === 'user' || s.kind === 'assistant' ? s.text : s.kind)), ['where are coupons validated?', 'In src/coupons/validate.ts.']);

    const tab = traces.get('cursor:tab-7d1e') as Trace;
    assert.equal(tab.cwd, '/home/dev/shop');
    assert.equal(tab.title, 'How is the build set up?');
    assert.equal(tab.endedAt, at(200));
    assert.equal(tab.source.path, workspace);
    assert.deepEqual(tab.steps.map((s) => s.kind), ['user', 'assistant']);
    assert.deepEqual(tab.unknown, { 'bubble:divider': 1 });
  });

  it('does not claim VS Code’s own state.vscdb', async () => {
    const root = tempDir('combee-cursor-db-');
    await writeStateDb(join(root, 'Code', 'User', 'globalStorage', 'state.vscdb'), { 'workbench.panel.aichat.view.aichat.chatdata': { tabs: [] } }, {}, 'CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);');
    assert.deepEqual(await discoverSessions(root), []);
    assert.equal(cursorDbReader.sniff('/x/Cursor/User/workspaceStorage/1/state.vscdb', 'SQLite format 3\u0000'), true, 'an old Cursor workspace database, by its folder');
    assert.equal(cursorDbReader.accepts('/x/Cursor/User/globalStorage/state.vscdb.backup'), false);
  });

  it('warns about a truncated or corrupt database and produces no trace, without throwing', async () => {
    const root = tempDir('combee-cursor-db-');
    const bytes = await writeStateDb(join(root, 'whole', 'state.vscdb'), {}, { 'composerData:x': { conversation: [{ type: 1, text: 'hi' }] } });
    const cut = join(root, 'cut', 'state.vscdb');
    mkdirSync(join(cut, '..'));
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    let out = await importFile(sessionFile(cut), DEFAULT_READ_LIMITS, {});
    assert.equal(out.traces.length, 0);
    assert.equal(out.warnings.length, 1);
    assert.match(out.warnings[0], /state\.vscdb: unreadable SQLite database \(database disk image is malformed\); skipped/);

    const junk = join(root, 'junk', 'state.vscdb');
    mkdirSync(join(junk, '..'));
    writeFileSync(junk, Buffer.from('not a database at all, just text'.repeat(10)));
    out = await importFile(sessionFile(junk), DEFAULT_READ_LIMITS, {});
    assert.equal(out.traces.length, 0);
    assert.deepEqual(out.warnings.map((w) => w.replace(/^.*state\.vscdb: /, '')), ['not a SQLite database; skipped']);
  });
});
