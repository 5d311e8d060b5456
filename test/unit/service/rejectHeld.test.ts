import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { planReview } from '../../../src/core/service/review/decide';
import { fileWriter } from '../../../src/core/service/review/fileWriter';
import { ReviewMemory } from '../../../src/core/store/reviewMemory';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { capture } from '../../../testing/cliOutput';
import { clonedWithHeldRules } from '../../support/clonedHeldRules';
import { makeTrace, shell, user } from '../../../testing/traces';

// Reject Rule on a held rule (in the playbook already, flagged, kept out of the other files) is a decision like any
// other: recorded, said, undoable, and the held row is no longer waiting. It used to be refused without a word.

async function learnedWithHeldRules() {
  const { workspace, store, proposals, common } = await clonedWithHeldRules('combee-reject-held-');
  const out = capture();
  assert.equal(await runCli(['learn', ...common, '--provider', 'offline', '--json'], out), 0, out.stderr.join('\n'));
  const id: string = JSON.parse(out.stdout.join('\n')).proposal.id;
  return { workspace, store, proposals, common, id };
}

describe('Reject Rule on a held rule', () => {
  it('is planned as a decision, not refused', async () => {
    const { workspace, store, proposals, id } = await learnedWithHeldRules();
    const proposal = (await proposals.load(workspace, id))!;
    assert.ok(
      proposal.heldRules.some((h) => h.id === 'too-00002'),
      JSON.stringify(proposal.heldRules),
    );
    const plan = await planReview({ store, proposals, writer: fileWriter(workspace), warn: () => {} }, proposal, {
      kind: 'reject-rules',
      ids: ['too-00002'],
    });
    assert.equal(plan.refused, undefined);
    assert.deepEqual(
      plan.rejectingHeld.map((h) => h.id),
      ['too-00002'],
    );
    assert.deepEqual(plan.files, [], 'nothing to write: it is out of the other files already');
  });

  it('records it rejected, drops it from what waits, keeps it decided through a later accept, and undo puts it back', async () => {
    const { workspace, store, proposals, common, id } = await learnedWithHeldRules();
    const rejected = capture();
    assert.equal(
      await runCli(['reject', id, '--rule', 'too-00002', ...common], rejected),
      0,
      rejected.stderr.join('\n'),
    );
    assert.match(rejected.stdout.join('\n'), /rejected rule too-00002 already in the playbook/);
    const after = (await proposals.load(workspace, id))!;
    assert.deepEqual(
      after.reviewed.rules.filter((r) => r.id === 'too-00002').map((r) => [r.decision, r.held]),
      [['rejected', true]],
      'its retirement turned down with it, recorded once',
    );
    assert.ok(
      !after.rules.some((r) => r.id === 'too-00002' && !after.reviewed.rules.some((d) => d.id === r.id)),
      'its retirement no longer waits',
    );
    assert.ok(!after.heldRules.some((h) => h.id === 'too-00002'), 'no longer waiting');
    assert.ok(
      after.heldRules.some((h) => h.id === 'too-00003'),
      'the other held rules still wait',
    );
    const memory = await new ReviewMemory(new WorkspaceState(store.dir), workspace).load();
    assert.ok(
      memory.rejected.some((r) => /acme-tools/.test(r.content)),
      'its text is remembered as turned down',
    );

    // accepting the rest re-renders the proposal: the decided held rule does not come back as waiting
    const accepted = capture();
    assert.equal(await runCli(['accept', id, ...common], accepted), 0, accepted.stderr.join('\n'));
    const rest = (await proposals.load(workspace, id))!;
    assert.ok(!rest.heldRules.some((h) => h.id === 'too-00002'));
    assert.doesNotMatch(readFileSync(join(workspace, 'AGENTS.md'), 'utf8'), /acme-tools/);

    const undo = capture();
    assert.equal(await runCli(['undo', '--steps', '2', ...common], undo), 0, undo.stderr.join('\n'));
    const back = (await proposals.load(workspace, id))!;
    assert.ok(
      back.heldRules.some((h) => h.id === 'too-00002'),
      'undone: it waits again',
    );
    assert.ok(!back.reviewed.rules.some((r) => r.id === 'too-00002'));
  });

  it('stays decided in the next run: kept out of the other files, neither held nor offered for retirement again', async () => {
    const { workspace, store, proposals, common, id } = await learnedWithHeldRules();
    const rejected = capture();
    assert.equal(await runCli(['reject', id, '--rule', 'too-00002', ...common], rejected), 0);
    const accepted = capture();
    assert.equal(await runCli(['accept', id, ...common], accepted), 0, accepted.stderr.join('\n'));
    // a session with a lesson: the next run proposes, its playbook's rules screened again
    await store.saveTrace(
      makeTrace(
        'claude:pnpm',
        [
          user('add zod to the api package'),
          ...shell('npm install zod', 'added 1 package'),
          user('No, we use pnpm here, not npm. Run pnpm add zod instead.'),
          ...shell('pnpm add zod', 'Done in 1.2s'),
        ],
        { cwd: workspace, startedAt: '2026-11-20T10:00:00.000Z' },
      ),
    );
    const again = capture();
    assert.equal(
      await runCli(['learn', ...common, '--provider', 'offline', '--json'], again),
      0,
      again.stderr.join('\n'),
    );
    const json = JSON.parse(again.stdout.join('\n'));
    assert.ok(json.proposal && json.proposal.id !== id, JSON.stringify(Object.keys(json)));
    const rebuilt = (await proposals.load(workspace, json.proposal.id))!;
    // the others were retired by the accept; the rejected one is neither held nor offered for retirement again
    assert.deepEqual(rebuilt.heldRules, [], 'the rejected one is not asked about again');
    assert.ok(!rebuilt.rules.some((r) => r.id === 'too-00002'), JSON.stringify(rebuilt.rules.map((r) => r.id)));
    assert.match(readFileSync(join(workspace, '.combee', 'playbook.md'), 'utf8'), /\[too-00002\]/, 'kept, as decided');
    for (const file of rebuilt.files.filter((f) => !f.path.endsWith('playbook.md')))
      assert.doesNotMatch(file.after ?? '', /acme-tools/, `${file.path} keeps the rejected held rule out`);
  });
});
