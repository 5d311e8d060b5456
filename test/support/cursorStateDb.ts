import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import initSqlJs from 'sql.js';

// Cursor's state.vscdb databases made with sql.js, shared by the reader's tests and the fuzzing.

/** A credential in ItemTable beside the chats: no trace may carry it. */
export const SECRET = 'cursor-access-token-5f1d2c9a7b';
const T0 = Date.parse('2026-04-02T09:00:00.000Z');
export const at = (s: number) => new Date(T0 + s * 1000).toISOString();

// Both tables of a Cursor state.vscdb, as VS Code's storage creates them (research §6.1).
const SCHEMA = `
CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
`;

type Value = unknown;

let sql: Awaited<ReturnType<typeof initSqlJs>> | undefined;

/** A state.vscdb made with sql.js: JSON values as TEXT, one as a BLOB (as some builds store them). */
export async function writeStateDb(
  path: string,
  items: Record<string, Value>,
  kv: Record<string, Value>,
  schema = SCHEMA,
): Promise<Buffer> {
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
export async function writeCursorUser(root: string): Promise<{ global: string; workspace: string }> {
  const global = join(root, 'User', 'globalStorage', 'state.vscdb');
  const c1 = '8f0e6a52-1c7e-4d0b-9a55-0b5c1d2e3f41';
  const c2 = '2b7c9d10-4e5f-4a6b-8c7d-9e0f1a2b3c42';
  const c3 = 'd4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f43';
  await writeStateDb(
    global,
    {
      'cursorAuth/accessToken': SECRET,
      'workbench.panel.aichat.view.aichat.chatdata': { tabs: [] },
    },
    {
      // Cursor 2: headers in the composer, bubbles in their own rows; its folder comes from the workspace database.
      [`composerData:${c1}`]: {
        _v: 10,
        composerId: c1,
        name: 'Fix the checkout total',
        createdAt: T0,
        lastUpdatedAt: T0 + 60_000,
        status: 'completed',
        unifiedMode: 'agent',
        modelConfig: { modelName: 'claude-4.5-sonnet', maxMode: false },
        blobEncryptionKey: 'k-should-not-leak',
        fullConversationHeadersOnly: [
          header('b1', 1),
          header('b2', 2),
          header('b3', 2),
          header('b4', 2),
          header('b5', 2),
          header('b6', 2),
          header('b7', 2),
          header('b8', 2),
          header('b9', 2),
          header('b10', 3),
        ],
        context: { fileSelections: [{ uri: { fsPath: '/home/dev/elsewhere/a.ts' } }] },
        subComposerIds: [c3],
      },
      [`bubbleId:${c1}:b1`]: {
        _v: 3,
        type: 1,
        bubbleId: 'b1',
        text: 'the checkout total is wrong with two coupons',
        createdAt: at(1),
      },
      [`bubbleId:${c1}:b2`]: {
        _v: 3,
        type: 2,
        bubbleId: 'b2',
        text: '',
        thinking: { text: 'Run the tests.' },
        createdAt: at(2),
      },
      [`bubbleId:${c1}:b3:blob-bubble`]: tool({
        bubbleId: 'b3',
        createdAt: at(3),
        toolFormerData: {
          tool: 15,
          name: 'run_terminal_cmd',
          toolCallId: 'toolu_01',
          rawArgs: JSON.stringify({ command: 'npm test -- checkout', is_background: false }),
          status: 'completed',
          result: JSON.stringify({ output: '1 failing\n  applies both coupons', exitCode: 1 }),
        },
      }),
      [`bubbleId:${c1}:b4`]: tool({
        bubbleId: 'b4',
        text: 'The second coupon replaces the first; fixing.',
        timingInfo: { clientStartTime: T0 + 4000 },
        toolFormerData: {
          tool: 7,
          name: 'edit_file',
          toolCallId: 'toolu_02',
          rawArgs: JSON.stringify({ target_file: 'src/checkout.ts', instructions: 'sum the coupons' }),
          status: 'completed',
          result: JSON.stringify({ diff: { chunks: [] }, isApplied: true }),
        },
      }),
      [`bubbleId:${c1}:b5`]: tool({
        bubbleId: 'b5',
        createdAt: at(5),
        toolFormerData: {
          name: 'run_terminal_cmd',
          toolCallId: 'toolu_03',
          rawArgs: JSON.stringify({ command: 'npm run dev' }),
          status: 'cancelled',
        },
      }),
      [`bubbleId:${c1}:b6`]: tool({
        bubbleId: 'b6',
        createdAt: at(6),
        toolFormerData: {
          name: 'delete_file',
          toolCallId: 'toolu_04',
          rawArgs: JSON.stringify({ target_file: 'src/old.ts' }),
          status: 'completed',
          userDecision: 'rejected',
        },
      }),
      [`bubbleId:${c1}:b7`]: tool({
        bubbleId: 'b7',
        createdAt: at(7),
        toolFormerData: {
          name: 'run_terminal_cmd',
          toolCallId: 'toolu_05',
          rawArgs: JSON.stringify({ command: 'npm test -- checkout' }),
          status: 'completed',
          result: JSON.stringify({ output: '4 passing', exitCode: 0 }),
        },
      }),
      [`bubbleId:${c1}:b8`]: {
        _v: 3,
        type: 2,
        bubbleId: 'b8',
        text: 'Both coupons apply now and the checkout tests pass.',
        createdAt: at(8),
        modelInfo: { modelName: 'claude-4.5-sonnet-thinking' },
      },
      // b9 was deleted (no row); b10 is of a type this reader does not know.
      [`bubbleId:${c1}:b10`]: { _v: 3, type: 3, bubbleId: 'b10', text: 'summary' },
      [`bubbleId:${c1}:orphan`]: { _v: 3, type: 1, bubbleId: 'orphan', text: 'not listed in the headers' },
      // An older build: the conversation inline, no headers; the folder from the files in context.
      [`composerData:${c2}`]: {
        composerId: c2,
        createdAt: T0 + 100_000,
        conversation: [
          { type: 1, bubbleId: 'x1', text: 'rename fetchUser to loadUser' },
          {
            type: 2,
            bubbleId: 'x2',
            text: 'Renamed in 3 files.',
            toolFormerData: { name: 'codebase_search', rawArgs: '{"query":"fetchUser"}', status: 'weird-new-status' },
          },
        ],
        context: {
          fileSelections: [
            { uri: { fsPath: '/home/dev/lib/src/user.ts' } },
            { uri: { path: '/home/dev/lib/test/user.test.ts' } },
          ],
        },
      },
      // Cursor 3: the workspace on the composer; a user bubble with rich text only; a subagent of c1.
      [`composerData:${c3}`]: {
        _v: 13,
        composerId: c3,
        name: 'Find coupon rules',
        createdAt: T0 + 30_000,
        workspaceIdentifier: { id: 'w3', uri: { fsPath: '/home/dev/shop', external: 'file:///home/dev/shop' } },
        fullConversationHeadersOnly: [header('r1', 1), header('r2', 2)],
      },
      [`bubbleId:${c3}:r1`]: {
        _v: 3,
        type: 1,
        bubbleId: 'r1',
        text: '',
        richText: JSON.stringify({
          root: {
            type: 'root',
            children: [{ type: 'paragraph', children: [{ type: 'text', text: 'where are coupons validated?' }] }],
          },
        }),
      },
      [`bubbleId:${c3}:r2`]: { _v: 3, type: 2, bubbleId: 'r2', text: 'In src/coupons/validate.ts.' },
      'composerData:empty-one': { composerId: 'empty-one', createdAt: T0, fullConversationHeadersOnly: [] },
      'composerData:null-one': null,
      'composerData:broken-one': '{"composerId":"broken-one","conver',
      'checkpointId:abc': { files: [] },
      'agentKv:blob:0123': 'opaque',
    },
  );

  const workspace = join(root, 'User', 'workspaceStorage', '6c1f0e2d3b4a59687766554433221100', 'state.vscdb');
  await writeStateDb(
    workspace,
    {
      'composer.composerData': {
        allComposers: [{ composerId: c1, name: 'Fix the checkout total' }],
        selectedComposerIds: [c1],
      },
      'workbench.panel.aichat.view.aichat.chatdata': {
        tabs: [
          {
            tabId: 'tab-7d1e',
            chatTitle: 'How is the build set up?\nmore',
            lastSendTime: T0 + 200_000,
            bubbles: [
              { type: 'user', id: 'u1', text: 'how is the build set up?', selections: [] },
              { type: 'ai', id: 'a1', rawText: 'esbuild bundles src/ into dist/.', modelType: 'gpt-4' },
              { type: 'divider', id: 'd1' },
            ],
          },
          { tabId: 'tab-empty', chatTitle: '', bubbles: [] },
        ],
      },
    },
    {},
  );
  writeFileSync(join(workspace, '..', 'workspace.json'), JSON.stringify({ folder: 'file:///home/dev/shop' }));
  return { global, workspace };
}

/**
 * A global database with `count` composers (every fourth in the older inline form), each with a few kB of bubbles:
 * enough rows for interior b-tree pages and overflow pages, so damage can cost some sessions and spare others.
 */
export async function writeManyComposers(path: string, count: number): Promise<Buffer> {
  const kv: Record<string, Value> = {};
  for (let i = 0; i < count; i++) {
    const id = `c0ffee00-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const ask = `fix failing test number ${i}: ${'the cart total drifts by a cent when coupons stack; '.repeat(8)}`;
    const output = `FAIL src/cart${i}.test.ts\n${'  expected 10.00, received 10.01\n'.repeat(40)}`;
    if (i % 4 === 3) {
      kv[`composerData:${id}`] = {
        composerId: id,
        createdAt: T0 + i * 1000,
        conversation: [
          { type: 1, bubbleId: 'u', text: ask },
          { type: 2, bubbleId: 'a', text: `Fixed test ${i}.` },
        ],
      };
      continue;
    }
    kv[`composerData:${id}`] = {
      _v: 10,
      composerId: id,
      name: `Fix test ${i}`,
      createdAt: T0 + i * 1000,
      fullConversationHeadersOnly: [header('u', 1), header('t', 2), header('a', 2)],
    };
    kv[`bubbleId:${id}:u`] = { _v: 3, type: 1, bubbleId: 'u', text: ask, createdAt: at(i) };
    kv[`bubbleId:${id}:t`] = tool({
      bubbleId: 't',
      createdAt: at(i),
      toolFormerData: {
        name: 'run_terminal_cmd',
        toolCallId: `call_${i}`,
        rawArgs: JSON.stringify({ command: `npm test -- cart${i}` }),
        status: 'completed',
        result: JSON.stringify({ output, exitCode: 1 }),
      },
    });
    kv[`bubbleId:${id}:a`] = {
      _v: 3,
      type: 2,
      bubbleId: 'a',
      text: `The coupons of test ${i} are summed now.`,
      createdAt: at(i + 1),
    };
  }
  return writeStateDb(path, { 'cursorAuth/accessToken': SECRET }, kv);
}
