import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import initSqlJs, { type SqlValue } from 'sql.js';
import { discoverSessions } from '../../../src/core/trace/discover';
import { DEFAULT_READ_LIMITS, importFile } from '../../../src/core/trace/importer';
import type { Step, Trace } from '../../../src/core/trace/model';
import { openCodeDbReader } from '../../../src/core/trace/sources/openCodeDb';
import { openSqlite } from '../../../src/core/trace/sources/sqlite';
import type { SessionFile } from '../../../src/core/trace/sources/types';
import { FIXTURES } from '../../support/paths';
import { tempDir } from '../../support/tmp';

const counts = (t: Trace) => t.steps.reduce<Partial<Record<Step['kind'], number>>>((c, s) => ({ ...c, [s.kind]: (c[s.kind] ?? 0) + 1 }), {});

// The tables of OpenCode ≥1.2 (packages/opencode/src/session/session.sql.ts), trimmed to the columns read or required.
const SCHEMA = `
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL, title text NOT NULL,
  version text NOT NULL, share_url text, cost real NOT NULL DEFAULT 0, time_created integer NOT NULL, time_updated integer NOT NULL, time_archived integer);
CREATE INDEX session_parent_idx ON session (parent_id);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
CREATE TABLE todo (session_id text NOT NULL, content text NOT NULL, status text NOT NULL, priority text NOT NULL, position integer NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL, PRIMARY KEY (session_id, position));
`;

const T0 = 1770000000000;
const PARENT = 'ses_3a1f0c2d9ffeAbCdEf012345';
const CHILD = 'ses_3a1f0c2d9ffeChild0000001';

interface Row { id: string; session: string; at: number; data: unknown }
interface PartRow { id: string; message: string; session: string; data: unknown }

/** Synthetic rows in the message-v2 shapes of research §8; messages inserted out of time order. */
function rows(): { messages: Row[]; parts: PartRow[] } {
  const messages: Row[] = [
    { id: 'msg_c03', session: PARENT, at: T0 + 30_000, data: { role: 'assistant', time: { created: T0 + 30_000, completed: T0 + 40_000 }, parentID: 'msg_c01', modelID: 'claude-sonnet-4-5', providerID: 'anthropic', mode: 'build', path: { cwd: '/home/dev/shop', root: '/home/dev/shop' }, cost: 0.01, tokens: { input: 900, output: 120, reasoning: 0, cache: { read: 0, write: 0 } }, finish: 'stop' } },
    { id: 'msg_c01', session: PARENT, at: T0 + 10_000, data: { role: 'user', time: { created: T0 + 10_000 }, agent: 'build', model: { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' } } },
    { id: 'msg_c02', session: PARENT, at: T0 + 20_000, data: { role: 'assistant', time: { created: T0 + 20_000, completed: T0 + 29_000 }, parentID: 'msg_c01', modelID: 'claude-sonnet-4-5', providerID: 'anthropic', path: { cwd: '/home/dev/shop', root: '/home/dev/shop' }, finish: 'tool-calls' } },
    { id: 'msg_c04', session: PARENT, at: T0 + 50_000, data: { role: 'system', time: { created: T0 + 50_000 } } },
    { id: 'msg_k01', session: CHILD, at: T0 + 60_000, data: { role: 'user', time: { created: T0 + 60_000 } } },
    { id: 'msg_k02', session: CHILD, at: T0 + 61_000, data: { role: 'assistant', time: { created: T0 + 61_000, completed: T0 + 62_000 }, modelID: 'gpt-5.5', error: { name: 'MessageAbortedError', data: { message: 'The operation was aborted.' } } } },
  ];
  const tool = (callID: string, name: string, state: unknown) => ({ type: 'tool', callID, tool: name, state });
  const parts: PartRow[] = [
    { id: 'prt_c01a', message: 'msg_c01', session: PARENT, data: { type: 'text', text: 'the cart total is wrong when a coupon is applied, fix it' } },
    { id: 'prt_c01b', message: 'msg_c01', session: PARENT, data: { type: 'file', mime: 'text/plain', filename: 'cart.ts', url: 'file:///home/dev/shop/src/cart.ts' } },
    { id: 'prt_c01c', message: 'msg_c01', session: PARENT, data: { type: 'text', text: 'Called the Read tool with {"filePath":"src/cart.ts"}', synthetic: true } },
    { id: 'prt_c02a', message: 'msg_c02', session: PARENT, data: { type: 'step-start', snapshot: 'a1' } },
    { id: 'prt_c02b', message: 'msg_c02', session: PARENT, data: { type: 'reasoning', text: 'Run the tests first.', time: { start: T0 + 20_500 } } },
    { id: 'prt_c02c', message: 'msg_c02', session: PARENT, data: tool('toolu_01', 'bash', { status: 'completed', input: { command: 'pnpm test cart', description: 'Run cart tests' }, output: '1 failing\n  cart applies coupon once', metadata: { exit: 1 }, title: 'pnpm test cart', time: { start: T0 + 21_000, end: T0 + 24_000 } }) },
    { id: 'prt_c02d', message: 'msg_c02', session: PARENT, data: tool('toolu_02', 'edit', { status: 'completed', input: { filePath: '/home/dev/shop/src/cart.ts', oldString: 'total -= c', newString: 'total -= c.amount' }, output: 'Edit applied successfully.', time: { start: T0 + 25_000, end: T0 + 25_500 } }) },
    { id: 'prt_c02e', message: 'msg_c02', session: PARENT, data: { type: 'step-finish', reason: 'tool-calls', tokens: { input: 1, output: 1 }, cost: 0 } },
    { id: 'prt_c02f', message: 'msg_c02', session: PARENT, data: '{"type":"te' },
    { id: 'prt_c03a', message: 'msg_c03', session: PARENT, data: tool('toolu_03', 'bash', { status: 'completed', input: { command: 'pnpm test cart' }, output: '3 passing', metadata: { exit: 0 }, time: { start: T0 + 31_000, end: T0 + 33_000 } }) },
    { id: 'prt_c03b', message: 'msg_c03', session: PARENT, data: { type: 'hologram', payload: 1 } },
    { id: 'prt_c03c', message: 'msg_c03', session: PARENT, data: { type: 'text', text: 'The coupon was subtracted as an object; it uses its amount now and the tests pass.', time: { start: T0 + 34_000 } } },
    { id: 'prt_k01a', message: 'msg_k01', session: CHILD, data: { type: 'text', text: 'find where coupons are validated' } },
    { id: 'prt_k02a', message: 'msg_k02', session: CHILD, data: tool('toolu_k1', 'bash', { status: 'denied', input: { command: 'rm -rf node_modules' } }) },
  ];
  return { messages, parts };
}

let sql: Awaited<ReturnType<typeof initSqlJs>> | undefined;

/** A database made with sql.js itself, exported to `path`. */
async function writeDb(path: string, schema: string, inserts: Array<[string, SqlValue[]]>): Promise<Buffer> {
  sql ??= await initSqlJs();
  const db = new sql.Database();
  db.exec(schema);
  for (const [statement, params] of inserts) db.run(statement, params);
  const bytes = Buffer.from(db.export());
  db.close();
  writeFileSync(path, bytes);
  return bytes;
}

async function writeOpenCodeDb(path: string): Promise<Buffer> {
  const { messages, parts } = rows();
  const inserts: Array<[string, SqlValue[]]> = [
    ['INSERT INTO project VALUES (?, ?, ?, ?, ?, ?)', ['prj_1', '/home/dev/shop', 'git', 'shop', T0, T0]],
    ['INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [PARENT, 'prj_1', null, 'brave-cart', '/home/dev/shop', 'Fix the coupon total', '1.2.10', T0, T0 + 45_000]],
    ['INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [CHILD, 'prj_1', PARENT, 'calm-coupon', '/home/dev/shop', 'Find coupon validation (@general subagent)', '1.2.10', T0 + 59_000, T0 + 62_000]],
    ['INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', ['ses_empty', 'prj_1', null, 'empty', '/home/dev/shop', 'New session', '1.2.10', T0 + 70_000, T0 + 70_000]],
    ['INSERT INTO todo VALUES (?, ?, ?, ?, ?, ?, ?)', [PARENT, 'run tests', 'completed', 'high', 0, T0, T0]],
  ];
  for (const m of messages) inserts.push(['INSERT INTO message VALUES (?, ?, ?, ?, ?)', [m.id, m.session, m.at, m.at, JSON.stringify(m.data)]]);
  for (const p of parts) inserts.push(['INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)', [p.id, p.message, p.session, T0, T0, typeof p.data === 'string' ? p.data : JSON.stringify(p.data)]]);
  return writeDb(path, SCHEMA, inserts);
}

async function importPath(path: string): Promise<{ traces: Map<string, Trace>; warnings: string[] }> {
  const files = await discoverSessions(path);
  assert.equal(files.length, 1, `one database under ${path}`);
  assert.equal(files[0].agent, 'opencode');
  const out = await importFile(files[0], DEFAULT_READ_LIMITS, {});
  return { traces: new Map(out.traces.map((t) => [t.id, t])), warnings: out.warnings };
}

function sessionFile(path: string): SessionFile {
  const info = statSync(path);
  return { path, agent: 'opencode', bytes: info.size, mtimeMs: info.mtimeMs };
}

describe('OpenCode database reader (opencode.db)', () => {
  it('reads every session with messages in time order, subagent links, error and unknown parts', async () => {
    const dir = tempDir('combee-opencode-db-');
    await writeOpenCodeDb(join(dir, 'opencode.db'));
    const { traces, warnings } = await importPath(dir);
    assert.deepEqual(warnings.map((w) => w.replace(/^.*opencode\.db: /, '')), ['part prt_c02f: not an OpenCode part; skipped']);
    assert.deepEqual([...traces.keys()].sort(), [`opencode:${PARENT}`, `opencode:${CHILD}`], 'the empty session has no trace');

    const parent = traces.get(`opencode:${PARENT}`) as Trace;
    assert.equal(parent.agent, 'opencode');
    assert.equal(parent.agentVersion, '1.2.10');
    assert.equal(parent.cwd, '/home/dev/shop');
    assert.equal(parent.title, 'Fix the coupon total');
    assert.equal(parent.startedAt, new Date(T0).toISOString());
    assert.equal(parent.endedAt, new Date(T0 + 45_000).toISOString());
    assert.equal(parent.parentId, undefined);
    assert.deepEqual(parent.steps.map((s) => s.kind), ['user', 'user', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'assistant']);
    assert.deepEqual(counts(parent), { user: 2, tool_call: 3, tool_result: 3, assistant: 1 });
    assert.ok(parent.steps[1].kind === 'user' && parent.steps[1].isMeta === true, 'synthetic text is not typed by the user');
    const failing = parent.steps[3];
    assert.ok(failing.kind === 'tool_result' && failing.callId === 'toolu_01' && failing.isError && failing.exitCode === 1);
    assert.equal(failing.time, new Date(T0 + 24_000).toISOString());
    const call = parent.steps[2];
    assert.ok(call.kind === 'tool_call' && call.command === 'pnpm test cart' && call.tool === 'bash');
    const answer = parent.steps[8];
    assert.ok(answer.kind === 'assistant' && answer.model === 'claude-sonnet-4-5');
    assert.deepEqual(parent.outcome.testRuns, { passed: 1, failed: 1 });
    assert.equal(parent.outcome.toolErrors, 1);
    assert.deepEqual(parent.unknown, { 'part:hologram': 1, 'message:system': 1 });
    assert.equal(parent.source.bytes, statSync(join(dir, 'opencode.db')).size);

    const child = traces.get(`opencode:${CHILD}`) as Trace;
    assert.equal(child.parentId, `opencode:${PARENT}`);
    assert.ok(child.steps.every((s) => s.sidechain === true));
    assert.deepEqual(child.steps.map((s) => s.kind), ['user', 'tool_call', 'error']);
    assert.ok(child.steps[2].kind === 'error' && child.steps[2].text === 'turn aborted: The operation was aborted.');
    assert.equal(child.outcome.interrupted, true);
    assert.deepEqual(child.unknown, { 'tool-status:denied': 1 });
  });

  it('folds committed WAL frames in, ignores a torn last commit, and warns about a damaged WAL header', async () => {
    // Made once with the sqlite3 CLI (page_size 512, journal_mode WAL, wal_autocheckpoint 0), copied while open:
    // msg_1 is in the main file, msg_2 and its part in two WAL commits, msg_3 and its part in a third.
    const wal = readFileSync(join(FIXTURES, 'sqlite-wal', 'opencode.db-wal'));
    const texts = async (walBytes: Buffer | undefined) => {
      const dir = tempDir('combee-opencode-wal-');
      copyFileSync(join(FIXTURES, 'sqlite-wal', 'opencode.db'), join(dir, 'opencode.db'));
      if (walBytes) writeFileSync(join(dir, 'opencode.db-wal'), walBytes);
      const { traces, warnings } = await importPath(dir);
      const trace = traces.get('opencode:ses_wal') as Trace;
      return { texts: trace.steps.map((s) => (s.kind === 'user' || s.kind === 'assistant' ? s.text : s.kind)), warnings };
    };
    assert.deepEqual(await texts(undefined), { texts: ['in the main file'], warnings: [] });
    assert.deepEqual(await texts(wal), { texts: ['in the main file', 'first commit in the WAL', 'last commit in the WAL'], warnings: [] });
    const torn = Buffer.from(wal);
    torn[torn.length - 100] ^= 0xff; // inside the last frame: its checksum fails, so its whole transaction is dropped
    assert.deepEqual(await texts(torn), { texts: ['in the main file', 'first commit in the WAL'], warnings: [] });
    const badHeader = Buffer.from(wal);
    badHeader[16] ^= 0xff;
    const result = await texts(badHeader);
    assert.deepEqual(result.texts, ['in the main file']);
    assert.equal(result.warnings.length, 1);
    assert.match(result.warnings[0], /opencode\.db-wal: ignored \(bad header checksum\)/);
  });

  it('warns about a truncated database or a damaged page, without throwing', async () => {
    const dir = tempDir('combee-opencode-db-');
    const bytes = await writeOpenCodeDb(join(dir, 'full.db'));
    mkdirSync(join(dir, 'cut'));
    writeFileSync(join(dir, 'cut', 'opencode.db'), bytes.subarray(0, Math.floor(bytes.length * 0.9)));
    let out = await importFile(sessionFile(join(dir, 'cut', 'opencode.db')), DEFAULT_READ_LIMITS, {});
    assert.equal(out.traces.length, 0);
    assert.deepEqual(out.warnings.map((w) => w.replace(/^.*opencode\.db: /, '')), ['unreadable SQLite database (database disk image is malformed); skipped']);

    // The page holding the part rows is overwritten: the file opens, reading the parts fails.
    const page = Math.floor(bytes.indexOf('rm -rf node_modules') / 4096);
    const damaged = Buffer.from(bytes);
    damaged.fill(0xa5, page * 4096, (page + 1) * 4096);
    mkdirSync(join(dir, 'damaged'));
    writeFileSync(join(dir, 'damaged', 'opencode.db'), damaged);
    out = await importFile(sessionFile(join(dir, 'damaged', 'opencode.db')), DEFAULT_READ_LIMITS, {});
    assert.equal(out.traces.length, 0);
    assert.deepEqual(out.warnings.map((w) => w.replace(/^.*opencode\.db: /, '')), ['damaged database (database disk image is malformed); the sessions that could be read are kept']);
  });

  it('warns about a database that is not SQLite inside, or not OpenCode’s, with no trace', async () => {
    const dir = tempDir('combee-opencode-db-');
    const garbage = Buffer.alloc(8192, 0x5a);
    Buffer.from('SQLite format 3\u0000').copy(garbage);
    writeFileSync(join(dir, 'opencode.db'), garbage);
    let out = await importFile(sessionFile(join(dir, 'opencode.db')), DEFAULT_READ_LIMITS, {});
    assert.equal(out.traces.length, 0);
    assert.equal(out.warnings.length, 1);
    assert.match(out.warnings[0], /unreadable SQLite database/);

    mkdirSync(join(dir, 'other'));
    await writeDb(join(dir, 'other', 'opencode.db'), 'CREATE TABLE project (id text PRIMARY KEY);', []);
    out = await importFile(sessionFile(join(dir, 'other', 'opencode.db')), DEFAULT_READ_LIMITS, {});
    assert.equal(out.traces.length, 0);
    assert.deepEqual(out.warnings.map((w) => w.replace(/^.*opencode\.db: /, '')), ['not an OpenCode database (no session, message, part table); skipped']);
  });

  it('refuses a database over the in-memory size cap as too large, without a warning', async () => {
    const dir = tempDir('combee-opencode-db-');
    const path = join(dir, 'opencode.db');
    const bytes = await writeOpenCodeDb(path);
    const warnings: string[] = [];
    const tooLarge: string[] = [];
    const options = { warn: (m: string) => warnings.push(m), tooLarge: (p: string) => tooLarge.push(p) };
    assert.equal(await openSqlite(path, bytes.length, { ...options, maxBytes: bytes.length - 1 }), undefined);
    assert.deepEqual(warnings, []);
    assert.deepEqual(tooLarge, [path]);
    const image = await openSqlite(path, bytes.length, { ...options, maxBytes: bytes.length });
    assert.ok(image, 'opened at exactly the cap');
    image.close();
  });

  it('claims opencode.db and channel databases only, by name and SQLite header', () => {
    const head = 'SQLite format 3\u0000\u0010\u0000';
    assert.equal(openCodeDbReader.sniff('/d/opencode/opencode.db', head), true);
    assert.equal(openCodeDbReader.sniff('/d/opencode/opencode-dev.db', head), true);
    assert.equal(openCodeDbReader.sniff('/d/opencode/opencode.db', '{"id":"ses_1"}'), false);
    assert.equal(openCodeDbReader.accepts('/d/opencode/state.db'), false);
    assert.equal(openCodeDbReader.accepts('/d/opencode/opencode.db-wal'), false);
  });
});
