import assert from 'node:assert/strict';
import { runnableGate } from '../../../../../src/core/learn/rules/gates/runnable';
import { repositoryText } from '../../../../../src/core/learn/rules/gates/repository';
import type { GateContext } from '../../../../../src/core/learn/rules/gates/types';
import type { Trace } from '../../../../../src/core/trace/model';
import { makeTrace, shell } from '../../../../../testing/traces';

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
    ...shell('docker build -t shop .', 'Successfully built'),
  ]);

  it('passes a command that ran in that form, a check with its one-task selectors dropped, and any flag', () => {
    assert.equal(check('Install test tools with `npm install -D vitest`.', session), undefined);
    assert.equal(check('Run the tests with `pnpm vitest run`.', session), undefined);
    assert.equal(check('Run `cargo run --example render --features svg`.', session), undefined);
    // what a rule forbids, and a failure's quoted output, are not prescribed
    assert.equal(check('Run `pnpm vitest run`, not `npm install -D`: it fails with `npm ERR! x`.', session), undefined);
    // a command the sessions never ran says nothing the sessions can refute
    assert.equal(check('Build the image with `docker compose build`.', session), undefined);
    // the folder or file a command was given is not what it acts on
    assert.equal(check('Build the image with `docker build`.', session), undefined);
  });

  it('refuses a command stripped of what it acts on, and a dangling heredoc', () => {
    assert.match(check('Run `npm install -D` first.', session) ?? '', /`npm install -D`, cut short/);
    assert.match(check("Run `node - <<'JS'` instead.", session) ?? '', /not runnable/);
  });

  it('reads a bare word or a name as no command', () => {
    assert.equal(check('Use `python3`; commits carry `Entire-Checkpoint`.', session), undefined);
  });
});
