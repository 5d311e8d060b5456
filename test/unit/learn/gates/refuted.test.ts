import assert from 'node:assert/strict';
import { refutedGate } from '../../../../src/core/learn/gates/refuted';
import { repositoryText } from '../../../../src/core/learn/gates/repository';
import type { GateContext } from '../../../../src/core/learn/gates/types';
import type { Trace } from '../../../../src/core/trace/model';
import { makeTrace, shell } from '../../../../testing/traces';

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

  it('leaves alone a rule that cites a pass as well (a fix, a check that caught an edit)', () => {
    const rule = { content: 'Run `pnpm test` after logging in.', support: [cite(failing, [0, 1, 2, 3])] };
    assert.equal(refutedGate.check(rule, context([failing, working])), undefined);
  });
});
