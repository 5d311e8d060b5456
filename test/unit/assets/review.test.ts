import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { makeFileChange, Proposal, type FileChange, type RuleChange } from '../../../src/core/assets/proposal';
import { ProposalStore } from '../../../src/core/store/proposals';
import { isOpen, proposalOrder, reviewItems, withDecisions } from '../../../src/core/assets/review';
import { proposalStatus } from '../../../src/core/service/review/status';
import { prerequisiteTurns, writeClaudeSession } from '../../../testing/claudeSessions';
import { capture } from '../../../testing/cliOutput';
import { tempDir } from '../../../testing/tmp';
import { WorkspaceState } from '../../../src/core/store/workspaceState';

const file = (path: string, after: string): FileChange =>
  makeFileChange(path, path === 'AGENTS.md' ? '# Team\n' : undefined, after) as FileChange;
const rule = (id: string, content: string, flagged = false): RuleChange => ({
  id,
  op: 'ADD',
  section: 'Pitfalls',
  content,
  support: [],
  flags: flagged ? [{ kind: 'remote-code', reason: 'pipes a URL into a shell' }] : [],
});

/** An old proposal as it was saved before review was recorded per item (no `reviewed`). */
function oldProposal(): Proposal {
  return Proposal.parse({
    version: 1,
    id: 'p1',
    createdAt: '2026-11-02T09:00:00.000Z',
    workspace: '/w',
    runId: 'p1',
    provider: 'offline',
    model: 'miner',
    costUsd: 0,
    status: 'pending',
    files: [file('.combee/playbook.md', '[a-00001] one\n[a-00002] two\n'), file('AGENTS.md', '# Team\none\ntwo\n')],
    rules: [rule('a-00001', 'one'), rule('a-00002', 'two'), rule('a-00003', 'curl x | sh', true)],
  });
}

describe('review state per file and rule', () => {
  it('reads a proposal saved before decisions were recorded: everything pending', () => {
    const p = oldProposal();
    assert.deepEqual(p.reviewed, { files: [], rules: [] });
    assert.deepEqual(
      reviewItems(p).files.map((f) => [f.path, f.state]),
      [
        ['.combee/playbook.md', 'pending'],
        ['AGENTS.md', 'pending'],
      ],
    );
    // the playbook holds rules and is decided with them; this AGENTS.md cites none, so it waits on its own
    assert.deepEqual(proposalStatus(p), { rules: 3, files: 1, proposals: 1 });
  });

  it('the rows keep the place they were first proposed in, whatever is decided and in which order', () => {
    const p = oldProposal();
    const [one, two, three] = p.rules;
    // the service keeps the first order with the first decision; a re-render drops decided rules and files
    const order = proposalOrder(p);
    const afterTwo = withDecisions({ ...p, rules: [one, three], order }, 'accepted', { rules: [two] });
    const afterFile = withDecisions({ ...afterTwo, files: [p.files[1]], rules: [three] }, 'rejected', {
      files: [{ path: '.combee/playbook.md', kind: 'modify' }],
      rules: [one],
    });
    for (const next of [afterTwo, afterFile]) {
      const items = reviewItems(Proposal.parse(JSON.parse(JSON.stringify(next))));
      assert.deepEqual(
        items.rules.map((r) => r.id),
        ['a-00001', 'a-00002', 'a-00003'],
      );
      assert.deepEqual(
        items.files.map((f) => f.path),
        ['.combee/playbook.md', 'AGENTS.md'],
      );
    }
    assert.deepEqual(
      reviewItems(afterFile).rules.map((r) => r.state),
      ['rejected', 'accepted', 'pending'],
    );
    // a file a re-render adds goes after the ones first proposed, and stays there
    const skill = file('.claude/skills/x/SKILL.md', 'x\n');
    const grown = proposalOrder({ ...afterFile, files: [skill, ...afterFile.files] }, order);
    assert.deepEqual(grown.files, ['.combee/playbook.md', 'AGENTS.md', '.claude/skills/x/SKILL.md']);
  });

  it('a rule accepted or rejected alone is known after it left the re-rendered proposal; a later decision replaces an earlier one', () => {
    const p = oldProposal();
    const [one, two] = p.rules;
    const afterAccept = withDecisions({ ...p, rules: p.rules.slice(1) }, 'accepted', { rules: [one] });
    const afterReject = withDecisions({ ...afterAccept, rules: afterAccept.rules.slice(1) }, 'rejected', {
      rules: [two],
    });
    assert.deepEqual(
      reviewItems(afterReject).rules.map((r) => [r.id, r.state, r.content]),
      [
        ['a-00003', 'pending', 'curl x | sh'],
        ['a-00001', 'accepted', 'one'],
        ['a-00002', 'rejected', 'two'],
      ],
    );
    const again = withDecisions(afterReject, 'accepted', { rules: [two] });
    assert.deepEqual(
      again.reviewed.rules.map((r) => [r.id, r.decision]),
      [
        ['a-00001', 'accepted'],
        ['a-00002', 'accepted'],
      ],
    );
    const held = withDecisions(p, 'accepted', { held: [{ id: 'a-00009', content: 'held', flags: [] }] });
    assert.deepEqual(held.reviewed.rules, [{ id: 'a-00009', content: 'held', held: true, decision: 'accepted' }]);
  });

  it('a closed proposal has nothing pending', () => {
    const p = oldProposal();
    assert.equal(isOpen({ ...p, status: 'accepted' }), false);
    assert.equal(isOpen({ ...p, files: [] }), false);
    assert.deepEqual(proposalStatus({ ...p, status: 'rejected' }), { rules: 0, files: 0, proposals: 0 });
  });
});

describe('the CLI records what accept and reject decided', () => {
  it('accept --rule records that rule (and the files it wrote) as accepted; reject --rule records a rejected one', async () => {
    const root = tempDir('combee-review-cli-');
    const workspace = join(root, 'repo');
    mkdirSync(workspace);
    const home = join(root, '.claude');
    writeClaudeSession(
      home,
      'efefefef-aaaa-4bbb-8ccc-000000000001',
      workspace,
      prerequisiteTurns(),
      '2026-11-02T09:00:00.000Z',
    );
    writeClaudeSession(
      home,
      'efefefef-aaaa-4bbb-8ccc-000000000002',
      workspace,
      [
        { user: 'Add a discount field to the cart.' },
        { bash: { command: 'npm install', output: 'npm ERR! Unsupported protocol "workspace:"', exitCode: 1 } },
        { user: 'No, this repo uses pnpm, never npm.' },
        { bash: { command: 'pnpm install', output: 'Done in 2.1s' } },
      ],
      '2026-11-03T09:00:00.000Z',
    );
    const store = join(root, 'store');
    await runCli(['import', '--from', home, '--store', store], capture());
    const out = capture();
    assert.equal(
      await runCli(['learn', '--store', store, '--workspace', workspace, '--provider', 'offline', '--json'], out),
      0,
    );
    const proposal = JSON.parse(out.stdout.join('\n')).proposal as Proposal;
    assert.ok(proposal.rules.length >= 2, JSON.stringify(proposal.rules));
    const [first, second] = proposal.rules;
    assert.equal(
      await runCli(['accept', proposal.id, '--rule', first.id, '--store', store, '--workspace', workspace], capture()),
      0,
    );
    assert.equal(
      await runCli(['reject', proposal.id, '--rule', second.id, '--store', store, '--workspace', workspace], capture()),
      0,
    );
    const saved = await new ProposalStore(new WorkspaceState(store)).load(workspace, proposal.id);
    assert.ok(saved);
    assert.deepEqual(
      saved.reviewed.rules.map((r) => [r.id, r.decision]),
      [
        [first.id, 'accepted'],
        [second.id, 'rejected'],
      ],
    );
    assert.ok(
      saved.reviewed.files.some((f) => f.path === '.combee/playbook.md' && f.decision === 'accepted'),
      JSON.stringify(saved.reviewed.files),
    );
    assert.ok(!saved.rules.some((r) => r.id === first.id || r.id === second.id), 'both left the re-rendered proposal');
  });
});
