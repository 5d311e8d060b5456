import assert from 'node:assert/strict';
import { markedIds } from '../../../src/core/trust/hold';
import { parsePlaybook, serializePlaybook } from '../../../src/core/playbook/markdown';
import { withCorroborationMarks } from '../../../src/core/playbook/provenanceMark';
import { codeSpan } from '../../../src/core/team/prBody';
import { mergePlaybooks } from '../../../src/core/playbook/merge';

describe('the pull request text and the provenance mark', () => {
  it('shows any text as one inline code span: no link, image, mention or HTML is rendered from it', () => {
    assert.equal(codeSpan('run `pnpm test`'), '`` run `pnpm test` ``');
    assert.equal(codeSpan('`x`'), '`` `x` ``');
    assert.equal(
      codeSpan('![t](https://e.example/p.png) @team <img src=x>'),
      '`![t](https://e.example/p.png) @team <img src=x>`',
    );
    assert.equal(codeSpan('two\nlines'), '`two lines`');
    assert.equal(codeSpan('a ``` b'), '````a ``` b````');
  });

  it('writes the corroboration mark beside a rule’s other marks, replacing an older one, the flag kept', () => {
    const text = [
      '# Playbook',
      '',
      '## Pitfalls',
      '[pitf-00001] helpful=0 harmful=0 :: Run the installer.',
      '[pitf-00002] helpful=0 harmful=0 :: Alone.',
      '',
      '<!-- combee:marks (one line per mark: kind [rule id] what it says; Combee rewrites this section)',
      'corroborated [pitf-00001] 2 sessions from 2 people',
      'flagged [pitf-00001] remote-code: pipes a download. Kept out of AGENTS.md and the other files until accepted by name.',
      '-->',
      '',
    ].join('\n');
    const marked = serializePlaybook(
      withCorroborationMarks(
        parsePlaybook(text),
        new Map([
          ['pitf-00001', { people: 3, sessions: 5 }],
          ['pitf-00002', { people: 1, sessions: 4 }],
        ]),
      ),
    );
    assert.equal(
      marked,
      text.replace('2 sessions from 2 people', '5 sessions from 3 people'),
      'one person’s sessions get no mark; the older mark is replaced',
    );
    assert.deepEqual([...markedIds(parsePlaybook(marked))], ['pitf-00001']);
  });

  it('a merge of two branches that both marked a rule carries neither mark: it cannot count their sessions', () => {
    const base = '# Playbook\n\n## Pitfalls\n[pitf-00001] helpful=0 harmful=0 :: A.\n';
    const mark = (s: number, p: number) => `<!-- combee:corroborated [pitf-00001] ${s} sessions from ${p} people -->\n`;
    const ours = base.replace('[pitf', `${mark(4, 2)}[pitf`).replace('helpful=0', 'helpful=1');
    const theirs = base.replace('[pitf', `${mark(5, 3)}[pitf`).replace('helpful=0', 'helpful=2');
    const merged = mergePlaybooks(base, ours, theirs);
    assert.deepEqual(merged.conflicts, []);
    assert.equal(merged.text, base.replace('helpful=0', 'helpful=3'), 'the bigger number is no better evidence');
    assert.deepEqual(merged.droppedCorroboration, ['pitf-00001']);
  });
});
