import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importSessions, type ImportSummary } from '../../../src/core/trace/importer';
import type { IncrementalContext } from '../../../src/core/trace/incremental';
import { setBlockingIo } from '../../../src/core/trace/io';
import { readLines } from '../../../src/core/trace/lines';
import type { Step, Trace } from '../../../src/core/trace/model';
import { READERS } from '../../../src/core/trace/sources';
import type { ReadContext, SourceReader } from '../../../src/core/trace/sources/types';
import { TraceStore } from '../../../src/core/trace/store';
import { writeClaudeSession, prerequisiteTurns } from '../../support/claudeSessions';
import { tempDir } from '../../support/tmp';

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
    const read = await readLines(file.path, ({ text, lineNo }) => {
      try {
        const record = JSON.parse(text) as { text: string };
        steps.push({ kind: 'user', text: record.text, index: steps.length });
        state.lines++;
      } catch {
        ctx.warn(`${file.path}:${lineNo}: malformed JSON line skipped`);
      }
    }, { start: resume?.start, maxLineBytes: ctx.maxLineBytes });
    ctx.checkpoint?.(read, state);
    return [{ id: 'claude-code:lines', agent: 'claude-code', source: { path: file.path, bytes: file.bytes }, steps, unknown: {}, warnings: [] }];
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

for (const blocking of [false, true]) describe(`incremental re-import of append-only logs (${blocking ? 'blocking file access, as in workers' : 'asynchronous file access'})`, () => {
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
    assert.deepEqual(lineReader.calls.map((c) => c.start), [undefined, before]);
    const trace = await stored(store, 'claude-code:lines');
    assert.deepEqual(trace.steps.map((s) => [s.index, s.kind === 'user' ? s.text : '']), [[0, 'one'], [1, 'two'], [2, 'three'], [3, 'four'], [4, 'no, use pnpm instead of npm']]);
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
    const text = readFileSync(join(store.dir, 'traces', 'claude-code', (await import('node:fs')).readdirSync(join(store.dir, 'traces', 'claude-code'))[0]), 'utf8');
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
    assert.ok(summary.warningMessages.some((m) => /truncated since the last import/.test(m)), summary.warningMessages.join('\n'));
    assert.equal(summary.bytesRead, statSync(path).size);
    assert.deepEqual((await stored(store, 'claude-code:lines')).steps.map((s) => (s.kind === 'user' ? s.text : '')), ['one']);
  });

  it('a different file of the same size under the same path is detected and read in full', async () => {
    const { path, store, run } = await setup(['aaa', 'bbb']);
    await run();
    writeFileSync(path, record('xxx') + record('yyy'));
    bumpMtime(path);
    const summary = await run();
    assert.equal(summary.restartedFiles, 1);
    assert.ok(summary.warningMessages.some((m) => /replaced since the last import/.test(m)));
    assert.deepEqual((await stored(store, 'claude-code:lines')).steps.map((s) => (s.kind === 'user' ? s.text : '')), ['xxx', 'yyy']);
  });

  it('a grown file whose earlier bytes changed is read in full, not resumed', async () => {
    const { path, store, run } = await setup(['aaa', 'bbb']);
    await run();
    writeFileSync(path, record('aaa') + record('BBB') + record('ccc'));
    bumpMtime(path);
    const summary = await run();
    assert.equal(summary.restartedFiles, 1);
    assert.deepEqual((await stored(store, 'claude-code:lines')).steps.map((s) => (s.kind === 'user' ? s.text : '')), ['aaa', 'BBB', 'ccc']);
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
    assert.deepEqual((await stored(store, 'claude-code:lines')).steps.map((s) => (s.kind === 'user' ? s.text : '')), ['one', 'two']);
  });

  it('a complete last record without its newline is not applied twice when the file grows', async () => {
    const { path, store, run } = await setup(['one']);
    appendFileSync(path, '{"text": "two"}');
    await run();
    appendFileSync(path, `\n${record('three')}`);
    bumpMtime(path);
    const second = await run();
    assert.equal(second.resumedFiles, 0, 'read in full: the unterminated record was already applied');
    assert.deepEqual((await stored(store, 'claude-code:lines')).steps.map((s) => (s.kind === 'user' ? s.text : '')), ['one', 'two', 'three']);
  });

  it('a missing stored trace falls back to a full read', async () => {
    const { path, store, run } = await setup(['one']);
    await run();
    const { rmSync } = await import('node:fs');
    rmSync(join(store.dir, 'traces'), { recursive: true });
    appendFileSync(path, record('two'));
    bumpMtime(path);
    const summary = await run();
    assert.equal(summary.resumedFiles, 0);
    assert.equal((await stored(store, 'claude-code:lines')).steps.length, 2);
  });
});

describe('incremental re-import with the real readers', () => {
  const claudeLine = (sessionId: string, n: number, extra: object) => `${JSON.stringify({
    parentUuid: null, isSidechain: false, userType: 'external', cwd: '/home/dev/shop', sessionId, version: '2.1.50', gitBranch: 'main',
    uuid: `${sessionId.slice(0, 8)}-0000-4000-8000-${String(900 + n).padStart(12, '0')}`, timestamp: `2026-11-02T10:00:0${n}.000Z`, ...extra,
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
    const added = claudeLine(sessionId, 1, { type: 'user', message: { role: 'user', content: 'Thanks. Now run the linter too.' } })
      + claudeLine(sessionId, 2, { type: 'assistant', message: { id: 'msg_new', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_new', name: 'Bash', input: { command: 'pnpm lint' } }] } });
    appendFileSync(path, added);
    bumpMtime(path);
    const summary = await run();
    assert.equal(summary.bytesRead, resumable ? Buffer.byteLength(added) : statSync(path).size);
    assert.equal(summary.resumedFiles, resumable ? 1 : 0);
    const after = await stored(store, `claude-code:${sessionId}`);
    assert.equal(after.steps.length, before.steps.length + 2);
    assert.deepEqual(after.steps.map((s) => s.index), after.steps.map((_, i) => i));
    assert.deepEqual(after.steps.slice(0, before.steps.length), before.steps);
    const [user, call] = after.steps.slice(-2);
    assert.ok(user.kind === 'user' && user.text === 'Thanks. Now run the linter too.');
    assert.ok(call.kind === 'tool_call' && call.command === 'pnpm lint');
    assert.deepEqual(after.outcome, before.outcome);
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
    const doc = (items: unknown[]) => JSON.stringify({ session: { id: 'aaaaaaaa-1111-4222-8333-444444444444', timestamp: '2025-05-01T10:00:00Z', instructions: '' }, items });
    const message = (role: string, text: string) => ({ type: 'message', role, content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }] });
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
        writeFileSync(path, `{"type":"keep","n":1}\n${big}\n{"type":"snapshot","n":2}\n{"type":"keep","n":3}\n${'é'.repeat(1_500_000)}\n`);
        const seen: string[] = [];
        const result = await readLines(path, ({ text }) => seen.push(text.length > 30 ? text.slice(0, 20) : text), { skip: (head) => head.startsWith('{"type":"snapshot"') });
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
