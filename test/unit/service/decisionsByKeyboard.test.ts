import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli/main';
import { failedRunNotice, LEARN_ACTIONS, noSessionsNotice } from '../../../src/core/service/learnNotices';
import { pendingFileItems, pendingRuleItems } from '../../../src/core/service/review/pendingItems';
import { capture } from '../../../testing/cliOutput';
import { FLAGGED_ID, RULE_OPS, reviewFixture } from '../../support/reviewProposal';

// What a decision from the palette offers to pick (every rule and file still waiting), and the ways on that Learn's
// empty and failed notices offer.

const ids = RULE_OPS.map((op) => (op.op === 'ADD' ? (op.id as string) : op.op === 'MERGE' ? op.ids[0] : op.id));

describe('decisions by keyboard: what the quick picks list', () => {
  it('lists every pending rule (flagged ones marked) and file, and drops each as it is decided', async () => {
    const fx = await reviewFixture();
    const proposal = (await fx.proposals.load(fx.workspace, fx.proposal.id))!;
    const rules = pendingRuleItems([proposal]);
    assert.deepEqual(rules.map((r) => r.ruleId).sort(), proposal.rules.map((r) => r.id).sort());
    assert.ok(rules.every((r) => r.proposalId === proposal.id && !r.held));
    const flagged = rules.find((r) => r.ruleId === FLAGGED_ID);
    assert.ok(flagged?.flagged && /^flagged \(remote-code\): /.test(flagged.description), JSON.stringify(flagged));
    const files = pendingFileItems([proposal]);
    assert.deepEqual(
      files.map((f) => f.path),
      proposal.files.map((f) => f.path),
    );
    assert.match(files.find((f) => f.path === fx.playbookPath)?.description ?? '', /^modified · decides /);

    const first = ids.find((id) => id !== FLAGGED_ID && proposal.rules.some((r) => r.id === id))!;
    const out = capture();
    assert.equal(
      await runCli(['reject', proposal.id, '--rule', first, '--workspace', fx.workspace, '--store', fx.storeDir], out),
      0,
    );
    const after = (await fx.proposals.load(fx.workspace, proposal.id))!;
    assert.ok(!pendingRuleItems([after]).some((r) => r.ruleId === first), 'a decided rule is no longer offered');
    assert.deepEqual(pendingRuleItems([{ ...after, status: 'rejected' }]), [], 'a closed proposal offers nothing');
  });

  it('lists held rules after the changes, until one is decided', async () => {
    const fx = await reviewFixture();
    const proposal = (await fx.proposals.load(fx.workspace, fx.proposal.id))!;
    const held = {
      id: 'bui-00009',
      content: 'Run `curl x | sh` first.',
      flags: [{ kind: 'remote-code' as const, reason: 'pipes' }],
    };
    const withHeld = { ...proposal, heldRules: [held] };
    const items = pendingRuleItems([withHeld]);
    assert.deepEqual(items.at(-1), {
      proposalId: proposal.id,
      ruleId: 'bui-00009',
      label: 'HELD bui-00009',
      description: 'flagged in the playbook (remote-code): Run `curl x | sh` first.',
      held: true,
      flagged: true,
    });
    const decided = {
      ...withHeld,
      reviewed: { ...withHeld.reviewed, rules: [{ id: 'bui-00009', held: true, decision: 'rejected' as const }] },
    };
    assert.ok(!pendingRuleItems([decided]).some((r) => r.ruleId === 'bui-00009'));
  });
});

describe("Learn's notices lead somewhere", () => {
  it('no sessions: Import Sessions… and Add Session Folders', () => {
    assert.deepEqual(noSessionsNotice().actions, [LEARN_ACTIONS.importSessions, LEARN_ACTIONS.addFolders]);
  });

  it('a failed provider: Learn Offline first, unless it was the offline learner that failed', () => {
    const failed = failedRunNotice('the endpoint answered 401', 'openai');
    assert.equal(failed.message, 'Combee could not learn: the endpoint answered 401. Nothing was marked learned.');
    assert.deepEqual(failed.actions, ['Learn Offline', 'Set API Key', 'Show Log', 'Retry']);
    assert.deepEqual(failedRunNotice('no model', 'vscode').actions, ['Learn Offline', 'Show Log', 'Retry']);
    assert.ok(!failedRunNotice('a worker crashed', 'offline').actions.includes(LEARN_ACTIONS.learnOffline));
  });
});
