import assert from 'node:assert/strict';
import { lintRules } from '../../../../src/core/learn/rules/ruleLint';
import { parsePlaybook } from '../../../../src/core/playbook/markdown';

const PLAYBOOK = parsePlaybook(`## Build and test
[bat-00001] helpful=3 harmful=0 :: Run \`pnpm db:generate\` before \`pnpm test\` in the cart module.
[conv-00002] helpful=1 harmful=0 :: Never run \`npm install\`: this repo uses pnpm.
[bat-00003] helpful=0 harmful=0 :: Run \`npm install\` after pulling.
[conv-00004] helpful=0 harmful=0 :: Never edit generated files.
[bat-00005] helpful=0 harmful=0 :: Run \`pnpm db:generate\` before \`pnpm test\` in the cart and checkout modules.
`);

describe('the lint of proposed rules', () => {
  const notes = lintRules(
    [
      { id: 'bat-00003', op: 'ADD', content: 'Run `npm install` after pulling.' },
      { id: 'conv-00004', op: 'ADD', content: 'Never edit generated files.' },
      {
        id: 'bat-00005',
        op: 'ADD',
        content: 'Run `pnpm db:generate` before `pnpm test` in the cart and checkout modules.',
      },
      { id: 'conv-00002', op: 'REMOVE' },
    ],
    PLAYBOOK,
    8000,
  );

  it('says a rule contradicts one that rules its command out', () => {
    assert.ok(
      notes
        .get('bat-00003')
        ?.some((n) => n.startsWith('contradicts [conv-00002]: one says to run `npm install`, the other rules it out')),
      JSON.stringify(notes.get('bat-00003')),
    );
  });

  it('says a rule that only forbids should say what to do, and a close one should perhaps be merged', () => {
    assert.ok(notes.get('conv-00004')?.some((n) => n.startsWith('says only what not to do')));
    assert.ok(notes.get('bat-00005')?.some((n) => /^close to \[bat-00001\] \(\d+ % of its words\)/.test(n)));
    assert.ok(!notes.get('bat-00005')?.some((n) => n.startsWith('says only')), 'it says what to do');
  });

  it('gives every added rule its cost in the budget, and nothing to a removal', () => {
    for (const id of ['bat-00003', 'conv-00004', 'bat-00005'])
      assert.match(notes.get(id)?.at(-1) ?? '', /^\d+ token\(s\); the playbook is \d+ of its 8000-token budget$/);
    assert.equal(notes.has('conv-00002'), false);
  });

  it("says a rule contradicts the team's own text in AGENTS.md", () => {
    const team = [{ path: 'AGENTS.md', text: '# Agents\n\nWe use yarn here. Never run `npm install`.\n' }];
    const said = lintRules(
      [{ id: 'bat-00003', op: 'ADD', content: 'Run `npm install` after pulling.' }],
      PLAYBOOK,
      8000,
      team,
    );
    assert.ok(
      said
        .get('bat-00003')
        ?.includes(
          'contradicts the team\'s own text in AGENTS.md ("We use yarn here. Never run `npm install`."): one says to run `npm install`, the other rules it out; edit that line by hand',
        ),
      JSON.stringify(said.get('bat-00003')),
    );
  });

  it('gives a prohibition its positive form from what the playbook prescribes instead', () => {
    const book = parsePlaybook(`## Build and test
[bat-00001] helpful=3 harmful=0 :: Install dependencies with \`pnpm install\`.
[conv-00002] helpful=0 harmful=0 :: Never run \`npm install\`.
`);
    const said = lintRules([{ id: 'conv-00002', op: 'ADD', content: 'Never run `npm install`.' }], book, 8000);
    assert.ok(
      said
        .get('conv-00002')
        ?.includes('says only what not to do; as an instruction: "Run `pnpm install`, not `npm install`"'),
      JSON.stringify(said.get('conv-00002')),
    );
  });
});
