import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setBlockingIo, writeNewOrAtomic } from '../../../src/core/trace/io';
import { join } from 'node:path';
import { TRACE_SCHEMA_VERSION, type Step, type Trace } from '../../../src/core/trace/model';
import { TraceStore } from '../../../src/core/trace/store';
import { tempDir } from '../../support/tmp';

function trace(id: string, steps: number): Trace {
  return {
    schemaVersion: TRACE_SCHEMA_VERSION, id, agent: 'claude-code', title: 'a "quoted" title, with "steps":[] inside', source: { path: '/x.jsonl', bytes: 1 },
    steps: Array.from({ length: steps }, (_, index): Step => (index % 2 === 0
      ? { kind: 'user', index, text: `line ${index} é ✓ "quoted"\n` }
      : { kind: 'tool_result', index, callId: `c${index}`, output: 'x'.repeat(index % 7), isError: false })),
    outcome: { toolErrors: 0, testRuns: { passed: 0, failed: 0 }, userCorrections: 0, interrupted: false },
    unknown: { steps: 2 }, warnings: [], redactions: 0,
  };
}

describe('trace store', () => {
  it('writes small and large traces (streamed step by step) that read back identical', async () => {
    const store = new TraceStore(tempDir('combee-store-'));
    for (const t of [trace('claude-code:small', 3), trace('claude-code:large', 5_003), trace('claude-code:empty', 0)]) {
      await store.saveTrace(t);
      assert.deepEqual(await store.loadTrace(t.id), t);
    }
    const files = readdirSync(join(store.dir, 'traces', 'claude-code'));
    assert.equal(files.length, 3);
    assert.ok(files.every((f) => !f.endsWith('.tmp')), 'no temporary file left behind');
  });

  for (const blocking of [false, true]) {
    it(`writes a new trace file in place and replaces an existing one whole; a failed write leaves no half file (${blocking ? 'blocking' : 'async'} I/O)`, async () => {
      setBlockingIo(blocking);
      try {
        const dir = tempDir('combee-write-');
        const path = join(dir, 'sub', 't.json');
        await writeNewOrAtomic(path, ['{"a":', '1}']);
        assert.equal(readFileSync(path, 'utf8'), '{"a":1}');
        await writeNewOrAtomic(path, ['{"a":', '2}']);
        assert.equal(readFileSync(path, 'utf8'), '{"a":2}');
        const failing = function* () {
          yield '{"a":';
          throw new Error('disk full');
        };
        await assert.rejects(writeNewOrAtomic(path, failing()), /disk full/);
        assert.equal(readFileSync(path, 'utf8'), '{"a":2}', 'an existing file is untouched');
        const fresh = join(dir, 'sub', 'new.json');
        await assert.rejects(writeNewOrAtomic(fresh, failing()), /disk full/);
        assert.equal(existsSync(fresh), false, 'a new file is removed');
        assert.deepEqual(readdirSync(join(dir, 'sub')), ['t.json'], 'no temporary file left behind');
      } finally {
        setBlockingIo(false);
      }
    });
  }

  it('writes again after its folder was removed in the same process', async () => {
    const store = new TraceStore(tempDir('combee-store-'));
    await store.saveTrace(trace('codex:a', 1));
    rmSync(join(store.dir, 'traces'), { recursive: true });
    await store.saveTrace(trace('codex:a', 2));
    assert.equal((await store.loadTrace('codex:a'))?.steps.length, 2);
  });

  it('reads a version 1 import index and a damaged one as empty', async () => {
    const store = new TraceStore(tempDir('combee-store-'));
    await store.ensure();
    writeFileSync(join(store.dir, 'imports.json'), JSON.stringify({ version: 1, files: { '/a.jsonl': { agent: 'codex', bytes: 10, mtimeMs: 5, traceIds: ['codex:a'] } } }));
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
