import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Proposal } from '../../../../src/core/assets/proposal';
import { parsePlaybook } from '../../../../src/core/playbook/markdown';
import { pinnedIds } from '../../../../src/core/playbook/marks';
import { pinProposal } from '../../../../src/core/service/ruleChanges/pinRule';
import { tempDir } from '../../../../testing/tmp';

const PLAYBOOK = `# Playbook

## Build and test
[build-00001] helpful=4 harmful=0 :: Run \`pnpm db:generate\` before \`pnpm test\`.
[build-00002] helpful=0 harmful=3 :: Use npm for installs.
`;

function workspace(): string {
  const ws = tempDir('combee-pin-');
  mkdirSync(join(ws, '.combee'));
  writeFileSync(join(ws, '.combee', 'playbook.md'), PLAYBOOK);
  return ws;
}

describe('pinning a rule', () => {
  const now = new Date('2026-12-01T10:00:00Z');
  const input = (ws: string, ruleId: string, pinned: boolean) => ({
    workspace: ws,
    ruleId,
    pinned,
    playbookPath: '.combee/playbook.md',
    now,
  });

  it('is a proposal of one mark line in the playbook’s marks section; nothing is written, no other file changes', () => {
    const ws = workspace();
    const proposal = pinProposal(input(ws, 'build-00001', true));
    assert.ok(proposal);
    assert.ok(Proposal.safeParse(proposal).success, 'a valid stored proposal');
    assert.deepEqual(
      proposal.files.map((f) => f.path),
      ['.combee/playbook.md'],
    );
    const [file] = proposal.files;
    assert.deepEqual([...pinnedIds(parsePlaybook(file.after))], ['build-00001']);
    // the first mark brings the section: a blank line, its opening, the mark, its closing
    assert.equal(file.after.split('\n').length, PLAYBOOK.split('\n').length + 4, 'one mark and its section added');
    assert.ok(file.after.startsWith(PLAYBOOK), 'the rules are as they were');
    assert.match(file.diff, /^\+pinned \[build-00001\] /m);
    assert.equal(readFileSync(join(ws, '.combee', 'playbook.md'), 'utf8'), PLAYBOOK, 'nothing written');
    assert.equal(proposal.id, pinProposal(input(ws, 'build-00001', true))?.id, 'asked twice, the same proposal');
  });

  it('unpins a pinned rule; asks nothing of a rule already as asked or not in the playbook', () => {
    const ws = workspace();
    const pinned = pinProposal(input(ws, 'build-00002', true));
    assert.ok(pinned);
    writeFileSync(join(ws, '.combee', 'playbook.md'), pinned.files[0].after);
    assert.equal(pinProposal(input(ws, 'build-00002', true)), undefined);
    const unpin = pinProposal(input(ws, 'build-00002', false));
    assert.ok(unpin && unpin.id.startsWith('unpin-'));
    assert.equal(unpin.files[0].after, PLAYBOOK);
    assert.equal(pinProposal(input(ws, 'build-00001', false)), undefined, 'not pinned');
    assert.equal(pinProposal(input(ws, 'build-99999', true)), undefined, 'no such rule');
  });
});
