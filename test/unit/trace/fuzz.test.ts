import assert from 'node:assert/strict';
import { importSample } from '../../support/fuzzImport';
import { fuzzSamples, type FuzzSample } from '../../support/fuzzSamples';
import { mutationsOf, seeded } from '../../support/mutations';

const PARALLEL = 4;

/** The importer's own line for a file taken for a session that gave none: one lost session, said out loud. */
async function importText(
  sample: FuzzSample,
  content: Buffer,
): Promise<{ sessions: number; warned: number; messages: string[] }> {
  const { sessions, messages } = await importSample(sample, content);
  return { sessions, warned: messages.filter((m) => m.includes('no session could be read from it')).length, messages };
}

/**
 * Every sample of every reader, damaged in every way a log gets damaged: the import never throws or hangs (mocha's
 * timeout), no line blows the stack, and a session the damage cost is said out loud — sessions imported plus
 * sessions warned about ("no session could be read from it") never fall below the sessions of the intact sample. In a
 * line-oriented log an added line (malformed, unknown, deep, huge, blank, CRLF, BOM) costs no session at all.
 */
describe('fuzzing: mutated real samples lose no session without a warning', () => {
  const samples = fuzzSamples();
  let mutations = 0;
  const silent: string[] = [];

  it('has samples to mutate', () => {
    assert.ok(samples.length >= 4, `${samples.length} samples`);
  });

  samples.forEach((sample, index) => {
    it(`${sample.name}: every mutation imports or warns`, async function () {
      this.timeout(120_000);
      const intact = await importText(sample, sample.content);
      assert.ok(intact.sessions >= 1, `the intact sample imports (${intact.messages.join('; ')})`);
      const lost: string[] = [];
      const variants = mutationsOf(index);
      // A few imports at a time (each in its own folder and store): the results do not depend on the order.
      const results = [];
      for (let i = 0; i < variants.length; i += PARALLEL) {
        results.push(
          ...(await Promise.all(
            variants
              .slice(i, i + PARALLEL)
              .map(({ mutation, seed }) => importText(sample, mutation.apply(sample.content, seeded(seed)))),
          )),
        );
      }
      const lineOriented = /\.(?:jsonl|md)$/.test(sample.target);
      for (const [i, { label, mutation, seed }] of variants.entries()) {
        const got = results[i];
        mutations++;
        if (got.sessions + got.warned < intact.sessions)
          lost.push(`${label} (seed ${seed}): ${got.sessions}/${intact.sessions} session(s), no warning`);
        // A bad or unknown line costs that line, never its session.
        else if (lineOriented && mutation.keepsLines && got.sessions < intact.sessions)
          lost.push(`${label} (seed ${seed}): ${got.sessions}/${intact.sessions} session(s) for an added line`);
        const overflow = got.messages.find((m) => /call stack/i.test(m));
        if (overflow) lost.push(`${label} (seed ${seed}): ${overflow.slice(0, 200)}`);
        if (process.env.COMBEE_FUZZ_REPORT && got.sessions < intact.sessions)
          console.log(
            `  ${sample.name} ${label}: ${got.sessions}/${intact.sessions}; ${got.messages
              .map((m) => m.replace(/^\S+: /, ''))
              .join(' | ')
              .slice(0, 300)}`,
          );
      }
      silent.push(...lost.map((l) => `${sample.name}: ${l}`));
      assert.deepEqual(lost, [], `${sample.name}: sessions lost without a warning`);
    });
  });

  after(() => {
    if (process.env.COMBEE_FUZZ_REPORT)
      console.log(
        `fuzz: ${mutations} mutations of ${samples.length} samples, ${silent.length} lost a session without a warning or blew the stack\n${silent.join('\n')}`,
      );
  });
});
