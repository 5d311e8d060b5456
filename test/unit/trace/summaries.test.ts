import assert from 'node:assert/strict';
import { readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sessionPage, waitingSessions } from '../../../src/core/service/sessionList';
import { compactPacks } from '../../../src/core/store/packs';
import { TraceStore } from '../../../src/core/store/traceStore';
import { summarize } from '../../../src/core/trace/summary';
import { makeTrace, shell, user } from '../../../testing/traces';
import { tempDir } from '../../../testing/tmp';
import { WorkspaceState } from '../../../src/core/store/workspaceState';

const packFiles = (store: TraceStore, suffix: string) =>
  readdirSync(join(store.dir, 'packs'))
    .filter((n) => n.endsWith(suffix))
    .map((n) => join(store.dir, 'packs', n));

function sessions(n: number, cwd = '/work/shop') {
  return Array.from({ length: n }, (_, i) =>
    makeTrace(`claude-code:s${String(i).padStart(4, '0')}`, [user(`task ${i}`), ...shell('npm test', 'ok')], {
      cwd: i % 3 === 0 ? '/elsewhere' : cwd,
      title: `task ${i}`,
      startedAt: new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString(),
      warnings: i % 5 === 0 ? ['a line skipped'] : [],
    }),
  );
}

async function stored(traces: ReturnType<typeof sessions>): Promise<TraceStore> {
  const store = new TraceStore(tempDir('combee-summaries-'));
  const writer = store.openPack();
  for (const t of traces) await writer.save(t);
  await writer.close();
  return store;
}

describe('trace summaries in the pack index', () => {
  it('loads only the traces asked for, in that order; a missing one is reported and left out', async () => {
    const traces = sessions(10);
    const store = await stored(traces);
    const missing: string[] = [];
    const loaded = await store.loadTraces([traces[7].id, 'claude-code:gone', traces[2].id], (where) =>
      missing.push(where),
    );
    assert.deepEqual(loaded, JSON.parse(JSON.stringify([traces[7], traces[2]])));
    assert.equal(missing.length, 1);
    assert.match(missing[0], /claude-code:gone/);
  });

  it('lists every trace from the indexes alone: the same as summarizing the bodies, with the bodies gone', async () => {
    const traces = sessions(40);
    const store = await stored(traces);
    const expected = traces.map(summarize).sort((a, b) => (a.id < b.id ? -1 : 1));
    assert.deepEqual(await store.listSummaries(), expected);
    assert.deepEqual((await store.listTraces()).map(summarize), expected);
    // no body is read: with the pack emptied the summaries are all still there
    for (const pack of packFiles(store, '.jsonl')) truncateSync(pack, 0);
    assert.deepEqual(await new TraceStore(store.dir).listSummaries(), expected);
    assert.deepEqual(await new TraceStore(store.dir).listTraces(), []);
  });

  it('summarizes the bodies of packs written before summaries were (a version 1 index)', async () => {
    const traces = sessions(12);
    const store = await stored(traces);
    for (const path of packFiles(store, '.idx.json')) {
      const index = JSON.parse(readFileSync(path, 'utf8')) as { version: number; traces: unknown[][] };
      writeFileSync(path, JSON.stringify({ ...index, version: 1, traces: index.traces.map((e) => e.slice(0, 3)) }));
    }
    const fresh = new TraceStore(store.dir);
    const expected = traces.map(summarize).sort((a, b) => (a.id < b.id ? -1 : 1));
    assert.deepEqual(await fresh.listSummaries(), expected);
    // read once: the pack does not change, and the next list comes without its bodies
    for (const pack of packFiles(store, '.jsonl')) truncateSync(pack, 0);
    assert.deepEqual(await fresh.listSummaries(), expected);
  });

  it('keeps the summaries when packs are compacted', async () => {
    // one pack of 30 sessions, then 20 of them written again: the first pack is mostly dead and is rewritten
    const traces = sessions(30).map((t) => ({
      ...t,
      steps: t.steps.map((step) => (step.kind === 'tool_result' ? { ...step, output: 'ok\n'.repeat(5000) } : step)),
    }));
    const store = await stored(traces);
    for (const t of traces.slice(10)) {
      const writer = store.openPack();
      await writer.save({ ...t, title: `${t.title} (again)` });
      await writer.close();
    }
    const before = await store.listSummaries();
    assert.equal((await compactPacks(join(store.dir, 'packs'))).rewritten, 10);
    for (const pack of packFiles(store, '.jsonl')) truncateSync(pack, 0);
    assert.deepEqual(await new TraceStore(store.dir).listSummaries(), before);
    assert.equal(before.filter((s) => s.title?.endsWith('(again)')).length, 20);
  });

  it('pages this workspace’s sessions newest first, with their learning status, and counts the ones waiting', async () => {
    const traces = sessions(50);
    const store = await stored(traces);
    const mine = traces.filter((t) => t.cwd === '/work/shop');
    const [newest, second, third, fourth] = [...mine].reverse();
    await new WorkspaceState(store.dir).markLearned('/work/shop', [newest.id], 'run-1');
    // failed three times: given up; failed once: tried again
    for (let i = 0; i < 3; i++)
      await new WorkspaceState(store.dir).markLearned('/work/shop', [], `run-f${i}`, [
        { id: second.id, reason: 'the model timed out' },
      ]);
    await new WorkspaceState(store.dir).markLearned('/work/shop', [], 'run-g', [{ id: fourth.id, reason: 'HTTP 500' }]);
    const page = await sessionPage(store, new WorkspaceState(store.dir), ['/work/shop'], 10);
    assert.equal(page.total, mine.length);
    assert.deepEqual(
      page.rows.map((r) => r.summary.id),
      [...mine]
        .reverse()
        .slice(0, 10)
        .map((t) => t.id),
    );
    assert.deepEqual(
      page.rows.slice(0, 4).map((r) => r.status.kind),
      ['learned', 'given up', 'new', 'failed'],
    );
    assert.equal(page.rows[2].summary.id, third.id);
    const waiting = await waitingSessions(store, new WorkspaceState(store.dir), ['/work/shop']);
    assert.ok(!waiting.includes(newest.id) && !waiting.includes(second.id), 'learned and given up do not wait');
    assert.ok(waiting.includes(fourth.id), 'a session that failed once is tried again');
    assert.equal(waiting.length, mine.length - 2);
    assert.equal((await sessionPage(store, new WorkspaceState(store.dir), ['/nowhere'], 10)).total, 0);
  });

  it('says, for a folder with no sessions, how many the store holds for which other folders', async () => {
    const traces = sessions(50);
    const store = await stored(traces);
    const page = await sessionPage(store, new WorkspaceState(store.dir), ['/nowhere'], 10);
    assert.deepEqual(page.rows, []);
    const byFolder = new Map<string, number>();
    for (const t of traces) byFolder.set(t.cwd ?? '', (byFolder.get(t.cwd ?? '') ?? 0) + 1);
    assert.equal(page.elsewhere.sessions, traces.length);
    assert.deepEqual(
      page.elsewhere.folders,
      [...byFolder]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, 5)
        .map(([cwd, sessions]) => ({ cwd, sessions })),
    );
    const shop = await sessionPage(store, new WorkspaceState(store.dir), ['/work/shop'], 10);
    assert.equal(shop.elsewhere.sessions, traces.filter((t) => t.cwd !== '/work/shop').length);
    assert.ok(!shop.elsewhere.folders.some((f) => f.cwd === '/work/shop'), 'its own folder is not elsewhere');
  });

  it("counts a folder's sessions by the teammate whose bundle brought them", async () => {
    const traces = sessions(12).map((t, i) =>
      i % 4 === 1 ? { ...t, contributor: 'alice' } : i % 4 === 2 ? { ...t, contributor: 'bob' } : t,
    );
    const store = await stored(traces);
    const page = await sessionPage(store, new WorkspaceState(store.dir), ['/work/shop'], 100);
    const mine = traces.filter((t) => t.cwd === '/work/shop');
    const expected = ['alice', 'bob']
      .map((contributor) => ({ contributor, sessions: mine.filter((t) => t.contributor === contributor).length }))
      .filter((c) => c.sessions > 0)
      .sort((a, b) => b.sessions - a.sessions || (a.contributor < b.contributor ? -1 : 1));
    assert.ok(expected.length > 0, 'the fixture has teammates in this folder');
    assert.deepEqual(page.byContributor, expected);
  });
});
