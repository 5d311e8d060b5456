import assert from 'node:assert/strict';
import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { importSessions, TaskQueue, type ImportSummary } from '../../../src/core/import/importer';
import { runImportBatch, runImportTask, type ImportTask } from '../../../src/core/import/fileTask';
import { fingerprint, fingerprintFromEdges, type IncrementalContext } from '../../../src/core/trace/incremental';
import { setBlockingIo } from '../../../src/core/util/io';
import { readLines } from '../../../src/core/trace/lines';
import type { Step, Trace } from '../../../src/core/trace/model';
import { walkCandidates } from '../../../src/core/trace/scan';
import { READERS } from '../../../src/core/trace/sources';
import type { ReadContext, SourceReader } from '../../../src/core/trace/sources/types';
import { TraceStore } from '../../../src/core/store/traceStore';
import { writeClaudeSession, prerequisiteTurns } from '../../../testing/claudeSessions';
import { EXAMPLES } from '../../support/paths';
import { tempDir } from '../../../testing/tmp';

/**
 * A minimal resumable reader (one `{"text": …}` record per line → one user step), standing in for the Claude Code
 * reader so the mechanism is tested on its own: seeded from the stored trace, reads from `resume.start`, checkpoints.
 */
const lineReader = {
  agent: 'claude-code',
  accepts: (path: string) => path.endsWith('.lines.jsonl'),
  sniff: () => true,
  calls: [] as Array<{ start?: number }>,
  async read(file, ctx: ReadContext & IncrementalContext) {
    const resume = ctx.resume;
    lineReader.calls.push({ start: resume?.start });
    const steps: Step[] = resume?.traces[0]?.steps ?? [];
    const state = (resume?.state as { lines: number } | undefined) ?? { lines: 0 };
    const read = await readLines(
      file.path,
      ({ text, lineNo }) => {
        try {
          const record = JSON.parse(text) as { text: string };
          steps.push({ kind: 'user', text: record.text, index: steps.length });
          state.lines++;
        } catch {
          ctx.warn(`${file.path}:${lineNo}: malformed JSON line skipped`);
        }
      },
      { start: resume?.start, maxLineBytes: ctx.maxLineBytes },
    );
    ctx.checkpoint?.(read, state);
    return [
      {
        id: 'claude-code:lines',
        agent: 'claude-code',
        source: { path: file.path, bytes: file.bytes },
        steps,
        unknown: {},
        warnings: [],
      },
    ];
  },
} satisfies SourceReader & { calls: Array<{ start?: number }> };

function withReader<T>(reader: SourceReader, run: () => Promise<T>): Promise<T> {
  const i = READERS.findIndex((r) => r.agent === reader.agent);
  const original = READERS[i];
  READERS[i] = reader;
  return run().finally(() => {
    READERS[i] = original;
  });
}

const record = (text: string) => `${JSON.stringify({ text })}\n`;

async function setup(lines: string[]) {
  const root = tempDir('combee-incremental-');
  const dir = join(root, 'sessions');
  const path = join(dir, 'a.lines.jsonl');
  await import('node:fs').then((fs) => fs.mkdirSync(dir));
  writeFileSync(path, lines.map(record).join(''));
  const store = new TraceStore(join(root, 'store'));
  const run = () => withReader(lineReader, () => importSessions({ from: dir, store }));
  return { path, store, run };
}

/** A different mtime than the last import saw, whatever the file system's timestamp resolution. */
function bumpMtime(path: string, seconds = 10): void {
  const { mtimeMs } = statSync(path);
  const next = new Date(mtimeMs + seconds * 1000);
  utimesSync(path, next, next);
}

async function stored(store: TraceStore, id: string): Promise<Trace> {
  const trace = await store.loadTrace(id);
  assert.ok(trace, `trace ${id} stored`);
  return trace;
}

for (const blocking of [false, true])
  describe(`incremental re-import of append-only logs (${blocking ? 'blocking file access, as in workers' : 'asynchronous file access'})`, () => {
    before(() => setBlockingIo(blocking));
    after(() => setBlockingIo(false));
    beforeEach(() => {
      lineReader.calls.length = 0;
    });

    it('reads only the appended bytes and continues the same trace (indices, outcome, counts)', async () => {
      const { path, store, run } = await setup(['one', 'two', 'three']);
      const first = await run();
      assert.equal(first.bytesRead, statSync(path).size);
      const before = statSync(path).size;
      const added = record('four') + record('no, use pnpm instead of npm');
      appendFileSync(path, added);
      bumpMtime(path);
      const second = await run();
      assert.equal(second.resumedFiles, 1);
      assert.equal(second.bytesRead, Buffer.byteLength(added), 'only the new lines were read');
      assert.deepEqual(
        lineReader.calls.map((c) => c.start),
        [undefined, before],
      );
      const trace = await stored(store, 'claude-code:lines');
      assert.deepEqual(
        trace.steps.map((s) => [s.index, s.kind === 'user' ? s.text : '']),
        [
          [0, 'one'],
          [1, 'two'],
          [2, 'three'],
          [3, 'four'],
          [4, 'no, use pnpm instead of npm'],
        ],
      );
      assert.equal(trace.source.bytes, before + Buffer.byteLength(added));
      // nothing new: skipped without reading
      const third = await run();
      assert.equal(third.unchangedFiles, 1);
      assert.equal(third.bytesRead, 0);
    });

    it('a touched file (new mtime, same bytes) is not read again', async () => {
      const { path, run } = await setup(['one']);
      await run();
      bumpMtime(path);
      const again = await run();
      assert.equal(again.bytesRead, 0);
      assert.equal(lineReader.calls.length, 1);
      assert.equal((await run()).unchangedFiles, 1, 'the new mtime is remembered');
    });

    it('redacts the appended lines and adds their redactions to the stored count', async () => {
      const { path, store, run } = await setup(['export OPENAI_API_KEY=sk-proj-AAAAAAAAAAAAAAAAAAAAAAAAAAAA']);
      await run();
      appendFileSync(path, record('token ghp_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB'));
      bumpMtime(path);
      const summary = await run();
      assert.equal(summary.redactions, 2, 'the stored redaction plus the new one');
      const packs = join(store.dir, 'packs');
      const text = (await import('node:fs'))
        .readdirSync(packs)
        .map((f) => readFileSync(join(packs, f), 'utf8'))
        .join('\n');
      assert.match(text, /\[REDACTED/, 'the packs were read');
      assert.doesNotMatch(text, /sk-proj-A|ghp_B/);
    });

    it('a truncated file is reported, read again in full and its trace replaced', async () => {
      const { path, store, run } = await setup(['one', 'two', 'three']);
      await run();
      truncateSync(path, Buffer.byteLength(record('one')));
      bumpMtime(path);
      const summary = await run();
      assert.equal(summary.restartedFiles, 1);
      assert.equal(summary.resumedFiles, 0);
      assert.ok(
        summary.warningMessages.some((m) => /truncated since the last import/.test(m)),
        summary.warningMessages.join('\n'),
      );
      assert.equal(summary.bytesRead, statSync(path).size);
      assert.deepEqual(
        (await stored(store, 'claude-code:lines')).steps.map((s) => (s.kind === 'user' ? s.text : '')),
        ['one'],
      );
    });

    it('a different file of the same size under the same path is detected and read in full', async () => {
      const { path, store, run } = await setup(['aaa', 'bbb']);
      await run();
      writeFileSync(path, record('xxx') + record('yyy'));
      bumpMtime(path);
      const summary = await run();
      assert.equal(summary.restartedFiles, 1);
      assert.ok(summary.warningMessages.some((m) => /replaced since the last import/.test(m)));
      assert.deepEqual(
        (await stored(store, 'claude-code:lines')).steps.map((s) => (s.kind === 'user' ? s.text : '')),
        ['xxx', 'yyy'],
      );
    });

    it('a grown file whose earlier bytes changed is read in full, not resumed', async () => {
      const { path, store, run } = await setup(['aaa', 'bbb']);
      await run();
      writeFileSync(path, record('aaa') + record('BBB') + record('ccc'));
      bumpMtime(path);
      const summary = await run();
      assert.equal(summary.restartedFiles, 1);
      assert.deepEqual(
        (await stored(store, 'claude-code:lines')).steps.map((s) => (s.kind === 'user' ? s.text : '')),
        ['aaa', 'BBB', 'ccc'],
      );
    });

    it('a line still being written at the first import is read once it is complete, and not twice', async () => {
      const { path, store, run } = await setup(['one']);
      appendFileSync(path, '{"text": "tw');
      const first = await run();
      assert.ok(first.warningMessages.some((m) => /malformed JSON line/.test(m)));
      appendFileSync(path, 'o"}\n');
      bumpMtime(path);
      const second = await run();
      assert.equal(second.resumedFiles, 1);
      assert.deepEqual(
        (await stored(store, 'claude-code:lines')).steps.map((s) => (s.kind === 'user' ? s.text : '')),
        ['one', 'two'],
      );
    });

    it('a complete last record without its newline is not applied twice when the file grows', async () => {
      const { path, store, run } = await setup(['one']);
      appendFileSync(path, '{"text": "two"}');
      await run();
      appendFileSync(path, `\n${record('three')}`);
      bumpMtime(path);
      const second = await run();
      assert.equal(second.resumedFiles, 0, 'read in full: the unterminated record was already applied');
      assert.deepEqual(
        (await stored(store, 'claude-code:lines')).steps.map((s) => (s.kind === 'user' ? s.text : '')),
        ['one', 'two', 'three'],
      );
    });

    it('a missing stored trace falls back to a full read', async () => {
      const { path, store, run } = await setup(['one']);
      await run();
      const { rmSync } = await import('node:fs');
      rmSync(join(store.dir, 'packs'), { recursive: true });
      appendFileSync(path, record('two'));
      bumpMtime(path);
      const summary = await run();
      assert.equal(summary.resumedFiles, 0);
      assert.equal((await stored(store, 'claude-code:lines')).steps.length, 2);
    });
  });

describe('import robustness', () => {
  it('a file whose import fails is a warning; the other files are imported and indexed', async () => {
    const root = tempDir('combee-robust-');
    const home = join(root, '.claude');
    const good = writeClaudeSession(
      home,
      '33333333-aaaa-4bbb-8ccc-000000000001',
      '/home/dev/shop',
      prerequisiteTurns(),
    );
    const bad = writeClaudeSession(home, '33333333-aaaa-4bbb-8ccc-000000000002', '/home/dev/shop', prerequisiteTurns());
    const store = new TraceStore(join(root, 'store'));
    const summary = await importSessions({
      from: home,
      store,
      runTask: async (task) => {
        if (task.path === bad) throw new Error('worker ran out of memory');
        return runImportTask(task);
      },
    });
    assert.equal(summary.sessions, 1);
    assert.ok(summary.warningMessages.some((m) => m.startsWith(bad) && /worker ran out of memory/.test(m)));
    const index = await store.loadIndex();
    assert.ok(index.files[good]);
    assert.equal(index.files[bad], undefined, 'tried again next time');
  });

  it('files that are no session of any agent are remembered and not sniffed again until they change', async () => {
    const root = tempDir('combee-robust-');
    writeFileSync(join(root, 'notes.jsonl'), '{"hello": "world"}\n');
    const store = new TraceStore(tempDir('combee-robust-store-'));
    const sniffed: string[] = [];
    const runTask = (task: ImportTask) => {
      sniffed.push(task.path);
      return runImportTask(task);
    };
    assert.equal((await importSessions({ from: root, store, runTask })).files, 0);
    await importSessions({ from: root, store, runTask });
    assert.equal(sniffed.length, 1);
    appendFileSync(join(root, 'notes.jsonl'), '{"more": 1}\n');
    await importSessions({ from: root, store, runTask });
    assert.equal(sniffed.length, 2);
  });
});

describe('import scheduling', () => {
  it('hands small files out in batches (a huge one alone), and retries a failed batch file by file', async () => {
    const queue = new TaskQueue([{ bytes: 5 }, { bytes: 900 }, { bytes: 7 }, { bytes: 40 }, { bytes: 6 }], 100);
    assert.deepEqual(
      (await queue.nextBatch({ files: 3, bytes: 50 })).map((t) => t.bytes),
      [900],
    );
    assert.deepEqual(
      (await queue.nextBatch({ files: 3, bytes: 50 })).map((t) => t.bytes),
      [40, 7],
      'up to 50 bytes',
    );
    assert.deepEqual(
      (await queue.nextBatch({ files: 1, bytes: 50 })).map((t) => t.bytes),
      [6],
      'up to 1 file',
    );

    const root = tempDir('combee-batch-');
    const home = join(root, '.claude');
    const ids = [1, 2, 3, 4, 5].map((n) => `44444444-aaaa-4bbb-8ccc-00000000000${n}`);
    const paths = ids.map((id) => writeClaudeSession(home, id, '/home/dev/shop', prerequisiteTurns()));
    const bad = paths[2];
    const batches: number[] = [];
    const summary = await importSessions({
      from: home,
      store: new TraceStore(join(root, 'store')),
      runTask: async (task) => {
        if (task.path === bad) throw new Error('worker ran out of memory');
        return runImportTask(task);
      },
      runBatch: async (tasks) => {
        batches.push(tasks.length);
        if (tasks.some((t) => t.path === bad)) throw new Error('worker exited');
        return runImportBatch(tasks);
      },
      concurrency: 1,
    });
    assert.deepEqual(batches, [5], 'five small files, one batch');
    assert.equal(summary.sessions, 4, 'the batch was retried file by file: only the bad file is lost');
    assert.equal(summary.warnings, 1);
    assert.match(summary.warningMessages[0], /could not be imported \(worker ran out of memory\)/);

    const clean = new TraceStore(join(root, 'store-clean'));
    await importSessions({ from: home, store: clean, runBatch: runImportBatch, concurrency: 1 });
    assert.deepEqual(
      readdirSync(join(clean.dir, 'packs'))
        .map((f) => f.replace(/^[^.]+/, 'pack'))
        .sort(),
      ['pack.idx.json', 'pack.jsonl'],
      'a batch stores its traces in one pack',
    );
    assert.equal((await clean.listTraces()).length, 5);
  });

  it('hands out the biggest files first, never two huge ones at once', async () => {
    const queue = new TaskQueue([{ bytes: 5 }, { bytes: 900 }, { bytes: 7 }, { bytes: 800 }, { bytes: 6 }], 100);
    const a = await queue.next();
    const rest = [await queue.next(), await queue.next(), await queue.next()];
    assert.equal(a?.bytes, 900);
    assert.deepEqual(
      rest.map((t) => t?.bytes),
      [7, 6, 5],
      'the second huge file waits; small ones go meanwhile',
    );
    const later: { task?: { bytes: number } } = {};
    const waiting = queue.next().then((t) => (later.task = t));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(later.task === undefined, true, 'waits while the first huge file runs');
    queue.finished(a!);
    await waiting;
    assert.equal(later.task?.bytes, 800, 'after the first huge file, the next one');
    assert.equal(await queue.next(), undefined);
  });
});

describe('incremental re-import with the real readers', () => {
  const claudeLine = (sessionId: string, n: number, extra: object) =>
    `${JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      userType: 'external',
      cwd: '/home/dev/shop',
      sessionId,
      version: '2.1.50',
      gitBranch: 'main',
      uuid: `${sessionId.slice(0, 8)}-0000-4000-8000-${String(900 + n).padStart(12, '0')}`,
      timestamp: `2026-11-02T10:00:0${n}.000Z`,
      ...extra,
    })}\n`;

  async function claudeSetup() {
    const root = tempDir('combee-incremental-cc-');
    const home = join(root, '.claude');
    const sessionId = '22222222-aaaa-4bbb-8ccc-000000000001';
    const path = writeClaudeSession(home, sessionId, '/home/dev/shop', prerequisiteTurns());
    const store = new TraceStore(join(root, 'store'));
    const run = (): Promise<ImportSummary> => importSessions({ from: home, store });
    return { path, store, run, sessionId };
  }

  it('Claude Code: two appended lines become new steps with continuing indices (only new bytes read when the reader resumes)', async () => {
    const { path, store, run, sessionId } = await claudeSetup();
    await run();
    const index = await store.loadIndex();
    const resumable = index.files[path].offset !== undefined;
    const before = await stored(store, `claude-code:${sessionId}`);
    const added =
      claudeLine(sessionId, 1, {
        type: 'user',
        message: { role: 'user', content: 'Thanks. Now run the linter too.' },
      }) +
      claudeLine(sessionId, 2, {
        type: 'assistant',
        message: {
          id: 'msg_new',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'tool_use', id: 'toolu_new', name: 'Bash', input: { command: 'pnpm lint' } }],
        },
      });
    appendFileSync(path, added);
    bumpMtime(path);
    const summary = await run();
    assert.equal(summary.bytesRead, resumable ? Buffer.byteLength(added) : statSync(path).size);
    assert.equal(summary.resumedFiles, resumable ? 1 : 0);
    const after = await stored(store, `claude-code:${sessionId}`);
    assert.equal(after.steps.length, before.steps.length + 2);
    assert.deepEqual(
      after.steps.map((s) => s.index),
      after.steps.map((_, i) => i),
    );
    assert.deepEqual(after.steps.slice(0, before.steps.length), before.steps);
    const [user, call] = after.steps.slice(-2);
    assert.ok(user.kind === 'user' && user.text === 'Thanks. Now run the linter too.');
    assert.ok(call.kind === 'tool_call' && call.command === 'pnpm lint');
    assert.deepEqual(after.outcome, before.outcome);
  });

  it('Claude Code: a session that keeps growing leaves no pile of superseded copies in the packs', async () => {
    const { path, store, run, sessionId } = await claudeSetup();
    await run();
    const packs = () => readdirSync(join(store.dir, 'packs')).filter((f) => f.endsWith('.jsonl')).length;
    for (let n = 1; n <= 4; n++) {
      // a dozen long messages a round: each copy the next round supersedes is ~290 KB
      const text = (m: number) => `round ${n}.${m}: ${'x'.repeat(12_000)} ${'y'.repeat(12_000)}`;
      const uuid = (m: number) => `${sessionId.slice(0, 8)}-0000-4000-8000-${String(n * 100 + m).padStart(12, '0')}`;
      appendFileSync(
        path,
        Array.from({ length: 12 }, (_, m) =>
          claudeLine(sessionId, n, { type: 'user', uuid: uuid(m), message: { role: 'user', content: text(m) } }),
        ).join(''),
      );
      bumpMtime(path);
      await run();
      assert.ok(packs() <= 2, `after round ${n}: ${packs()} packs`);
    }
    const trace = await stored(store, `claude-code:${sessionId}`);
    const rounds = trace.steps
      .filter((s) => s.kind === 'user' && s.text.startsWith('round'))
      .map((s) => (s.kind === 'user' ? s.text.slice(0, 7) : ''));
    assert.deepEqual([...new Set(rounds)], ['round 1', 'round 2', 'round 3', 'round 4']);
    assert.equal(rounds.length, 48);
  });

  it('Claude Code: a truncated session is reported and read again in full', async () => {
    const { path, run } = await claudeSetup();
    await run();
    truncateSync(path, statSync(path).size - 200);
    bumpMtime(path);
    const summary = await run();
    assert.equal(summary.restartedFiles, 1);
    assert.equal(summary.bytesRead, statSync(path).size);
    assert.ok(summary.warningMessages.some((m) => m.includes(path) && /truncated/.test(m)));
  });

  it('a whole-file format (Codex 2025 .json) is always read in full when it changes', async () => {
    const root = tempDir('combee-incremental-codex-');
    const path = join(root, 'rollout-2025-05-01-aaaaaaaa-1111-4222-8333-444444444444.json');
    const doc = (items: unknown[]) =>
      JSON.stringify({
        session: { id: 'aaaaaaaa-1111-4222-8333-444444444444', timestamp: '2025-05-01T10:00:00Z', instructions: '' },
        items,
      });
    const message = (role: string, text: string) => ({
      type: 'message',
      role,
      content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }],
    });
    writeFileSync(path, doc([message('user', 'fix the build')]));
    const store = new TraceStore(join(root, 'store'));
    await importSessions({ from: root, store, agent: 'codex' });
    assert.equal((await store.loadIndex()).files[path].offset, undefined);
    writeFileSync(path, doc([message('user', 'fix the build'), message('assistant', 'Done.')]));
    bumpMtime(path);
    const summary = await importSessions({ from: root, store, agent: 'codex' });
    assert.equal(summary.resumedFiles, 0);
    assert.equal(summary.bytesRead, statSync(path).size);
    assert.equal((await stored(store, 'codex:aaaaaaaa-1111-4222-8333-444444444444')).steps.length, 2);
  });
});

describe('line reader: prefilter and blocking reads', () => {
  for (const blocking of [false, true]) {
    it(`skips filtered lines before parsing, also lines longer than a read chunk (${blocking ? 'blocking' : 'async'})`, async () => {
      setBlockingIo(blocking);
      try {
        const path = join(tempDir('combee-lines-skip-'), 'a.jsonl');
        const big = `{"type":"snapshot","data":"${'z'.repeat(3_000_000)}"}`;
        writeFileSync(
          path,
          `{"type":"keep","n":1}\n${big}\n{"type":"snapshot","n":2}\n{"type":"keep","n":3}\n${'é'.repeat(1_500_000)}\n`,
        );
        const seen: string[] = [];
        const result = await readLines(path, ({ text }) => seen.push(text.length > 30 ? text.slice(0, 20) : text), {
          skip: (head) => head.startsWith('{"type":"snapshot"'),
        });
        assert.deepEqual(seen, ['{"type":"keep","n":1}', '{"type":"keep","n":3}', 'é'.repeat(20)]);
        assert.equal(result.skippedLines, 2);
        assert.equal(result.lines, 5);
        assert.equal(result.endOffset, statSync(path).size);
        assert.equal(result.bytesRead, statSync(path).size);
      } finally {
        setBlockingIo(false);
      }
    });
  }
});

describe('listing session files', () => {
  it('finds the same files with blocking and with asynchronous file access, skipping folders that hold no sessions', async () => {
    const root = tempDir('combee-walk-');
    const home = join(root, '.claude');
    const ids = [1, 2, 3].map((n) => `55555555-aaaa-4bbb-8ccc-00000000000${n}`);
    for (const id of ids) writeClaudeSession(home, id, '/home/dev/shop', prerequisiteTurns());
    mkdirSync(join(home, 'file-history', 'x'), { recursive: true });
    writeFileSync(join(home, 'file-history', 'x', 'old.jsonl'), '{}\n');
    const listed = async (blocking: boolean) => {
      setBlockingIo(blocking);
      try {
        return (await walkCandidates(home)).map((f) => `${relative(home, f.path)}:${f.bytes}`);
      } finally {
        setBlockingIo(false);
      }
    };
    const asynchronous = await listed(false);
    assert.equal(asynchronous.length, 3);
    assert.deepEqual(await listed(true), asynchronous);
  });
});

describe('fingerprints from the bytes a read saw', () => {
  it('equal the fingerprints read from the file, or are left to it when the read did not see both ends', async () => {
    const dir = tempDir('combee-edges-');
    const line = (n: number, size: number) => `{"n":${n},"s":"${'é'.repeat(size)}"}\n`;
    const cases: Array<[string, string]> = [
      ['tiny', line(1, 10)],
      ['unterminated', `${line(1, 10)}{"n":2,"s":"half`],
      ['two edges', Array.from({ length: 40 }, (_, n) => line(n, 200)).join('')],
      ['end in the last chunk', Array.from({ length: 900 }, (_, n) => line(n, 900)).join('')],
      ['end across chunks', `${'x'.repeat((1 << 20) - 100)}\n${line(1, 10)}`],
      ['empty', ''],
    ];
    let fromEdges = 0;
    for (const [name, text] of cases) {
      const path = join(dir, `${name.replace(/ /g, '-')}.jsonl`);
      writeFileSync(path, text);
      for (const start of [0, Math.floor(text.length / 2)]) {
        const read = await readLines(path, () => {}, {
          start: start === 0 ? 0 : Buffer.byteLength(text.slice(0, start)),
        });
        const computed = fingerprintFromEdges(read.edges, read.endOffset);
        if (computed === undefined) continue;
        fromEdges++;
        assert.deepEqual(computed, await fingerprint(path, read.endOffset), `${name} from ${start}`);
      }
    }
    assert.ok(fromEdges >= 5, `most cases fingerprinted from the read (${fromEdges})`);
  });
});

/** Every `.jsonl` file under a folder. */
function jsonlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsonlFiles(join(dir, e.name)) : e.name.endsWith('.jsonl') ? [join(dir, e.name)] : [],
  );
}

describe('a resumed import equals a full one', () => {
  // Guards the readers' resume hooks: whatever the cut, prefix + resumed rest must give the trace a full read gives.
  for (const source of jsonlFiles(join(EXAMPLES, 'sessions'))) {
    const name = relative(join(EXAMPLES, 'sessions'), source);
    it(`${name}, cut at every third line`, async () => {
      const bytes = readFileSync(source);
      const cuts: number[] = [];
      for (let i = bytes.indexOf(10), n = 0; i !== -1; i = bytes.indexOf(10, i + 1), n++)
        if (n % 3 === 0) cuts.push(i + 1);
      const strip = (traces: Trace[]) => JSON.stringify(traces.map((t) => ({ ...t, warnings: [] })));
      const root = tempDir('combee-equal-');
      const full = new TraceStore(join(root, 'full'));
      const path = join(root, 'agent', name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, bytes);
      await importSessions({ from: join(root, 'agent'), store: full });
      const expected = strip(await full.listTraces());
      for (const cut of cuts) {
        const store = new TraceStore(join(root, `cut-${cut}`));
        writeFileSync(path, bytes.subarray(0, cut));
        await importSessions({ from: join(root, 'agent'), store });
        appendFileSync(path, bytes.subarray(cut));
        bumpMtime(path);
        await importSessions({ from: join(root, 'agent'), store });
        assert.equal(strip(await store.listTraces()), expected, `cut at byte ${cut}`);
      }
    });
  }
});
