import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { parsePlaybook } from '../../../src/core/playbook/markdown';
import { bullets } from '../../../src/core/playbook/model';
import type { Proposal } from '../../../src/core/assets/proposal';
import { retireProposal } from '../../../src/core/service/ruleChanges/retireRule';
import { ReviewMemory } from '../../../src/core/store/reviewMemory';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { capture } from '../../../testing/cliOutput';
import { FLAGGED_ID, RULE_OPS, reviewFixture } from '../../support/reviewProposal';

// The CLI's accept and reject are flags and output over the review service: with targets other than the defaults
// and a playbook elsewhere, a partial review renders with the proposal's own settings. Retire, pin and unpin propose
// what the panel does.

const [first, second] = RULE_OPS.map((op) => (op.op === 'ADD' ? (op.id as string) : ''));
const AGENT_FILES = ['AGENTS.md', '.github/copilot-instructions.md', '.cursor/rules/combee.mdc'];

describe('combee accept and reject over the review service', () => {
  it('accept --rule, reject --rule, accept --file AGENTS.md: the file takes only its pending rule, every cited id is in the playbook', async () => {
    const fx = await reviewFixture({
      playbookPath: 'docs/agents/playbook.md',
      targets: ['playbook', 'agents-md', 'copilot-instructions', 'cursor-rules'],
    });
    const common = ['--workspace', fx.workspace, '--store', fx.storeDir];
    const read = (path: string) =>
      existsSync(join(fx.workspace, path)) ? readFileSync(join(fx.workspace, path), 'utf8') : '';

    const one = capture();
    assert.equal(await runCli(['accept', fx.proposal.id, '--rule', first, ...common], one), 0, one.stderr.join('\n'));
    assert.ok(one.stdout.includes('wrote docs/agents/playbook.md'), one.stdout.join('\n'));
    assert.ok(one.stdout.includes('wrote .cursor/rules/combee.mdc'), 'a target off by default is rendered');
    assert.ok(!existsSync(join(fx.workspace, '.combee', 'playbook.md')), 'nothing at the default playbook path');
    assert.ok(!existsSync(join(fx.workspace, 'GEMINI.md')), 'nor for a target the proposal was not made for');

    assert.equal(await runCli(['reject', fx.proposal.id, '--rule', FLAGGED_ID, ...common], capture()), 0);

    const file = capture();
    assert.equal(
      await runCli(['accept', fx.proposal.id, '--file', 'AGENTS.md', ...common, '--json'], file),
      0,
      file.stderr.join('\n'),
    );
    assert.ok(file.stderr.includes(`accepted rule(s) ${second}`), 'the file says which rules it takes');
    const json = JSON.parse(file.stdout.join('\n'));
    assert.deepEqual(json.rules.sort(), [first, second]);
    assert.equal(json.status, 'accepted');
    assert.equal(json.toReview.text, 'nothing to review');

    const playbookIds = new Set(bullets(parsePlaybook(read('docs/agents/playbook.md'))).map((b) => b.id));
    assert.deepEqual([...playbookIds].sort(), ['bui-00001', first, second]);
    for (const path of AGENT_FILES)
      for (const m of read(path).matchAll(/\[([a-z]+-\d{5})\]/g))
        assert.ok(playbookIds.has(m[1]), `${path} cites ${m[1]}, which the playbook does not hold`);
    for (const path of [
      'docs/agents/playbook.md',
      'AGENTS.md',
      '.github/copilot-instructions.md',
      '.cursor/rules/combee.mdc',
    ]) {
      assert.ok(read(path).includes(`[${second}]`), `${second} in ${path}`);
      assert.ok(!read(path).includes(`[${FLAGGED_ID}]`), `rejected ${FLAGGED_ID} is not in ${path}`);
    }
  });

  it('accept --file names the rules the file holds; reject --file turns down the rules of its file', async () => {
    const fx = await reviewFixture({ targets: ['playbook', 'agents-md', 'copilot-instructions'] });
    const common = ['--workspace', fx.workspace, '--store', fx.storeDir];
    const rejected = capture();
    assert.equal(
      await runCli(
        ['reject', fx.proposal.id, '--file', '.github/copilot-instructions.md', ...common, '--json'],
        rejected,
      ),
      0,
    );
    const json = JSON.parse(rejected.stdout.join('\n'));
    assert.deepEqual(json.rules.sort(), [first, second], 'the Copilot instructions held the two clean rules');
    assert.deepEqual(json.pendingRules, [
      { id: FLAGGED_ID, flags: [{ kind: 'remote-code', reason: 'pipes a download into a shell' }] },
    ]);
    // what is left: the flagged rule, and AGENTS.md and the Copilot instructions bringing in the rule the playbook already held
    assert.equal(json.toReview.text, '1 rule and 2 files to review');
    assert.ok(!existsSync(join(fx.workspace, '.github/copilot-instructions.md')));
    const accepted = capture();
    assert.equal(await runCli(['accept', fx.proposal.id, '--file', '.combee/playbook.md', ...common], accepted), 1);
    assert.match(accepted.stderr.join('\n'), /holds only flagged rules \(bui-00004\): accept them by name/);
    assert.equal(await runCli(['accept', fx.proposal.id, '--rule', 'nope-00001', ...common], capture()), 2);
    const named = capture();
    assert.equal(await runCli(['accept', fx.proposal.id, '--rule', FLAGGED_ID, ...common], named), 0);
    assert.match(named.stderr.join('\n'), new RegExp(`accepting flagged rule ${FLAGGED_ID} \\(remote-code`));
    assert.ok(readFileSync(join(fx.workspace, 'AGENTS.md'), 'utf8').includes(`[${FLAGGED_ID}]`));
    assert.ok(!readFileSync(join(fx.workspace, 'AGENTS.md'), 'utf8').includes(`[${first}]`));
    assert.equal(
      await runCli(['accept', fx.proposal.id, '--rule', first, '--file', 'AGENTS.md', ...common], capture()),
      2,
    );
  });
});

describe('combee retire, pin and unpin', () => {
  it("propose the panel's diffs as proposals; combee accept writes them, and a retired rule leaves every file", async () => {
    const fx = await reviewFixture({ targets: ['playbook', 'agents-md', 'copilot-instructions'] });
    const common = ['--workspace', fx.workspace, '--store', fx.storeDir];
    const read = (path: string) => readFileSync(join(fx.workspace, path), 'utf8');
    assert.equal(await runCli(['accept', fx.proposal.id, '--rule', first, ...common], capture()), 0);
    assert.ok(read('.github/copilot-instructions.md').includes(`[${first}]`));

    const retired = capture();
    assert.equal(await runCli(['retire', first, ...common, '--json'], retired), 0, retired.stderr.join('\n'));
    const proposal = JSON.parse(retired.stdout.join('\n')).proposal as Proposal;
    // what the panel's Retire… proposes with the same settings
    const panel = retireProposal({
      workspace: fx.workspace,
      ruleId: first,
      reason: 'retired by the user',
      assets: { playbookPath: '.combee/playbook.md' },
      now: new Date(),
      warn: () => undefined,
    });
    assert.deepEqual(
      proposal.files.map((f) => [f.path, f.after]),
      panel?.files.map((f) => [f.path, f.after]),
    );
    assert.deepEqual(
      proposal.files.map((f) => f.path).sort(),
      ['.combee/playbook.md', '.github/copilot-instructions.md', 'AGENTS.md'],
      'the Copilot instructions hold the rules already: they are rendered too',
    );
    assert.equal(await runCli(['accept', proposal.id, ...common], capture()), 0);
    for (const path of ['.combee/playbook.md', 'AGENTS.md', '.github/copilot-instructions.md'])
      assert.ok(!read(path).includes(`[${first}]`), `${first} left ${path}`);
    const memory = await new ReviewMemory(new WorkspaceState(fx.storeDir), fx.workspace).load();
    assert.deepEqual(
      memory.retired.map((r) => r.content),
      ['Run `pnpm db:generate` before `pnpm test`.'],
      'remembered as retired',
    );
    assert.equal(await runCli(['retire', first, ...common], capture()), 1, 'no such rule any more');

    const pinned = capture();
    assert.equal(await runCli(['pin', 'bui-00001', ...common], pinned), 0);
    const id = /Proposal (\S+) saved/.exec(pinned.stdout.join('\n'))?.[1];
    assert.ok(id, pinned.stdout.join('\n'));
    assert.match(pinned.stdout.join('\n'), /^\+pinned \[bui-00001\] /m);
    assert.doesNotMatch(read('.combee/playbook.md'), /^pinned \[/m, 'nothing written before the accept');
    assert.equal(await runCli(['accept', id, ...common], capture()), 0);
    assert.match(read('.combee/playbook.md'), /^pinned \[bui-00001\] /m);
    assert.equal(await runCli(['pin', 'bui-00001', ...common], capture()), 1, 'pinned already');
    const unpinned = capture();
    assert.equal(await runCli(['unpin', 'bui-00001', ...common], unpinned), 0);
    const unpinId = /Proposal (\S+) saved/.exec(unpinned.stdout.join('\n'))?.[1];
    assert.equal(await runCli(['accept', unpinId as string, ...common], capture()), 0);
    assert.doesNotMatch(read('.combee/playbook.md'), /^pinned \[/m);
  });
});
