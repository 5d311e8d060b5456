import assert from 'node:assert/strict';
import { refutedGate } from '../../../../../src/core/learn/rules/gates/refuted';
import { repositoryText } from '../../../../../src/core/learn/rules/gates/repository';
import type { GateContext } from '../../../../../src/core/learn/rules/gates/types';
import type { Trace } from '../../../../../src/core/trace/model';
import { makeTrace, shell } from '../../../../../testing/traces';

// A rule resting only on a command failing is refuted by a session of the run where that command passed.

const context = (traces: Trace[]): GateContext => ({
  traces: new Map(traces.map((t) => [t.id, t])),
  repository: repositoryText(() => undefined),
});
const RULE = '`hub auth status` fails here for want of a login: ask the user to authenticate instead of retrying.';

describe('the refuted gate', () => {
  const failing = makeTrace('a', [
    ...shell('hub auth status', 'You are not logged in to any hosts.', 1),
    ...shell('pnpm test', 'ok'),
  ]);
  const alsoFailing = makeTrace('b', shell('hub auth status', 'error: token has expired', 1));
  const working = makeTrace('c', shell('hub auth status', 'Logged in to hub.acme.dev as dev'));
  const cite = (trace: Trace, steps: number[]) => ({ traceId: trace.id, steps });

  it('passes a rule whose failing command never passed in the run', () => {
    const rule = { content: RULE, support: [cite(failing, [0, 1]), cite(alsoFailing, [0, 1])] };
    assert.equal(refutedGate.check(rule, context([failing, alsoFailing])), undefined);
  });

  it('refuses it once a session shows that command passing', () => {
    const rule = { content: RULE, support: [cite(failing, [0, 1]), cite(alsoFailing, [0, 1])] };
    assert.match(refutedGate.check(rule, context([failing, alsoFailing, working])) ?? '', /passed in session c/);
  });

  it('leaves alone a rule that cites a pass as well, or tells the agent to run the command that failed', () => {
    const fix = { content: 'Run `pnpm test` after `hub auth status`.', support: [cite(failing, [0, 1, 2, 3])] };
    assert.equal(refutedGate.check(fix, context([failing, working])), undefined);
    const verify = { content: 'After editing, run `hub auth status` first.', support: [cite(failing, [0, 1])] };
    assert.equal(refutedGate.check(verify, context([failing, working])), undefined);
    // a check that failed on an edit and passed later in its session is not said to fail here
    const caught = makeTrace('d', [...shell('pnpm lint', 'src/a.ts: 1 error', 1), ...shell('pnpm lint', 'ok')]);
    const lint = { content: 'Fix what `pnpm lint` reports and `pnpm test`.', support: [cite(caught, [0, 1])] };
    assert.equal(refutedGate.check(lint, context([caught, failing])), undefined);
  });
});
