import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_READ_LIMITS, importSessions } from '../../../src/core/trace/importer';
import { TraceStore } from '../../../src/core/trace/store';
import { fuzzSamples, type FuzzSample } from '../../support/fuzzSamples';
import { FUZZ_MAX_LINE_BYTES, mutationsOf, seeded } from '../../support/mutations';
import { tempDir } from '../../support/tmp';

const LIMITS = { ...DEFAULT_READ_LIMITS, maxLineBytes: FUZZ_MAX_LINE_BYTES };

/** Imports one sample (mutated or not) alone: its sessions, and the warnings that name it. */
async function importSample(sample: FuzzSample, content: Buffer): Promise<{ sessions: number; warned: number; messages: string[] }> {
  const home = tempDir('combee-fuzz-');
  const write = (rel: string, bytes: Buffer) => {
    mkdirSync(dirname(join(home, rel)), { recursive: true });
    writeFileSync(join(home, rel), bytes);
  };
  for (const [rel, bytes] of Object.entries(sample.companions)) write(rel, bytes);
  write(sample.target, content);
  const summary = await importSessions({ from: home, store: new TraceStore(join(home, '.combee-store')), limits: LIMITS, concurrency: 1 });
  const path = join(home, sample.target);
  const messages = summary.warningMessages.filter((m) => m.includes(path));
  return { sessions: summary.sessions, warned: messages.length, messages };
}

/**
 * Every sample of every reader, damaged in every way a log gets damaged: the import never throws or hangs (mocha's
 * timeout), and each session the damage cost is a warning naming the file — sessions imported plus warnings about
 * the file never fall below the sessions of the intact sample.
 */
describe('fuzzing: mutated real samples lose no session without a warning', () => {
  const samples = fuzzSamples();
  const readersSeen = new Set<string>();
  let mutations = 0;
  const silent: string[] = [];

  it('finds samples of every reader', () => {
    assert.ok(samples.length >= 10, `${samples.length} samples`);
  });

  samples.forEach((sample, index) => {
    it(`${sample.name}: every mutation imports or warns`, async function () {
      this.timeout(120_000);
      const intact = await importSample(sample, sample.content);
      assert.ok(intact.sessions >= 1, `the intact sample imports (${intact.messages.join('; ')})`);
      readersSeen.add(sample.target.split('/')[0]);
      const lost: string[] = [];
      for (const { label, mutation, seed } of mutationsOf(index)) {
        const damaged = mutation.apply(sample.content, seeded(seed));
        const got = await importSample(sample, damaged);
        mutations++;
        if (got.sessions + got.warned < intact.sessions) lost.push(`${label} (seed ${seed}): ${got.sessions}/${intact.sessions} session(s), no warning`);
      }
      silent.push(...lost.map((l) => `${sample.name}: ${l}`));
      assert.deepEqual(lost, [], `${sample.name}: sessions lost without a warning`);
    });
  });

  after(() => {
    if (process.env.COMBEE_FUZZ_REPORT) console.log(`fuzz: ${mutations} mutations of ${samples.length} samples, ${silent.length} lost a session silently\n${silent.join('\n')}`);
  });
});
