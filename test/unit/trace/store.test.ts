import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setBlockingIo, writeAtomic } from '../../../src/core/util/io';
import { join } from 'node:path';
import { TRACE_SCHEMA_VERSION, type Step, type Trace } from '../../../src/core/trace/model';
import { packName } from '../../../src/core/store/packs';
import { TraceStore } from '../../../src/core/store/traceStore';
import { shortHash } from '../../../src/core/util/hash';
import { tempDir } from '../../../testing/tmp';

function trace(id: string, steps: number): Trace {
  return {
    schemaVersion: TRACE_SCHEMA_VERSION,
    id,
    agent: 'claude-code',
    title: 'a "quoted" title, with "steps":[] inside',
    source: { path: '/x.jsonl', bytes: 1 },
    steps: Array.from({ length: steps }, (_, index): Step =>
      index % 2 === 0
        ? { kind: 'user', index, text: `line ${index} é ✓ "quoted"\n` }
        : { kind: 'tool_result', index, callId: `c${index}`, output: 'x'.repeat(index % 7), isError: false },
    ),
    outcome: { toolErrors: 0, testRuns: { passed: 0, failed: 0 }, userCorrections: 0, interrupted: false },
    unknown: { steps: 2 },
    warnings: [],
    redactions: 0,
  };
}

describe('trace store', () => {
  it('writes small and large traces (streamed step by step) that read back identical, one pack per writer', async () => {
    const store = new TraceStore(tempDir('combee-store-'));
    const all = [trace('claude-code:small', 3), trace('claude-code:large', 5_003), trace('claude-code:empty', 0)];
    const writer = store.openPack();
    for (const t of all) await writer.save(t);
    assert.equal(await store.loadTrace('claude-code:small'), undefined, 'nothing is visible before the pack is closed');
    await writer.close();
    for (const t of all) assert.deepEqual(await store.loadTrace(t.id), t);
    assert.deepEqual(
      (await store.listTraces()).map((t) => t.id),
      ['claude-code:empty', 'claude-code:large', 'claude-code:small'],
    );
    const files = readdirSync(join(store.dir, 'packs'));
    assert.equal(files.length, 2, `one pack and its index: ${files.join(', ')}`);
  });

  for (const blocking of [false, true]) {
    it(`a trace written again wins over its older copy; a failed write publishes only complete traces (${blocking ? 'blocking' : 'async'} I/O)`, async () => {
      setBlockingIo(blocking);
      try {
        const store = new TraceStore(tempDir('combee-store-'));
        await store.saveTrace(trace('codex:a', 1));
        await store.saveTrace(trace('codex:a', 4));
        assert.equal((await store.loadTrace('codex:a'))?.steps.length, 4);
        const writer = store.openPack();
        await writer.save(trace('codex:b', 2));
        const broken = {
          ...trace('codex:c', 2),
          toJSON: () => {
            throw new Error('disk full');
          },
        } as unknown as Trace;
        await assert.rejects(writer.save(broken), /disk full/);
        await writer.save(trace('codex:d', 1));
        await writer.close();
        assert.deepEqual(
          (await store.listTraces()).map((t) => `${t.id}:${t.steps.length}`),
          ['codex:a:4', 'codex:b:2', 'codex:d:1'],
        );
        assert.equal(await store.loadTrace('codex:c'), undefined);
      } finally {
        setBlockingIo(false);
      }
    });
  }

  it('names packs so that they sort in the order they were made, also within one millisecond', () => {
    const names = [packName(5, 35), packName(5, 36), packName(6, 1), packName(36 ** 2, 2), packName(36 ** 2 + 1, 1)];
    assert.deepEqual([...names].sort(), names);
  });

  it('replaces an existing file atomically with writeAtomic; a failed write leaves the old file and no temporary one', async () => {
    const dir = tempDir('combee-write-');
    const path = join(dir, 'sub', 't.json');
    await writeAtomic(path, ['{"a":', '1}']);
    await writeAtomic(path, ['{"a":', '2}']);
    assert.equal(readFileSync(path, 'utf8'), '{"a":2}');
    const failing = function* () {
      yield '{"a":';
      throw new Error('disk full');
    };
    await assert.rejects(writeAtomic(path, failing()), /disk full/);
    assert.equal(readFileSync(path, 'utf8'), '{"a":2}', 'the existing file is untouched');
    assert.deepEqual(readdirSync(join(dir, 'sub')), ['t.json'], 'no temporary file left behind');
  });

  it('writes again after its folder was removed in the same process', async () => {
    const store = new TraceStore(tempDir('combee-store-'));
    await store.saveTrace(trace('codex:a', 1));
    rmSync(join(store.dir, 'packs'), { recursive: true });
    assert.equal(await store.loadTrace('codex:a'), undefined);
    await store.saveTrace(trace('codex:a', 2));
    assert.equal((await store.loadTrace('codex:a'))?.steps.length, 2);
  });

  it('reads traces stored one file each by earlier versions; a pack holding the same trace wins and removes the old file', async () => {
    const store = new TraceStore(tempDir('combee-store-'));
    const legacy = join(store.dir, 'traces', 'codex');
    mkdirSync(legacy, { recursive: true });
    const legacyA = join(legacy, `a-${shortHash('codex:a', 8)}.json`);
    writeFileSync(legacyA, JSON.stringify(trace('codex:a', 1)));
    writeFileSync(join(legacy, 'b-1234abcd.json'), JSON.stringify(trace('codex:b', 1)));
    writeFileSync(join(legacy, 'broken-1234abcd.json'), '{"schemaVersion": 1, "id": "codex:');
    const invalid: string[] = [];
    assert.deepEqual(
      (await store.listTraces((where) => invalid.push(where))).map((t) => t.id),
      ['codex:a', 'codex:b'],
    );
    assert.equal(invalid.length, 1);
    await store.saveTrace(trace('codex:a', 3));
    assert.deepEqual(
      (await store.listTraces()).map((t) => `${t.id}:${t.steps.length}`),
      ['codex:a:3', 'codex:b:1'],
    );
    assert.equal(existsSync(legacyA), false, 'the superseded file is removed');
  });

  it("an id's agent part never leads out of the store: a teammate's `../` id removes no file outside it", async () => {
    const root = tempDir('combee-store-escape-');
    const store = new TraceStore(join(root, 'store'));
    mkdirSync(join(store.dir, 'traces', 'codex'), { recursive: true });
    const id = '../../victim:notes';
    // the file the old path would have named: <store>/traces/../../victim/notes-<hash>.json
    const victim = join(root, 'victim', `notes-${shortHash(id, 8)}.json`);
    mkdirSync(join(root, 'victim'), { recursive: true });
    writeFileSync(victim, 'keep me');
    await store.saveTrace(trace(id, 1));
    assert.equal(readFileSync(victim, 'utf8'), 'keep me');
    assert.equal((await store.loadTrace(id))?.steps.length, 1, 'the session itself is stored and read back');
  });

  it('compaction rewrites packs that are mostly superseded copies and keeps every live trace', async () => {
    const store = new TraceStore(tempDir('combee-store-'));
    const big = (id: string, steps: number) => ({ ...trace(id, steps), title: 'x'.repeat(200_000) });
    const first = store.openPack();
    for (const id of ['a', 'b', 'c']) await first.save(big(`codex:${id}`, 1));
    await first.close();
    const second = store.openPack();
    for (const id of ['a', 'b']) await second.save(big(`codex:${id}`, 2));
    await second.close();
    const packs = () => readdirSync(join(store.dir, 'packs')).filter((f) => f.endsWith('.jsonl')).length;
    assert.equal(packs(), 2);
    const result = await store.compact();
    assert.equal(result.rewritten, 1, 'only the live trace of the mostly dead pack moves');
    assert.ok(result.freedBytes > 400_000);
    assert.equal(packs(), 2);
    assert.deepEqual(
      (await store.listTraces()).map((t) => `${t.id}:${t.steps.length}`),
      ['codex:a:2', 'codex:b:2', 'codex:c:1'],
    );
    assert.deepEqual(await store.compact(), { rewritten: 0, freedBytes: 0 }, 'nothing left to do');
  });

  it('compaction sweeps the copies a killed import left thinly across packs, once they are a noticeable share', async () => {
    const store = new TraceStore(tempDir('combee-store-'));
    const big = (id: string) => ({ ...trace(id, 1), title: 'x'.repeat(100_000) });
    for (let p = 0; p < 4; p++) {
      const pack = store.openPack();
      for (let i = 0; i < 10; i++) await pack.save(big(`codex:${p}-${i}`));
      await pack.close();
    }
    // The import was killed after these packs were published but before its index was saved: the next import reads
    // the same files again and writes a copy of some of their sessions (one in ten of each pack).
    const again = store.openPack();
    for (let p = 0; p < 4; p++) await again.save(big(`codex:${p}-0`));
    await again.close();
    const entries = () =>
      readdirSync(join(store.dir, 'packs'))
        .filter((f) => f.endsWith('.idx.json'))
        .reduce((n, f) => n + JSON.parse(readFileSync(join(store.dir, 'packs', f), 'utf8')).traces.length, 0);
    assert.equal(entries(), 44);
    const result = await store.compact();
    assert.equal(result.rewritten, 36, 'the live traces of the four packs with a dead copy move');
    assert.equal(entries(), 40, 'one entry per trace');
    assert.equal((await store.listTraces()).length, 40);
  });

  it('reads a version 1 import index and a damaged one as empty', async () => {
    const store = new TraceStore(tempDir('combee-store-'));
    await store.ensure();
    writeFileSync(
      join(store.dir, 'imports.json'),
      JSON.stringify({
        version: 1,
        files: { '/a.jsonl': { agent: 'codex', bytes: 10, mtimeMs: 5, traceIds: ['codex:a'] } },
      }),
    );
    const index = await store.loadIndex();
    assert.equal(index.version, 2);
    assert.deepEqual(index.files['/a.jsonl'].traceIds, ['codex:a']);
    assert.equal(index.files['/a.jsonl'].offset, undefined);
    writeFileSync(join(store.dir, 'imports.json'), '{"version": 1, "fi');
    assert.deepEqual((await store.loadIndex()).files, {});
  });

  it('keeps a resume state per source file, and removes it', async () => {
    const store = new TraceStore(tempDir('combee-store-'));
    assert.equal(await store.loadResumeState('/s/a.jsonl'), undefined);
    await store.saveResumeState('/s/a.jsonl', { seen: ['u1'], n: 2 });
    assert.deepEqual(await store.loadResumeState('/s/a.jsonl'), { state: { seen: ['u1'], n: 2 } });
    assert.equal(await store.loadResumeState('/s/b.jsonl'), undefined);
    await store.saveResumeState('/s/a.jsonl', undefined);
    assert.equal(await store.loadResumeState('/s/a.jsonl'), undefined);
    await store.saveResumeState('/s/c.jsonl', null);
    assert.deepEqual(await store.loadResumeState('/s/c.jsonl'), { state: null }, 'a reader may need no state');
  });
});

describe('a trace id from outside the store', () => {
  it('never names a folder outside it: an unknown agent part reads nothing', async () => {
    const root = tempDir('combee-id-');
    const id = '../../outside:x';
    // a valid trace exactly where a legacy lookup of that id would land, two folders above the store's traces
    mkdirSync(join(root, 'outside'));
    writeFileSync(join(root, 'outside', `x-${shortHash(id, 8)}.json`), JSON.stringify(trace(id, 1)));
    const store = new TraceStore(join(root, 'store'));
    assert.equal(await store.loadTrace(id), undefined);
    assert.equal(await store.loadTrace('claude-code:not-stored'), undefined);
  });
});
