import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { idsInBlock } from '../../../src/core/assets/agentsMd';
import { parsePlaybook } from '../../../src/core/playbook/markdown';
import { bullets } from '../../../src/core/playbook/model';
import { pendingRuleItems } from '../../../src/core/service/review/pendingItems';
import { capture } from '../../../testing/cliOutput';
import { CLONED_PLAYBOOK, CLONED_POISONED } from '../../../testing/poisonRun';
import { clonedWithHeldRules } from '../../support/clonedHeldRules';

// A flagged rule in the repository's own playbook is kept out of AGENTS.md, but an agent sent to the playbook would
// still read it: the proposal offers to retire it, and the block points to the playbook only while it holds none.

const POINTER = /The full playbook, with every rule and how often it helped, is \[\.combee\/playbook\.md\]/;

async function cloned() {
  const { workspace, proposals, common } = await clonedWithHeldRules('combee-retire-held-');
  const out = capture();
  assert.equal(await runCli(['learn', ...common, '--provider', 'offline'], out), 0, out.stderr.join('\n'));
  const said = out.stdout.join('\n');
  assert.match(
    said,
    /offered for retirement \(accept to take out, reject --rule <id> to keep\): too-00002, too-00003, too-00004/,
  );
  const id = /Proposal (\S+) saved/.exec(said)?.[1] as string;
  assert.ok(id, said);
  const read = (rel: string) => readFileSync(join(workspace, rel), 'utf8');
  return { workspace, common, id, proposals, read };
}

/** Every rule the block cites is in the playbook, and none of the flagged ones is. */
function consistent(agents: string, playbook: string): void {
  const held = new Set(CLONED_POISONED);
  const inPlaybook = new Set(bullets(parsePlaybook(playbook)).map((b) => b.id));
  for (const id of idsInBlock(agents)) {
    assert.ok(inPlaybook.has(id), `AGENTS.md cites ${id}, which the playbook does not hold`);
    assert.ok(!held.has(id), `AGENTS.md carries the flagged rule ${id}`);
  }
}

describe("a flagged rule of the repository's playbook", () => {
  it('is offered for retirement in the proposal: accepted, it leaves the playbook and the block points to it again', async () => {
    const { workspace, common, id, proposals, read } = await cloned();
    const proposal = (await proposals.load(workspace, id))!;
    const offered = proposal.rules.filter((r) => r.op === 'REMOVE');
    assert.deepEqual(
      offered.map((r) => r.id),
      CLONED_POISONED,
    );
    for (const rule of offered) {
      assert.ok(rule.content && CLONED_PLAYBOOK.includes(rule.content), `${rule.id} shows the text it retires`);
      assert.match(rule.notes?.[0] ?? '', /^flagged in \.combee\/playbook\.md \(.+\): accept to take it out/);
      assert.deepEqual(rule.flags, [], 'accepted with the proposal, no name needed');
    }
    assert.deepEqual(
      proposal.heldRules.map((h) => h.id),
      CLONED_POISONED,
      'held until the retirement lands',
    );
    // one row each to decide on (the quick pick of what waits): the retirement
    assert.deepEqual(
      pendingRuleItems([proposal])
        .filter((i) => CLONED_POISONED.includes(i.ruleId))
        .map((i) => i.label),
      CLONED_POISONED.map((held) => `REMOVE ${held}`),
    );

    const accepted = capture();
    assert.equal(await runCli(['accept', id, ...common], accepted), 0, accepted.stderr.join('\n'));
    const playbook = read('.combee/playbook.md');
    for (const held of CLONED_POISONED) assert.doesNotMatch(playbook, new RegExp(`\\[${held}\\]`));
    assert.match(playbook, /\[too-00001\][\s\S]*\[too-00005\]/, 'the honest rules stay');
    const agents = read('AGENTS.md');
    assert.match(agents, POINTER, 'no flagged rule left: the block points to the playbook');
    consistent(agents, playbook);
    const after = (await proposals.load(workspace, id))!;
    assert.deepEqual(after.heldRules, []);
  });

  it('kept (its retirement rejected), it stays in the playbook and the block stops pointing agents there', async () => {
    const { workspace, common, id, proposals, read } = await cloned();
    const kept = capture();
    assert.equal(await runCli(['reject', id, '--rule', 'too-00004', ...common], kept), 0, kept.stderr.join('\n'));
    const rest = (await proposals.load(workspace, id))!;
    const pending = rest.files.find((f) => f.path === 'AGENTS.md');
    assert.ok(pending, JSON.stringify(rest.files.map((f) => f.path)));
    assert.doesNotMatch(pending.after, POINTER, 'the proposal as it now stands');
    assert.doesNotMatch(pending.after, /metrics\.acme-tools\.dev/);

    const accepted = capture();
    assert.equal(await runCli(['accept', id, ...common], accepted), 0, accepted.stderr.join('\n'));
    const playbook = read('.combee/playbook.md');
    assert.match(playbook, /\[too-00004\]/, 'kept, as decided');
    assert.doesNotMatch(playbook, /\[too-00002\]|\[too-00003\]/);
    const agents = read('AGENTS.md');
    assert.doesNotMatch(agents, POINTER);
    assert.match(agents, /Follow only the rules listed here/);
    consistent(agents, playbook);
  });
});
