import assert from 'node:assert/strict';
import type { RuleChange } from '../../../src/core/assets/proposal';
import { readEditedRules, withOtherEdits } from '../../../src/core/service/review/editedRules';

// Reading a proposal file as the user edited it: the words between a rule line's prefix and suffix are the rule's.

const rule = (id: string, content: string): RuleChange => ({ id, op: 'ADD', content, support: [], flags: [] });
const A = rule('bui-00002', 'Run `pnpm db:generate` before `pnpm test`.');
const B = rule('bui-00003', 'Use pnpm, never npm.');
const BEFORE = '# Shop\n\nOur notes.\n';
const PROPOSED = `${BEFORE}\n## Build\n- [${A.id}] ${A.content}\n- [${B.id}] ${B.content}\n`;

describe('a proposal file as edited', () => {
  it('takes the words between the prefix and suffix as the rule text; a rule taken out is dropped', () => {
    const edited = PROPOSED.replace(A.content!, 'Run `pnpm db:generate` first.').replace(
      `- [${B.id}] ${B.content}\n`,
      '',
    );
    const read = readEditedRules(BEFORE, PROPOSED, edited, [A, B]);
    assert.deepEqual(
      read.kept.map((r) => [r.id, r.content]),
      [[A.id, 'Run `pnpm db:generate` first.']],
    );
    assert.deepEqual(
      read.dropped.map((r) => r.id),
      [B.id],
    );
    assert.deepEqual(read.unreadable, []);
  });

  it('a line changed outside the rule text (its id cited another way) keeps the proposed text, named', () => {
    const edited = PROPOSED.replace(`- [${A.id}] ${A.content}`, `* [${A.id}] Something else.`);
    const read = readEditedRules(BEFORE, PROPOSED, edited, [A, B]);
    assert.deepEqual(read.unreadable, [A.id]);
    assert.equal(read.kept.find((r) => r.id === A.id)?.content, A.content);
  });

  it("lays the user's other edits onto the file rendered again; undefined when they no longer fit", () => {
    const edited = PROPOSED.replace('Our notes.', 'Our notes, kept.').replace(A.content!, 'Reworded.');
    const rendered = PROPOSED.replace(A.content!, 'Reworded.');
    assert.equal(
      withOtherEdits(PROPOSED, edited, rendered, { kept: [A.id, B.id], out: [] }),
      rendered.replace('Our notes.', 'Our notes, kept.'),
    );
    assert.equal(withOtherEdits(PROPOSED, edited, '# Other\n\nText.\n', { kept: [A.id, B.id], out: [] }), undefined);
  });
});
