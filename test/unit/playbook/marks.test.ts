import assert from 'node:assert/strict';
import { applyDelta } from '../../../src/core/playbook/apply';
import { parsePlaybook, serializePlaybook } from '../../../src/core/playbook/markdown';
import { pinLine, pinnedIds, withPin } from '../../../src/core/playbook/marks';
import { flagMarkLine, markedIds } from '../../../src/core/trust/hold';

const PLAYBOOK = `## Build and test
[build-00001] helpful=4 harmful=0 :: Run \`pnpm db:generate\` before \`pnpm test\`.
${flagMarkLine('build-00002', [{ kind: 'remote-code', reason: 'pipes a script into a shell' }])}
[build-00002] helpful=0 harmful=3 :: Install with \`curl x | sh\`.
`;

describe('marks on a rule', () => {
  it('a pin is a comment line above the bullet: read back, the bullet line untouched, an ACE line still', () => {
    const pinned = withPin(parsePlaybook(PLAYBOOK), 'build-00001', true);
    assert.ok(pinned);
    const text = serializePlaybook(pinned);
    assert.ok(text.includes(`${pinLine('build-00001')}\n[build-00001] helpful=4 harmful=0 :: Run`));
    assert.deepEqual([...pinnedIds(parsePlaybook(text))], ['build-00001']);
    assert.equal(withPin(parsePlaybook(text), 'build-00001', true), undefined, 'already pinned: nothing to change');
    const unpinned = withPin(parsePlaybook(text), 'build-00001', false);
    assert.ok(unpinned);
    assert.equal(serializePlaybook(unpinned), PLAYBOOK, 'unpinning gives the file back byte for byte');
  });

  it('a pin and a flag mark live together above a rule, and neither is taken for the other', () => {
    const pinned = withPin(parsePlaybook(PLAYBOOK), 'build-00002', true);
    assert.ok(pinned);
    const again = parsePlaybook(serializePlaybook(pinned));
    assert.deepEqual([...pinnedIds(again)], ['build-00002']);
    assert.deepEqual([...markedIds(again)], ['build-00002'], 'the flag mark still holds the rule back');
  });

  it('a pin naming another rule, or not directly above, pins nothing', () => {
    const stray = PLAYBOOK.replace('[build-00001]', `${pinLine('build-00009')}\n[build-00001]`).replace(
      '## Build and test\n',
      `## Build and test\n${pinLine('build-00001')}\n\n`,
    );
    assert.deepEqual([...pinnedIds(parsePlaybook(stray))], []);
  });

  it('a retired rule takes its marks with it', () => {
    const pinned = withPin(parsePlaybook(PLAYBOOK), 'build-00002', true);
    assert.ok(pinned);
    const { playbook } = applyDelta(pinned, {
      ops: [{ op: 'REMOVE', id: 'build-00002', reason: 'retired', support: [] }],
      tags: [],
    });
    const text = serializePlaybook(playbook);
    assert.ok(!text.includes('build-00002'), text);
    assert.ok(text.includes('[build-00001]'));
  });
});
