import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { UndoStack } from '../../../src/core/service/review/undo';
import { capture } from '../../../testing/cliOutput';
import { FLAGGED_ID, RULE_OPS, reviewFixture, type ReviewFixture } from '../../support/reviewProposal';

// `combee undo` walks back the same stack as the extension's Undo Last Decision, with the proposal's own targets and
// playbook path; `accept` and `reject` say when there is nothing left to decide.

const [first, second] = RULE_OPS.map((op) => (op.op === 'ADD' ? (op.id as string) : ''));
const FILES = ['docs/agents/playbook.md', 'AGENTS.md', '.cursor/rules/combee.mdc', 'CLAUDE.md'];

async function fixture() {
  const fx = await reviewFixture({
    playbookPath: 'docs/agents/playbook.md',
    targets: ['playbook', 'agents-md', 'cursor-rules'],
  });
  const common = ['--workspace', fx.workspace, '--store', fx.storeDir];
  const read = (path: string) =>
    existsSync(join(fx.workspace, path)) ? readFileSync(join(fx.workspace, path), 'utf8') : undefined;
  const snapshot = async () => ({
    files: FILES.map(read),
    proposal: await fx.proposals.load(fx.workspace, fx.proposal.id),
  });
  return { fx, common, read, snapshot };
}

const stackOf = (fx: ReviewFixture) => new UndoStack(fx.store.dir, fx.workspace);

describe('combee undo', () => {
  it('walks back several decisions with --steps, newest first, and the extension reads the same stack', async () => {
    const { fx, common, snapshot } = await fixture();
    const states = [await snapshot()];
    for (const argv of [
      ['accept', fx.proposal.id, '--rule', first],
      ['reject', fx.proposal.id, '--rule', FLAGGED_ID],
      ['accept', fx.proposal.id, '--file', 'AGENTS.md'],
    ]) {
      const out = capture();
      assert.equal(await runCli([...argv, ...common], out), 0, out.stderr.join('\n'));
      states.push(await snapshot());
    }
    assert.ok(states[1].files[2]?.includes(`[${first}]`), 'the Cursor rules file, a target off by default, written');
    assert.equal((await stackOf(fx).entries()).length, 3);

    const two = capture();
    assert.equal(await runCli(['undo', '--steps', '2', '--json', ...common], two), 0, two.stderr.join('\n'));
    const json = JSON.parse(two.stdout.join('\n'));
    assert.deepEqual(
      json.undone.map((u: { decision: string }) => u.decision),
      ['accepted AGENTS.md of proposal run-1', `rejected rule ${FLAGGED_ID} of proposal run-1`],
    );
    assert.ok(json.undone[0].restored.includes('.cursor/rules/combee.mdc'), JSON.stringify(json.undone[0]));
    assert.equal(json.left, 1);
    assert.deepEqual(await snapshot(), states[1], 'files and proposal as after the first decision');
    // what the extension's Undo reads: the two decisions are gone from it
    assert.deepEqual(
      (await stackOf(fx).entries()).map((e) => e.label),
      [`accepted rule ${first} of proposal run-1`],
    );

    const one = capture();
    assert.equal(await runCli(['undo', ...common], one), 0);
    assert.match(one.stdout.join('\n'), new RegExp(`^undid: accepted rule ${first} of proposal run-1; restored `));
    assert.deepEqual(await snapshot(), states[0], 'as before any decision');
    assert.ok(!existsSync(join(fx.workspace, '.cursor/rules/combee.mdc')), 'the file the accept created is gone');

    const none = capture();
    assert.equal(await runCli(['undo', ...common], none), 0);
    assert.deepEqual(none.stdout, ['nothing to undo']);
    assert.equal(await runCli(['undo', '--steps', '0', ...common], capture()), 2);
  });

  it('refuses, exit 1, when a file was edited since where the decision wrote it, and changes nothing', async () => {
    const { fx, common, read, snapshot } = await fixture();
    assert.equal(await runCli(['accept', fx.proposal.id, '--rule', second, ...common], capture()), 0);
    const edited = read('AGENTS.md')!.replace(/^(.*\[bui-00003\].*)$/m, '$1 (reworded by the team)');
    writeFileSync(join(fx.workspace, 'AGENTS.md'), edited);
    const before = await snapshot();
    const out = capture();
    assert.equal(await runCli(['undo', '--json', ...common], out), 1);
    assert.match(out.stderr.join('\n'), /AGENTS\.md was edited since the decision where the decision changed it/);
    assert.match(out.stderr.join('\n'), new RegExp(`did not undo accepted rule ${second} of proposal run-1`));
    assert.deepEqual(JSON.parse(out.stdout.join('\n')).refused.changedSince[0].path, 'AGENTS.md');
    assert.deepEqual(await snapshot(), before);
    assert.equal((await stackOf(fx).entries()).length, 1, 'still there to undo once the edit is sorted out');
  });
});

describe('combee accept and reject of what is decided already', () => {
  it('say "already accepted" / "already rejected", exit 0, and --json says so', async () => {
    const { fx, common } = await fixture();
    assert.equal(await runCli(['accept', fx.proposal.id, '--include-flagged', ...common], capture()), 0);
    const again = capture();
    assert.equal(await runCli(['accept', fx.proposal.id, ...common], again), 0);
    assert.deepEqual(again.stdout, [`proposal ${fx.proposal.id}: already accepted`]);
    const json = capture();
    assert.equal(await runCli(['accept', fx.proposal.id, '--json', ...common], json), 0);
    assert.equal(JSON.parse(json.stdout.join('\n')).already, true);
    const rule = capture();
    assert.equal(await runCli(['accept', fx.proposal.id, '--rule', first, ...common], rule), 0);
    assert.deepEqual(rule.stdout, [`${first} of proposal ${fx.proposal.id}: already accepted`]);
    // the other way round is a refusal, not a no-op
    assert.equal(await runCli(['reject', fx.proposal.id, ...common], capture()), 1);

    const other = await fixture();
    assert.equal(await runCli(['reject', other.fx.proposal.id, ...other.common], capture()), 0);
    const rejected = capture();
    assert.equal(await runCli(['reject', other.fx.proposal.id, '--json', ...other.common], rejected), 0);
    const parsed = JSON.parse(rejected.stdout.join('\n'));
    assert.equal(parsed.already, true);
    assert.equal(parsed.status, 'rejected');
    assert.match(rejected.stderr.join('\n'), /already rejected/);
    assert.equal((await stackOf(other.fx).entries()).length, 1, 'a no-op is no decision to undo');
  });
});
