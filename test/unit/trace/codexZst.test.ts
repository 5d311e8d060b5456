import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_READ_LIMITS, type ReadLimits } from '../../../src/core/import/limits';
import type { Trace } from '../../../src/core/trace/model';
import { codexReader } from '../../../src/core/trace/sources/codex';
import { FIXTURES } from '../../support/paths';
import { tempDir } from '../../../testing/tmp';
import { rawFrame } from '../../support/zstdFrames';
import { discoverSessions, importFile } from '../../support/importFiles';

// The fixture is the plain rollout in zst/source/, compressed once with the zstd CLI as two frames split inside a
// line (`zstd -19` of each half, concatenated), so a line spans frames and decompressed chunks.
const NAME = 'rollout-2026-05-04T10-11-12-019e0a1b-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl';
const ZST = join(FIXTURES, 'zst', `${NAME}.zst`);
const PLAIN = join(FIXTURES, 'zst', 'source', NAME);

async function importDir(
  dir: string,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): Promise<{ traces: Trace[]; warnings: string[] }> {
  const files = await discoverSessions(dir);
  const traces: Trace[] = [];
  const warnings: string[] = [];
  for (const file of files) {
    assert.equal(file.agent, 'codex', file.path);
    const out = await importFile(file, limits, {});
    traces.push(...out.traces);
    warnings.push(...out.warnings);
  }
  return { traces, warnings };
}

function withFiles(files: Record<string, string | Buffer>): string {
  const dir = tempDir('combee-codex-zst-');
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

describe('Codex compressed rollouts (.jsonl.zst)', () => {
  it('reads a two-frame .jsonl.zst exactly as the plain rollout it was made from', async () => {
    const zstDir = tempDir('combee-codex-zst-');
    copyFileSync(ZST, join(zstDir, `${NAME}.zst`));
    const plainDir = tempDir('combee-codex-zst-');
    copyFileSync(PLAIN, join(plainDir, NAME));
    const compressed = await importDir(zstDir);
    const plain = await importDir(plainDir);
    assert.deepEqual(compressed.warnings, []);
    assert.equal(compressed.traces.length, 1);
    const trace = compressed.traces[0];
    assert.equal(trace.id, 'codex:019e0a1b-2c3d-7e4f-8a9b-0c1d2e3f4a5b');
    assert.equal(trace.agentVersion, '0.150.0');
    assert.equal(trace.cwd, '/home/dev/shop');
    assert.equal(trace.startedAt, '2026-05-04T10:11:12.000Z');
    assert.equal(trace.endedAt, '2026-05-04T10:11:23.000Z');
    assert.equal(trace.title, 'The checkout test fails since yesterday, please fix it');
    assert.deepEqual(
      trace.steps.map((s) => s.kind),
      ['user', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'assistant'],
    );
    const failing = trace.steps[2];
    assert.ok(
      failing.kind === 'tool_result' && failing.callId === 'call_zst_1' && failing.isError && failing.exitCode === 1,
    );
    assert.match(failing.output, /1\) applies the discount once/, 'the line split across the two frames is whole');
    const patch = trace.steps[4];
    assert.ok(patch.kind === 'tool_result' && !patch.isError && patch.exitCode === 0);
    assert.deepEqual(trace.outcome.testRuns, { passed: 1, failed: 1 });
    assert.equal(trace.outcome.toolErrors, 1);
    assert.deepEqual(trace.unknown, { world_state: 1, 'event_msg:item_completed': 1 });
    // Same trace as the plain file, but for where it came from.
    const { source: zstSource, ...zstRest } = trace;
    const { source: plainSource, ...plainRest } = plain.traces[0];
    assert.deepEqual(zstRest, plainRest);
    assert.equal(zstSource.bytes, readFileSync(ZST).length);
    assert.equal(plainSource.bytes, readFileSync(PLAIN).length);
  });

  it('leaves the .zst alone when the plain .jsonl is next to it', async () => {
    const dir = withFiles({ [NAME]: readFileSync(PLAIN), [`${NAME}.zst`]: readFileSync(ZST) });
    const files = await discoverSessions(dir);
    assert.deepEqual(files.map((f) => f.path.endsWith('.zst')).sort(), [false, true], 'both are found');
    const { traces, warnings } = await importDir(dir);
    assert.deepEqual(warnings, []);
    assert.equal(traces.length, 1);
    assert.ok(traces[0].source.path.endsWith('.jsonl'));
  });

  it('keeps the lines before a cut-off stream, with one warning', async () => {
    const bytes = readFileSync(ZST);
    const dir = withFiles({ [`${NAME}.zst`]: bytes.subarray(0, bytes.length - 200) });
    const { traces, warnings } = await importDir(dir);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /zstd stream damaged or cut short/);
    assert.equal(traces.length, 1);
    // The first frame ends inside the first command's output: that half line is dropped, not warned about.
    assert.deepEqual(
      traces[0].steps.map((s) => s.kind),
      ['user', 'tool_call'],
    );
  });

  it('refuses a frame asking for a window of gigabytes before allocating it, keeping the frames before it', async () => {
    // One flipped bit in a Window_Descriptor does this; fzstd would allocate and copy 1.9 GB per block.
    const extra = `${JSON.stringify({ timestamp: '2026-05-04T10:11:30.000Z', type: 'event_msg', payload: { type: 'agent_message', message: 'after' } })}\n`;
    const dir = withFiles({
      [`${NAME}.zst`]: Buffer.concat([
        readFileSync(ZST),
        rawFrame(Buffer.from(extra), { windowDescriptor: (20 << 3) | 7 }),
      ]),
    });
    const { traces, warnings } = await importDir(dir);
    assert.deepEqual(
      warnings.map((w) => w.replace(/^.*\.zst: /, '')),
      [
        `zstd stream damaged or cut short (the frame at byte ${readFileSync(ZST).length} asks for a 1920 MB window, over the 128 MB zstd decodes by default); the lines before it are kept`,
      ],
    );
    assert.equal(traces.length, 1);
    assert.equal(traces[0].steps.length, 8, 'every step of the frames before it');
  });

  it('warns about a file that is not zstd at all and produces no trace', async () => {
    const dir = withFiles({ [`${NAME}.zst`]: readFileSync(PLAIN) });
    const { traces, warnings } = await importDir(dir);
    assert.equal(traces.length, 0);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /zstd stream damaged or cut short/);
  });

  it('skips decompressed lines over the line limit as plain files do', async () => {
    const dir = withFiles({ [`${NAME}.zst`]: readFileSync(ZST) });
    const { traces, warnings } = await importDir(dir, { ...DEFAULT_READ_LIMITS, maxLineBytes: 2048 });
    assert.deepEqual(
      warnings.map((w) => w.replace(/^.*: /, '')),
      ['1 line(s) over 2048 bytes skipped'],
    );
    const trace = traces[0];
    assert.equal(
      trace.id,
      'codex:019e0a1b-2c3d-7e4f-8a9b-0c1d2e3f4a5b',
      'the id comes from the file name without the meta line',
    );
    assert.equal(trace.agentVersion, undefined);
    assert.equal(trace.cwd, '/home/dev/shop', 'from turn_context');
    assert.equal(trace.steps.length, 8);
  });

  it('claims rollout-*.jsonl.zst files only', () => {
    assert.equal(codexReader.accepts(`/s/${NAME}.zst`), true);
    assert.equal(codexReader.sniff(`/s/${NAME}.zst`, '(\uFFFD/\uFFFD'), true);
    assert.equal(codexReader.sniff('/s/backup.jsonl.zst', '(\uFFFD/\uFFFD'), false);
    assert.equal(codexReader.accepts('/s/rollout-x.tar.zst'), false);
  });
});
