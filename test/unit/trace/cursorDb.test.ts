import assert from 'node:assert/strict';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_READ_LIMITS } from '../../../src/core/import/limits';
import type { Trace } from '../../../src/core/trace/model';
import { cursorDbReader } from '../../../src/core/trace/sources/cursorDb';
import type { SessionFile } from '../../../src/core/trace/sources/types';
import { at, SECRET, writeCursorUser, writeManyComposers, writeStateDb } from '../../support/cursorStateDb';
import { tempDir } from '../../../testing/tmp';
import { counts } from '../../support/readerFixtures';
import { discoverSessions, importFile } from '../../support/importFiles';

function sessionFile(path: string): SessionFile {
  const info = statSync(path);
  return { path, agent: 'cursor', bytes: info.size, mtimeMs: info.mtimeMs };
}

describe('Cursor IDE database reader (state.vscdb)', () => {
  it('reads composers from the global database and old chat tabs from a workspace database', async () => {
    const root = tempDir('combee-cursor-db-');
    const { global, workspace } = await writeCursorUser(root);
    const files = await discoverSessions(root);
    assert.deepEqual(
      files.map((f) => [f.path, f.agent]),
      [
        [global, 'cursor'],
        [workspace, 'cursor'],
      ],
    );
    const traces = new Map<string, Trace>();
    const warnings: string[] = [];
    for (const file of files) {
      const out = await importFile(file, DEFAULT_READ_LIMITS, {});
      warnings.push(...out.warnings);
      for (const t of out.traces) traces.set(t.id, t);
    }
    assert.deepEqual(
      warnings.map((w) => w.replace(/^.*state\.vscdb: /, '')),
      ['composerData:broken-one: not a Cursor composer; skipped'],
    );
    assert.deepEqual([...traces.keys()].sort(), [
      'cursor:2b7c9d10-4e5f-4a6b-8c7d-9e0f1a2b3c42',
      'cursor:8f0e6a52-1c7e-4d0b-9a55-0b5c1d2e3f41',
      'cursor:d4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f43',
      'cursor:tab-7d1e',
    ]);
    assert.ok(!JSON.stringify([...traces.values()]).includes(SECRET), 'no ItemTable value but the chat keys is read');
    assert.ok(!JSON.stringify([...traces.values()]).includes('k-should-not-leak'));

    const c1 = traces.get('cursor:8f0e6a52-1c7e-4d0b-9a55-0b5c1d2e3f41') as Trace;
    assert.equal(c1.cwd, '/home/dev/shop', 'listed by the workspace database, whose folder is in workspace.json');
    assert.equal(c1.title, 'Fix the checkout total');
    assert.equal(c1.startedAt, at(0));
    assert.equal(c1.endedAt, at(60));
    assert.equal(c1.source.path, global);
    assert.deepEqual(
      c1.steps.map((s) => s.kind),
      [
        'user',
        'tool_call',
        'tool_result',
        'assistant',
        'tool_call',
        'tool_result',
        'tool_call',
        'tool_result',
        'tool_call',
        'tool_result',
        'tool_call',
        'tool_result',
        'assistant',
      ],
    );
    assert.deepEqual(counts(c1), { user: 1, tool_call: 5, tool_result: 5, assistant: 2 });
    const failing = c1.steps[2];
    assert.ok(
      failing.kind === 'tool_result' &&
        failing.callId === 'toolu_01' &&
        failing.isError &&
        failing.exitCode === 1 &&
        failing.output === '1 failing\n  applies both coupons',
    );
    const testCall = c1.steps[1];
    assert.ok(
      testCall.kind === 'tool_call' &&
        testCall.tool === 'run_terminal_cmd' &&
        testCall.command === 'npm test -- checkout',
    );
    assert.equal(testCall.time, at(3));
    const edit = c1.steps[5];
    assert.ok(edit.kind === 'tool_result' && !edit.isError && edit.callId === 'toolu_02');
    assert.equal(c1.steps[3].time, at(4), 'clientStartTime when createdAt is missing');
    const cancelled = c1.steps[7];
    assert.ok(
      cancelled.kind === 'tool_result' &&
        cancelled.isError &&
        cancelled.interrupted === true &&
        cancelled.output === 'cancelled',
    );
    const rejected = c1.steps[9];
    assert.ok(rejected.kind === 'tool_result' && rejected.isError && rejected.output === 'rejected by the user');
    const passing = c1.steps[11];
    assert.ok(passing.kind === 'tool_result' && !passing.isError && passing.exitCode === 0);
    const answer = c1.steps[12];
    assert.ok(answer.kind === 'assistant' && answer.model === 'claude-4.5-sonnet-thinking');
    const fixing = c1.steps[3];
    assert.ok(
      fixing.kind === 'assistant' && fixing.model === 'claude-4.5-sonnet',
      'the composer model when the bubble has none',
    );
    assert.deepEqual(c1.outcome.testRuns, { passed: 1, failed: 1 });
    assert.equal(c1.outcome.toolErrors, 3);
    assert.equal(c1.outcome.interrupted, true);
    assert.deepEqual(c1.unknown, { 'bubble:missing': 1, 'bubble:type:3': 1 });

    const c2 = traces.get('cursor:2b7c9d10-4e5f-4a6b-8c7d-9e0f1a2b3c42') as Trace;
    assert.equal(c2.cwd, '/home/dev/lib', 'the common folder of the files in context');
    assert.equal(c2.title, 'rename fetchUser to loadUser');
    assert.deepEqual(
      c2.steps.map((s) => s.kind),
      ['user', 'assistant', 'tool_call'],
    );
    assert.deepEqual(c2.unknown, { 'tool-status:weird-new-status': 1 });

    const c3 = traces.get('cursor:d4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f43') as Trace;
    assert.equal(c3.cwd, '/home/dev/shop', 'workspaceIdentifier');
    assert.equal(c3.parentId, 'cursor:8f0e6a52-1c7e-4d0b-9a55-0b5c1d2e3f41');
    assert.deepEqual(
      c3.steps.map((s) => (s.kind === 'user' || s.kind === 'assistant' ? s.text : s.kind)),
      ['where are coupons validated?', 'In src/coupons/validate.ts.'],
    );

    const tab = traces.get('cursor:tab-7d1e') as Trace;
    assert.equal(tab.cwd, '/home/dev/shop');
    assert.equal(tab.title, 'How is the build set up?');
    assert.equal(tab.endedAt, at(200));
    assert.equal(tab.source.path, workspace);
    assert.deepEqual(
      tab.steps.map((s) => s.kind),
      ['user', 'assistant'],
    );
    assert.deepEqual(tab.unknown, { 'bubble:divider': 1 });
  });

  it('does not claim VS Code’s own state.vscdb', async () => {
    const root = tempDir('combee-cursor-db-');
    await writeStateDb(
      join(root, 'Code', 'User', 'globalStorage', 'state.vscdb'),
      { 'workbench.panel.aichat.view.aichat.chatdata': { tabs: [] } },
      {},
      'CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);',
    );
    assert.deepEqual(await discoverSessions(root), []);
    assert.equal(
      cursorDbReader.sniff('/x/Cursor/User/workspaceStorage/1/state.vscdb', 'SQLite format 3\u0000'),
      true,
      'an old Cursor workspace database, by its folder',
    );
    assert.equal(cursorDbReader.accepts('/x/Cursor/User/globalStorage/state.vscdb.backup'), false);
  });

  it('takes a state.vscdb with a damaged head at Cursor’s places as Cursor’s, and warns; VS Code’s own is left alone', async () => {
    const root = tempDir('combee-cursor-db-');
    const damaged = Buffer.from('SQLite format 2\u0000'.padEnd(4096, '\u0000'));
    const places = [
      'Cursor/User/globalStorage',
      'Cursor Nightly/User/workspaceStorage/6c1f',
      'Code/User/globalStorage',
      'Code/User/workspaceStorage/6c1f',
    ];
    for (const place of places) {
      mkdirSync(join(root, place), { recursive: true });
      writeFileSync(join(root, place, 'state.vscdb'), damaged);
    }
    const files = await discoverSessions(root);
    assert.deepEqual(
      files.map((f) => [f.path, f.agent]).sort(),
      [
        [join(root, places[0], 'state.vscdb'), 'cursor'],
        [join(root, places[1], 'state.vscdb'), 'cursor'],
      ].sort(),
    );
    const out = await importFile(files[0], DEFAULT_READ_LIMITS, {});
    assert.deepEqual(
      out.warnings.map((w) => w.replace(/^.*state\.vscdb: /, '')),
      ['not a SQLite database; skipped'],
    );
  });

  it('warns about a truncated or corrupt database and produces no trace, without throwing', async () => {
    const root = tempDir('combee-cursor-db-');
    const bytes = await writeStateDb(
      join(root, 'whole', 'state.vscdb'),
      {},
      { 'composerData:x': { conversation: [{ type: 1, text: 'hi' }] } },
    );
    const cut = join(root, 'cut', 'state.vscdb');
    mkdirSync(join(cut, '..'));
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    let out = await importFile(sessionFile(cut), DEFAULT_READ_LIMITS, {});
    assert.equal(out.traces.length, 0);
    assert.equal(out.warnings.length, 1);
    assert.match(
      out.warnings[0],
      /state\.vscdb: unreadable SQLite database \(database disk image is malformed\); skipped/,
    );

    const junk = join(root, 'junk', 'state.vscdb');
    mkdirSync(join(junk, '..'));
    writeFileSync(junk, Buffer.from('not a database at all, just text'.repeat(10)));
    out = await importFile(sessionFile(junk), DEFAULT_READ_LIMITS, {});
    assert.equal(out.traces.length, 0);
    assert.deepEqual(
      out.warnings.map((w) => w.replace(/^.*state\.vscdb: /, '')),
      ['not a SQLite database; skipped'],
    );
  });

  it('past a damaged page, reads every composer the key index still lists, and counts those it cannot by name', async () => {
    const root = tempDir('combee-cursor-db-');
    const bytes = await writeManyComposers(join(root, 'whole.vscdb'), 40);
    const page = Math.floor(bytes.indexOf('"name":"Fix test 6"') / 4096);
    const damaged = Buffer.from(bytes);
    damaged.fill(0, page * 4096, (page + 1) * 4096);
    const path = join(root, 'Cursor', 'User', 'globalStorage', 'state.vscdb');
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, damaged);
    const out = await importFile(sessionFile(path), DEFAULT_READ_LIMITS, {});
    assert.equal(out.warnings.length, 1, out.warnings.join('\n'));
    const counted =
      /: damaged database \(database disk image is malformed\); (\d+) session\(s\) lost \((composerData:[^)]*)\), the (\d+) that could be read are kept$/.exec(
        out.warnings[0],
      );
    assert.ok(counted, out.warnings[0]);
    const lost = Number(counted[1]);
    assert.ok(lost >= 1 && lost < 10, `${lost} lost`);
    assert.equal(out.traces.length + lost, 40, 'every composer read or counted');
    assert.equal(Number(counted[3]), out.traces.length);
    assert.ok(
      counted[2].includes('composerData:c0ffee00-0000-4000-8000-000000000006'),
      'the composer on the damaged page is named',
    );
    assert.ok(!out.traces.some((t) => t.id === 'cursor:c0ffee00-0000-4000-8000-000000000006'));
  });

  it('says which composer or chat tab gave no step because of its shape or its messages, and counts them past three', async () => {
    const root = tempDir('combee-cursor-db-');
    const path = join(root, 'User', 'globalStorage', 'state.vscdb');
    await writeStateDb(
      path,
      {
        'workbench.panel.aichat.view.aichat.chatdata': {
          tabs: [
            { tabId: 'tab-bad', bubbles: [7, 'x'] },
            'not a tab',
            { tabId: 'tab-empty', chatTitle: '', bubbles: [] },
          ],
        },
      },
      {
        'composerData:future': {
          composerId: 'future',
          createdAt: Date.parse(at(0)),
          conversationMap: { m1: { text: 'hi' } },
        },
        'composerData:all-bad': {
          composerId: 'all-bad',
          fullConversationHeadersOnly: [
            { bubbleId: 'b1', type: 1 },
            { bubbleId: 'b2', type: 2 },
          ],
        },
        'bubbleId:all-bad:b1': '{"type":1,"text":"cut',
        'composerData:ok': { composerId: 'ok', conversation: [{ type: 1, text: 'hi' }] },
        'composerData:empty': { composerId: 'empty', fullConversationHeadersOnly: [] },
        'composerData:deleted': null,
      },
    );
    const out = await importFile(sessionFile(path), DEFAULT_READ_LIMITS, {});
    assert.deepEqual(
      out.traces.map((t) => t.id),
      ['cursor:ok'],
    );
    assert.deepEqual(
      out.warnings.map((w) => w.replace(/^.*state\.vscdb: /, '')),
      [
        'composerData:all-bad: none of its 2 message(s) could be read (bubble:invalid ×1, bubble:missing ×1); skipped',
        'composerData:future: no conversation in a shape this reader knows; skipped',
        'tab tab-bad: none of its 2 message(s) could be read (bubble:invalid ×2); skipped',
        '4 sessions skipped in all',
      ],
    );
  });
});
