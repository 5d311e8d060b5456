import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import initSqlJs from 'sql.js';
import { DEFAULT_READ_LIMITS, type ReadLimits } from '../../../src/core/import/limits';
import { importSessions, type ImportSummary } from '../../../src/core/import/importer';
import { TraceStore } from '../../../src/core/store/traceStore';
import { fuzzSamples } from '../../support/fuzzSamples';
import { tempDir } from '../../../testing/tmp';

// Every refusal of a file for its size is one `too large` skip with its path, never a warning that reads like a
// damaged session. The caps are lowered through ReadLimits: no test writes a file anywhere near the real ones.

type Files = Record<string, string | Buffer>;

function writeHome(files: Files): string {
  const home = tempDir('combee-too-large-');
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(home, rel)), { recursive: true });
    writeFileSync(join(home, rel), content);
  }
  return home;
}

async function importHome(
  home: string,
  limits: Partial<ReadLimits> = {},
  store = join(home, '.combee-store'),
): Promise<ImportSummary> {
  return importSessions({
    from: home,
    store: new TraceStore(store),
    limits: { ...DEFAULT_READ_LIMITS, ...limits },
    concurrency: 1,
  });
}

const T0 = Date.parse('2026-11-02T09:00:00.000Z');
const codexId = 'd2b9a1f0-1111-4222-8333-444455556666';
const codexDocument = {
  session: { timestamp: '2025-05-01T08:00:00.000Z', id: codexId, instructions: '' },
  items: [
    { id: 'msg_1', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'what changed?' }] },
    { id: 'msg_2', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Nothing.' }] },
  ],
};
const geminiDocument = {
  sessionId: 'b',
  projectHash: 'f'.repeat(64),
  startTime: '2026-11-02T10:00:00.000Z',
  messages: [
    { id: 'm1', timestamp: '2026-11-02T10:00:01.000Z', type: 'user', content: 'hello' },
    { id: 'm2', timestamp: '2026-11-02T10:00:02.000Z', type: 'gemini', content: 'hi' },
  ],
};

/** One session stored as one JSON document, per reader that reads them whole: where it sits, and its companions. */
function documentSamples(): Array<{ name: string; target: string; content: Buffer; companions: Files }> {
  const inline = fuzzSamples().filter((s) => s.name.startsWith('inline/'));
  assert.equal(inline.length, 4, 'the Cline, Roo Code, Continue and Copilot Chat samples');
  return [
    ...inline,
    {
      name: 'codex single-JSON rollout',
      target: `.codex/sessions/2025/05/01/rollout-2025-05-01-${codexId}.json`,
      content: Buffer.from(JSON.stringify(codexDocument, null, 2)),
      companions: {},
    },
    {
      name: 'gemini-cli single-JSON session',
      target: '.gemini/tmp/shop/chats/session-2026-11-02T10-00-b.json',
      content: Buffer.from(JSON.stringify(geminiDocument, null, 2)),
      companions: {},
    },
  ];
}

describe('import: a file refused for its size is skipped as "too large"', () => {
  for (const sample of documentSamples()) {
    it(`${sample.name}: counted with its path, no warning, and again on the next import`, async () => {
      const home = writeHome({ ...sample.companions, [sample.target]: sample.content });
      const path = join(home, sample.target);
      const intact = await importHome(home, {}, join(home, 'intact-store'));
      assert.ok(
        intact.sessions >= 1,
        `the sample imports under the default cap (${intact.warningMessages.join('; ')})`,
      );
      assert.equal(intact.skipped['too large'], undefined);

      const refused = await importHome(home, { maxDocumentBytes: sample.content.length });
      assert.equal(refused.sessions, 0);
      assert.equal(refused.skipped['too large'], 1);
      assert.deepEqual(refused.skippedSamples['too large'], [path]);
      assert.deepEqual(refused.warningMessages, [], 'a file too big to parse is no damaged session');
      const again = await importHome(home, { maxDocumentBytes: sample.content.length });
      assert.equal(again.skipped['too large'], 1, 'still counted while it stays too large');

      const fits = await importHome(home, { maxDocumentBytes: sample.content.length + 1 });
      assert.ok(fits.sessions >= 1, 'imported once the cap is above its size');
      assert.equal(fits.skipped['too large'], undefined);
    });
  }

  it('Cline: a ui_messages.json too large is skipped; the task history is still imported', async () => {
    const [cline] = documentSamples();
    const [uiPath] = Object.keys(cline.companions);
    const ui = JSON.stringify([
      { ts: T0, type: 'say', say: 'task', text: `Fix the failing cart test ${'x'.repeat(4 * cline.content.length)}` },
    ]);
    const home = writeHome({ [cline.target]: cline.content, [uiPath]: ui });
    const summary = await importHome(home, { maxDocumentBytes: cline.content.length + 1 });
    assert.equal(summary.sessions, 1);
    assert.deepEqual(summary.skipped, { 'too large': 1 }, 'counted once, as too large rather than not a session');
    assert.deepEqual(summary.skippedSamples['too large'], [join(home, uiPath)]);
    assert.deepEqual(summary.warningMessages, []);
  });

  it('OpenCode JSON storage: a part file too large is skipped; the session keeps its other parts', async () => {
    const storage = '.local/share/opencode/storage';
    const sid = 'ses_01JBIG';
    const big = JSON.stringify({ id: 'prt_02', type: 'text', text: 'y'.repeat(4096) });
    const home = writeHome({
      [`${storage}/session/prj_1/${sid}.json`]: JSON.stringify({
        id: sid,
        version: '1.1.40',
        projectID: 'prj_1',
        directory: '/home/dev/shop',
        title: 'Big part',
        time: { created: T0, updated: T0 + 1000 },
      }),
      [`${storage}/message/${sid}/msg_01.json`]: JSON.stringify({
        id: 'msg_01',
        sessionID: sid,
        role: 'user',
        time: { created: T0 },
      }),
      [`${storage}/part/msg_01/prt_01.json`]: JSON.stringify({ id: 'prt_01', type: 'text', text: 'build it' }),
      [`${storage}/part/msg_01/prt_02.json`]: big,
    });
    const summary = await importHome(home, { maxDocumentBytes: big.length });
    assert.equal(summary.sessions, 1);
    // the message and part files the walk glanced at stay `not a session`; the one refused is `too large`
    assert.equal(summary.skipped['too large'], 1);
    assert.deepEqual(summary.skippedSamples['too large'], [join(home, storage, 'part', 'msg_01', 'prt_02.json')]);
    assert.deepEqual(summary.warningMessages, [], 'not reported as a malformed part');
  });

  it('SQLite stores (Cursor state.vscdb, opencode.db) over the in-memory cap are skipped as too large', async () => {
    const SQL = await initSqlJs();
    const database = (schema: string) => {
      const db = new SQL.Database();
      db.exec(schema);
      const bytes = Buffer.from(db.export());
      db.close();
      return bytes;
    };
    const cursor = database(
      'CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB); CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);',
    );
    const openCode = database(
      'CREATE TABLE session (id text PRIMARY KEY); CREATE TABLE message (id text PRIMARY KEY); CREATE TABLE part (id text PRIMARY KEY);',
    );
    const home = writeHome({
      'Cursor/User/globalStorage/state.vscdb': cursor,
      '.local/share/opencode/opencode.db': openCode,
    });
    const paths = [
      join(home, '.local/share/opencode/opencode.db'),
      join(home, 'Cursor/User/globalStorage/state.vscdb'),
    ];
    const refused = await importHome(home, { maxSqliteBytes: Math.min(cursor.length, openCode.length) - 1 });
    assert.equal(refused.skipped['too large'], 2);
    assert.deepEqual([...(refused.skippedSamples['too large'] ?? [])].sort(), paths.sort());
    assert.deepEqual(refused.warningMessages, []);
    const read = await importHome(home, {}, join(home, 'other-store'));
    assert.equal(read.skipped['too large'], undefined, 'opened under the default cap');
  });
});
