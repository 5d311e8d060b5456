import assert from 'node:assert/strict';
import { binaryMutationsOf } from '../../support/binaryMutations';
import { binarySamples } from '../../support/binarySamples';
import { importSample, type SampleImport } from '../../support/fuzzImport';
import { seeded } from '../../support/mutations';

const PARALLEL = 2;

/**
 * How many of the file's sessions its warnings account for. The whole file — `intact` — when the importer said it
 * gave none ("no session could be read from it") or counted it as an empty file; else the sessions the reader named
 * ("<path>: <session>: <why>; skipped"), the total once it stopped naming them ("N sessions skipped in all"), and
 * those a damaged database cost ("N session(s) lost").
 */
function warnedAbout(got: SampleImport, intact: number): number {
  if (got.skipped.includes('empty') || got.messages.some((m) => m.includes('no session could be read from it')))
    return intact;
  let named = 0;
  let lost = 0;
  for (const message of got.messages) {
    if (/: (?:composerData[:;]|session |tab |workbench\.panel\.aichat)[^:]*: [^;]*; skipped$/.test(message)) named++;
    const inAll = /: (\d+) sessions skipped in all$/.exec(message);
    if (inAll) named = Math.max(named, Number(inAll[1]));
    const damaged = /: damaged database \(.*\); (\d+) session\(s\) lost/.exec(message);
    if (damaged) lost += Number(damaged[1]);
  }
  return named + lost;
}

/**
 * The session stores in binary containers, damaged where their structure is: SQLite databases (Cursor's
 * state.vscdb, OpenCode's opencode.db) cut at and between pages, flipped in the header, a b-tree page or a row's
 * JSON, a page zeroed, a leftover -wal, emptied, rows rewritten malformed, deep, huge, of an unknown shape or type;
 * Codex's .jsonl.zst rollouts cut, flipped, with frames added (concatenated, skippable, of garbage) or asking for a
 * huge window. The import never throws or hangs (mocha's timeout), and sessions imported plus sessions warned about
 * never fall below the sessions of the intact sample; what only adds (a row, a table, a frame) costs none.
 */
describe('fuzzing: mutated binary session stores lose no session without a warning', () => {
  const samples = binarySamples();
  let mutations = 0;
  const silent: string[] = [];

  it('has samples of each container', () => {
    assert.ok(samples.filter((s) => s.container === 'sqlite').length >= 5, 'SQLite samples');
    assert.ok(
      samples.some((s) => s.container === 'zst'),
      'zst samples',
    );
  });

  samples.forEach((spec, index) => {
    it(`${spec.name}: every mutation imports or warns`, async function () {
      this.timeout(180_000);
      const sample = await spec.load();
      const intact = await importSample(sample, sample.content);
      assert.ok(intact.sessions >= 1, `the intact sample imports (${intact.messages.join('; ')})`);
      const variants = binaryMutationsOf(sample.container, index);
      const results: SampleImport[] = [];
      for (let i = 0; i < variants.length; i += PARALLEL) {
        results.push(
          ...(await Promise.all(
            variants.slice(i, i + PARALLEL).map(async ({ mutation, seed }) => {
              const damaged = await mutation.apply(sample, seeded(seed));
              return importSample(sample, damaged.content, damaged.beside);
            }),
          )),
        );
      }
      const lost: string[] = [];
      for (const [i, { label, mutation, seed }] of variants.entries()) {
        const got = results[i];
        mutations++;
        const warned = warnedAbout(got, intact.sessions);
        if (got.sessions + warned < intact.sessions)
          lost.push(`${label} (seed ${seed}): ${got.sessions}/${intact.sessions} session(s), ${warned} warned about`);
        else if (mutation.keepsSessions && got.sessions < intact.sessions)
          lost.push(`${label} (seed ${seed}): ${got.sessions}/${intact.sessions} session(s) for an addition`);
        const overflow = got.messages.find((m) => /call stack/i.test(m));
        if (overflow) lost.push(`${label} (seed ${seed}): ${overflow.slice(0, 200)}`);
        if (process.env.COMBEE_FUZZ_REPORT && (got.sessions < intact.sessions || got.messages.length > 0)) {
          console.log(
            `  ${spec.name} ${label}: ${got.sessions}/${intact.sessions} (+${warned}); ${got.skipped.join(',')} ${got.messages
              .map((m) => m.replace(/^\S+: /, ''))
              .join(' | ')
              .slice(0, 400)}`,
          );
        }
      }
      silent.push(...lost.map((l) => `${spec.name}: ${l}`));
      assert.deepEqual(lost, [], `${spec.name}: sessions lost without a warning`);
    });
  });

  after(() => {
    if (process.env.COMBEE_FUZZ_REPORT)
      console.log(
        `fuzz: ${mutations} mutations of ${samples.length} binary samples, ${silent.length} lost a session without a warning or blew the stack\n${silent.join('\n')}`,
      );
  });
});
