import assert from 'node:assert/strict';
import { runnableGate } from '../../../../src/core/learn/gates/runnable';
import { repositoryText } from '../../../../src/core/learn/gates/repository';
import type { GateContext } from '../../../../src/core/learn/gates/types';
import type { Trace } from '../../../../src/core/trace/model';
import { makeTrace, shell } from '../../../../testing/traces';

const context = (traces: Trace[]): GateContext => ({
  traces: new Map(traces.map((t) => [t.id, t])),
  repository: repositoryText(() => undefined),
});
const check = (content: string, trace: Trace) =>
  runnableGate.check({ content, support: [{ traceId: trace.id, steps: [0] }] }, context([trace]));

describe('the runnable gate', () => {
  const session = makeTrace('s', [
    ...shell('npm install -D vitest', 'added 1 package'),
    ...shell('pnpm vitest run src/cart.test.ts', 'Tests 3 passed'),
    ...shell("node - <<'JS'\nconsole.log(1)\nJS", '1'),
    ...shell('cargo run --example render --features svg maps/a.tmx', 'wrote out.svg'),
    ...shell('yarn build', 'error Command failed', 1),
  ]);

  it('passes a command that ran in that form and passed, and a check with its one-task selectors dropped', () => {
    assert.equal(check('Install test tools with `npm install -D vitest`.', session), undefined);
    assert.equal(check('Run the tests with `pnpm vitest run`.', session), undefined);
    assert.equal(check('Run `cargo run --example render --features svg`.', session), undefined);
    // what a rule forbids, and a failure's quoted output, are not prescribed
    assert.equal(check('Run `pnpm vitest run`, not `pnpm vitest`: it fails with `npm ERR! x`.', session), undefined);
  });

  it('refuses a command stripped of its arguments, a dangling heredoc, and one that only failed', () => {
    assert.match(check('Run `npm install -D` first.', session) ?? '', /npm install -D/);
    assert.match(check("Run `node - <<'JS'` instead.", session) ?? '', /not runnable/);
    assert.match(check('Build with `yarn build`.', session) ?? '', /yarn build/);
  });

  it('reads a bare word or a name as no command', () => {
    assert.equal(check('Use `python3`; commits carry `Entire-Checkpoint`.', session), undefined);
  });
});
