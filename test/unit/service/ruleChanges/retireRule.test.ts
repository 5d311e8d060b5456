import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Proposal } from '../../../../src/core/assets/proposal';
import { retireProposal } from '../../../../src/core/service/ruleChanges/retireRule';
import { tempDir } from '../../../../testing/tmp';

const PLAYBOOK = `# Playbook

## Build and test
[build-00001] helpful=4 harmful=0 :: Run \`pnpm db:generate\` before \`pnpm test\`.
[build-00002] helpful=0 harmful=3 :: Use npm for installs.
`;

function workspace(): string {
  const ws = tempDir('combee-retire-');
  mkdirSync(join(ws, '.combee'));
  writeFileSync(join(ws, '.combee', 'playbook.md'), PLAYBOOK);
  writeFileSync(join(ws, 'AGENTS.md'), '# Agents\n\nHand-written notes.\n');
  return ws;
}

describe('retiring a rule', () => {
  it('is a proposal removing it from the playbook and the assets made from it; nothing is written', () => {
    const ws = workspace();
    const now = new Date('2026-12-01T10:00:00Z');
    const proposal = retireProposal({
      workspace: ws,
      ruleId: 'build-00002',
      reason: 'retired by the user',
      assets: { playbookPath: '.combee/playbook.md', targets: ['agents-md'] },
      now,
      warn: () => {},
    });
    assert.ok(proposal);
    assert.ok(Proposal.safeParse(proposal).success, 'a valid stored proposal');
    const playbook = proposal.files.find((f) => f.path === '.combee/playbook.md');
    assert.ok(playbook && !playbook.after.includes('build-00002') && playbook.after.includes('build-00001'));
    assert.equal(playbook.before, PLAYBOOK);
    const agents = proposal.files.find((f) => f.path === 'AGENTS.md');
    assert.ok(agents?.after.includes('pnpm db:generate') && !agents.after.includes('Use npm for installs'));
    assert.deepEqual(
      proposal.rules.map((r) => [r.id, r.op, r.content]),
      [['build-00002', 'REMOVE', 'Use npm for installs.']],
    );
    assert.equal(readFileSync(join(ws, '.combee', 'playbook.md'), 'utf8'), PLAYBOOK, 'the playbook is untouched');
    // the same rule retired from the same playbook is the same proposal
    assert.equal(
      retireProposal({
        workspace: ws,
        ruleId: 'build-00002',
        reason: 'again',
        assets: { playbookPath: '.combee/playbook.md' },
        now: new Date('2026-12-02T00:00:00Z'),
        warn: () => {},
      })?.id,
      proposal.id,
    );
  });

  it('proposes nothing for a rule the playbook does not hold', () => {
    const ws = workspace();
    const input = {
      workspace: ws,
      reason: 'x',
      assets: { playbookPath: '.combee/playbook.md' },
      now: new Date(0),
      warn: () => {},
    };
    assert.equal(retireProposal({ ...input, ruleId: 'build-99999' }), undefined);
    assert.equal(
      retireProposal({ ...input, ruleId: 'build-00001', assets: { playbookPath: 'missing.md' } }),
      undefined,
    );
  });
});
