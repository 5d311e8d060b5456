import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_READ_LIMITS } from '../../../src/core/import/limits';
import type { Trace } from '../../../src/core/trace/model';
import { openCodeDbReader } from '../../../src/core/trace/sources/openCodeDb';
import { openSqlite } from '../../../src/core/trace/sources/sqlite';
import type { SessionFile } from '../../../src/core/trace/sources/types';
import {
  CHILD,
  OPENCODE_SCHEMA,
  PARENT,
  T0,
  writeDb,
  writeManyOpenCodeSessions,
  writeOpenCodeDb,
} from '../../support/openCodeDb';
import { FIXTURES } from '../../support/paths';
import { tempDir } from '../../../testing/tmp';
import { counts } from '../../support/readerFixtures';
import { discoverSessions, importFile } from '../../support/importFiles';

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
    assert.deepEqual(
      warnings.map((w) => w.replace(/^.*opencode\.db: /, '')),
      ['part prt_c02f: not an OpenCode part; skipped'],
    );
    assert.deepEqual(
      [...traces.keys()].sort(),
      [`opencode:${PARENT}`, `opencode:${CHILD}`],
      'the empty session has no trace',
    );

    const parent = traces.get(`opencode:${PARENT}`) as Trace;
    assert.equal(parent.agent, 'opencode');
    assert.equal(parent.agentVersion, '1.2.10');
    assert.equal(parent.cwd, '/home/dev/shop');
    assert.equal(parent.title, 'Fix the coupon total');
    assert.equal(parent.startedAt, new Date(T0).toISOString());
    assert.equal(parent.endedAt, new Date(T0 + 45_000).toISOString());
    assert.equal(parent.parentId, undefined);
    assert.deepEqual(
      parent.steps.map((s) => s.kind),
      ['user', 'user', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'assistant'],
    );
    assert.deepEqual(counts(parent), { user: 2, tool_call: 3, tool_result: 3, assistant: 1 });
    assert.ok(
      parent.steps[1].kind === 'user' && parent.steps[1].isMeta === true,
      'synthetic text is not typed by the user',
    );
    const failing = parent.steps[3];
    assert.ok(
      failing.kind === 'tool_result' && failing.callId === 'toolu_01' && failing.isError && failing.exitCode === 1,
    );
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
    assert.deepEqual(
      child.steps.map((s) => s.kind),
      ['user', 'tool_call', 'error'],
    );
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
      return {
        texts: trace.steps.map((s) => (s.kind === 'user' || s.kind === 'assistant' ? s.text : s.kind)),
        warnings,
      };
    };
    assert.deepEqual(await texts(undefined), { texts: ['in the main file'], warnings: [] });
    assert.deepEqual(await texts(wal), {
      texts: ['in the main file', 'first commit in the WAL', 'last commit in the WAL'],
      warnings: [],
    });
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
    assert.deepEqual(
      out.warnings.map((w) => w.replace(/^.*opencode\.db: /, '')),
      ['unreadable SQLite database (database disk image is malformed); skipped'],
    );

    // The page holding the part rows is overwritten: the file opens, reading the parts fails. The subagent keeps
    // what is left (its error), the parent has nothing left: it is counted, by name.
    const page = Math.floor(bytes.indexOf('rm -rf node_modules') / 4096);
    const damaged = Buffer.from(bytes);
    damaged.fill(0xa5, page * 4096, (page + 1) * 4096);
    mkdirSync(join(dir, 'damaged'));
    writeFileSync(join(dir, 'damaged', 'opencode.db'), damaged);
    out = await importFile(sessionFile(join(dir, 'damaged', 'opencode.db')), DEFAULT_READ_LIMITS, {});
    assert.deepEqual(
      out.traces.map((t) => [t.id, t.steps.map((s) => s.kind)]),
      [[`opencode:${CHILD}`, ['error']]],
    );
    assert.deepEqual(
      out.warnings.map((w) => w.replace(/^.*opencode\.db: /, '')),
      [
        `damaged database (database disk image is malformed); 1 session(s) lost (session ${PARENT}), the 1 that could be read are kept`,
      ],
    );
  });

  it('reads the sessions past a damaged page of the session table from their messages, by the ids in the indexes', async () => {
    const dir = tempDir('combee-opencode-db-');
    const bytes = await writeManyOpenCodeSessions(join(dir, 'whole.db'), 40);
    // The session rows are small: all 40 share one or two pages; the one holding slug-20 is overwritten.
    const page = Math.floor(bytes.indexOf('slug-20') / 4096);
    const damaged = Buffer.from(bytes);
    damaged.fill(0, page * 4096, (page + 1) * 4096);
    mkdirSync(join(dir, 'opencode'));
    writeFileSync(join(dir, 'opencode', 'opencode.db'), damaged);
    const out = await importFile(sessionFile(join(dir, 'opencode', 'opencode.db')), DEFAULT_READ_LIMITS, {});
    assert.equal(out.traces.length, 40, out.warnings.join('\n'));
    const twenty = out.traces.find((t) => t.id === 'opencode:ses_many000020') as Trace;
    assert.deepEqual(
      twenty.steps.map((s) => s.kind),
      ['user', 'tool_call', 'tool_result', 'assistant'],
    );
    assert.match(twenty.title ?? '', /^fix failing test 20/, 'its row is gone: the title comes from its first message');
    assert.deepEqual(
      out.warnings.map((w) => w.replace(/^.*opencode\.db: /, '')),
      ['damaged database (database disk image is malformed); the sessions that could be read are kept'],
    );
  });

  it('says which session gave nothing but malformed messages, and counts them past three', async () => {
    const dir = tempDir('combee-opencode-db-');
    const inserts: Array<[string, Array<string | number | null>]> = [
      ['INSERT INTO project VALUES (?, ?, ?, ?, ?, ?)', ['prj_1', '/home/dev/shop', 'git', 'shop', T0, T0]],
    ];
    for (let i = 1; i <= 5; i++) {
      inserts.push([
        'INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [`ses_bad${i}`, 'prj_1', `bad-${i}`, '/home/dev/shop', 'Broken', '1.2.10', T0 + i, T0 + i],
      ]);
      inserts.push([
        'INSERT INTO message VALUES (?, ?, ?, ?, ?)',
        [`msg_bad${i}`, `ses_bad${i}`, T0 + i, T0 + i, '{"role":"user","ti'],
      ]);
    }
    const path = join(dir, 'opencode.db');
    await writeDb(path, OPENCODE_SCHEMA, inserts);
    const out = await importFile(sessionFile(path), DEFAULT_READ_LIMITS, {});
    assert.equal(out.traces.length, 0);
    const shown = out.warnings.map((w) => w.replace(/^.*opencode\.db: /, ''));
    assert.deepEqual(
      shown.filter((w) => w.startsWith('session ')),
      [1, 2, 3].map((i) => `session ses_bad${i}: none of its 1 message(s) could be read; skipped`),
    );
    assert.equal(shown[shown.length - 1], '5 sessions skipped in all');
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
    assert.deepEqual(
      out.warnings.map((w) => w.replace(/^.*opencode\.db: /, '')),
      ['not an OpenCode database (no session, message, part table); skipped'],
    );
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

  it('takes an opencode.db with a damaged head in an opencode folder as OpenCode’s, and warns', async () => {
    const dir = tempDir('combee-opencode-db-');
    const bytes = await writeOpenCodeDb(join(dir, 'whole.db'));
    const damaged = Buffer.from(bytes);
    damaged[3] ^= 0x20; // "SQLite" → "SQlite"
    for (const folder of ['opencode', 'elsewhere']) {
      mkdirSync(join(dir, folder));
      writeFileSync(join(dir, folder, 'opencode.db'), damaged);
    }
    const files = await discoverSessions(dir);
    assert.deepEqual(
      files.map((f) => [f.path, f.agent]),
      [[join(dir, 'opencode', 'opencode.db'), 'opencode']],
    );
    const out = await importFile(files[0], DEFAULT_READ_LIMITS, {});
    assert.deepEqual(
      out.warnings.map((w) => w.replace(/^.*opencode\.db: /, '')),
      ['not a SQLite database; skipped'],
    );
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
