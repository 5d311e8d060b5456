import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { instantModel } from '../../../bench/learn/simulation';
import { runCli } from '../../../src/cli/main';
import { CapacityTracker, plannedCapacity } from '../../../src/core/learn/capacity/capacityLearning';
import { CapacityProfiles } from '../../../src/core/learn/capacity/capacityProfiles';
import { capture } from '../../../testing/cliOutput';
import { startModelServer, type ModelServer } from '../../../testing/modelServer';
import { tempDir } from '../../../testing/tmp';

/** Below what one answer of distinct lessons holds (about 3,900 tokens of them), so calibration can see it. */
const CAPACITY = 2_000;

describe('combee calibrate', () => {
  let server: ModelServer;
  beforeEach(async () => {
    server = await startModelServer({ responder: instantModel({ capacityTokens: CAPACITY, gamma: 0.7 }) });
  });
  afterEach(() => server.close());

  const calibrate = (store: string, ...flags: string[]) => [
    'calibrate',
    '--base-url',
    server.url,
    '--model',
    'sim',
    '--store',
    store,
    ...flags,
  ];

  it('--yes --json: sends the planned calls, prints what they kept and saves them in the capacity profile', async () => {
    const store = join(tempDir('combee-calibrate-'), 'store');
    const out = capture();
    assert.equal(
      await runCli(calibrate(store, '--yes', '--json', '--max-tokens', '16000'), out),
      0,
      out.stderr.join('\n'),
    );
    const report = JSON.parse(out.stdout.join('\n'));
    assert.equal(report.provider, 'openai');
    assert.equal(report.model, 'sim');
    assert.equal(report.upperBoundTokens, 16_000);
    assert.equal(server.requests.length, report.estimate.calls);
    assert.equal(report.calls.length, report.estimate.calls);
    assert.ok(report.calls.every((c: { load: number }) => c.load <= 16_000));
    assert.ok(report.learnedTokens >= CAPACITY / 1.5 && report.learnedTokens <= CAPACITY * 1.5, report.learnedTokens);
    // the plan and its cost went to stderr before any call, stdout is the JSON alone
    assert.match(out.stderr.join('\n'), /Calibration of openai\/sim: \d+ aggregation calls/);
    const file = join(store, 'capacity-profiles.json');
    assert.equal(report.profile.file, file);
    const saved = await new CapacityProfiles(store).load('openai', 'sim');
    assert.deepEqual(
      saved.map((o) => o.load),
      report.calls.map((c: { load: number }) => c.load),
    );
    assert.equal(report.profile.capacityTokens, plannedCapacity(saved));
    // what the next run of this model plans its calls to: the calibrated capacity, under the setting
    assert.equal(new CapacityTracker(16_000, saved).knowledge().budgetTokens, report.profile.capacityTokens);

    // a second calibration adds to the profile; --reset forgets the earlier calls first
    assert.equal(await runCli(calibrate(store, '--yes', '--json', '--max-tokens', '16000'), capture()), 0);
    assert.equal((await new CapacityProfiles(store).load('openai', 'sim')).length, 2 * report.calls.length);
    const reset = capture();
    assert.equal(await runCli(calibrate(store, '--yes', '--json', '--reset', '--max-tokens', '8000'), reset), 0);
    const afterReset = await new CapacityProfiles(store).load('openai', 'sim');
    assert.deepEqual(
      afterReset.map((o) => o.load),
      JSON.parse(reset.stdout.join('\n')).calls.map((c: { load: number }) => c.load),
    );
    assert.equal(afterReset.length, JSON.parse(reset.stdout.join('\n')).calls.length);
    assert.ok(JSON.parse(readFileSync(file, 'utf8')).profiles['openai/sim']);
  });

  it('asks before sending, and a no sends nothing', async () => {
    const store = join(tempDir('combee-calibrate-'), 'store');
    const asked: string[] = [];
    const declined = { ...capture(), ask: async (q: string) => (asked.push(q), 'n') };
    assert.equal(await runCli(calibrate(store), declined), 0);
    assert.equal(asked.length, 1);
    assert.deepEqual(server.requests, []);
    assert.match(declined.stdout.join('\n'), /nothing was sent/);
    assert.ok(!existsSync(join(store, 'capacity-profiles.json')));

    const accepted = { ...capture(), ask: async () => 'y' };
    assert.equal(await runCli(calibrate(store, '--max-tokens', '1500'), accepted), 0);
    assert.equal(server.requests.length, 2);
    assert.match(accepted.stdout.join('\n'), /^No overload seen up to 1,\d{3} tokens/);
    assert.match(accepted.stdout.join('\n'), /Saved 2 call\(s\) to /);
  });

  it('without a terminal to ask in, needs --yes (exit 2, nothing sent)', async () => {
    const out = capture();
    assert.equal(await runCli(calibrate(join(tempDir('combee-calibrate-'), 'store')), out), 2);
    assert.deepEqual(server.requests, []);
    assert.match(out.stderr.join('\n'), /pass --yes/);
  });

  it('says the offline learner has nothing to calibrate (exit 2)', async () => {
    const out = capture();
    const store = join(tempDir('combee-calibrate-'), 'store');
    assert.equal(await runCli(['calibrate', '--provider', 'offline', '--yes', '--store', store], out), 2);
    assert.match(out.stderr.join('\n'), /calibration needs a model/);
    assert.deepEqual(server.requests, []);
  });

  it('refuses an upper bound below the least capacity (exit 2)', async () => {
    const out = capture();
    assert.equal(await runCli(calibrate(tempDir('combee-calibrate-'), '--yes', '--max-tokens', '500'), out), 2);
    assert.match(out.stderr.join('\n'), /--max-tokens must be at least 1000/);
  });
});
