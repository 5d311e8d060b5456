// Calibration inside the real VS Code: the command's calls are planned and sent from a worker to a loopback model,
// and what each call kept is reported and kept for the model.
import assert from 'node:assert/strict';
import { useLoopbackEndpoint } from './loopbackModel';
import { run } from './combee';

describe("calibrating a model's aggregation capacity", () => {
  const model = useLoopbackEndpoint();

  it('sends the planned calls to the endpoint and reports what each kept', async () => {
    const before = model().requests.filter((r) => r.messages).length;
    const result = await run('combee.calibrateCapacity', true);
    assert.ok(result, 'a result');
    assert.equal(result.failedCalls, 0, result.warnings.join('\n'));
    assert.ok(result.observations.length >= 3, JSON.stringify(result.observations));
    const sent = model()
      .requests.filter((r) => r.messages)
      .slice(before);
    assert.equal(sent.length, result.observations.length, 'one request per call');
    assert.ok(sent.every((r) => r.model === 'local-sim'));
    // the loopback model keeps every lesson: no overload, so the setting stays the bound
    assert.ok(result.observations.every((o) => o.dropped === 0));
    assert.equal(result.learnedTokens, undefined);
    const loads = result.observations.map((o) => o.load);
    assert.ok(
      loads.every((load, i) => i === 0 || load > loads[i - 1]),
      `growing calls: ${loads.join(', ')}`,
    );
  });
});
