import assert from 'node:assert/strict';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { instantModel } from '../../../bench/learn/simulation';
import { plannedCapacity } from '../../../src/core/learn/capacity/capacityLearning';
import { CapacityProfiles } from '../../../src/core/learn/capacity/capacityProfiles';
import type { CalibrateTask } from '../../../src/core/pool/calibrateProtocol';
import { runCalibrateTask } from '../../../src/core/pool/calibrateTask';
import type { HostApi, WorkerApi } from '../../../src/core/pool/learnProtocol';
import { PortRpc } from '../../../src/core/util/portRpc';
import { tempDir } from '../../../testing/tmp';

const VSCODE_MODEL = { provider: 'vscode', model: 'copilot/test' } as const;

/** The task over a port whose host answers VS Code's chat turns with a model that overloads at 5,000 tokens. */
async function run(stage: CalibrateTask['stage'], storeDir: string, provider: CalibrateTask['provider']) {
  const { port1, port2 } = new MessageChannel();
  const model = instantModel({ capacityTokens: 2_000, gamma: 0.7 });
  let chats = 0;
  new PortRpc<WorkerApi, HostApi>(port2, {
    chat: (messages) => ({
      content: model({ model: 'host', messages }, chats++).content ?? '',
      finishReason: 'stop',
      inputTokens: 10,
      outputTokens: 5,
    }),
  });
  try {
    const result = await runCalibrateTask({
      stage,
      storeDir,
      provider,
      options: { upperBoundTokens: 16_000, seed: 2 },
      port: port1,
    });
    return { result, chats };
  } finally {
    port2.close();
  }
}

describe('a calibration as a worker task (over a message port)', () => {
  it('plans without a call, then runs through the host’s model and keeps the calls in its profile', async () => {
    const storeDir = join(tempDir('combee-calibrate-task-'), 'store');
    const provider = { kind: 'proxy' as const, info: VSCODE_MODEL };
    const planned = await run('plan', storeDir, provider);
    assert.equal(planned.chats, 0);
    assert.equal(planned.result.run, undefined);
    const calls = planned.result.estimate.calls;
    assert.ok(calls >= 4, String(calls));
    assert.match(planned.result.plan, new RegExp(`^Calibration of vscode/copilot/test: ${calls} aggregation calls`));
    assert.deepEqual(await new CapacityProfiles(storeDir).load(VSCODE_MODEL.provider, VSCODE_MODEL.model), []);

    const ran = await run('run', storeDir, provider);
    assert.equal(ran.chats, calls);
    assert.deepEqual(ran.result.estimate, planned.result.estimate, 'the run sends the calls the plan priced');
    const { result, summary, profileTokens } = ran.result.run!;
    assert.match(summary, /^Effective capacity: about [\d,]+ tokens/);
    const saved = await new CapacityProfiles(storeDir).load(VSCODE_MODEL.provider, VSCODE_MODEL.model);
    assert.deepEqual(saved, result.observations);
    // what the next run plans to: the capacity shown, or a probe of the gap above it
    assert.equal(profileTokens, plannedCapacity(saved));
    assert.ok(profileTokens! >= result.learnedTokens!);
  });

  it('refuses the offline learner: it has no capacity to measure', async () => {
    await assert.rejects(
      run('plan', join(tempDir('combee-calibrate-task-'), 'store'), { kind: 'offline' }),
      /calibration needs a model/,
    );
  });
});
