import assert from 'node:assert/strict';
import { applyDelta } from '../../../src/core/playbook/apply';
import {
  authorText,
  cleanName,
  MAX_NAME,
  ruleAuthorships,
  withAuthorMarks,
  type RuleAuthor,
} from '../../../src/core/playbook/authorMark';
import { parsePlaybook, serializePlaybook } from '../../../src/core/playbook/markdown';
import { mergePlaybooks } from '../../../src/core/playbook/merge';
import { flagMarkText } from '../../../src/core/trust/hold';
import { stagesByModel } from '../../../src/shared/stagesByModel';

const A: RuleAuthor = { provider: 'openai', model: 'gpt-4o-mini', promptVersion: '1' };
const B: RuleAuthor = { provider: 'openai', model: 'meta-llama/llama-3.1-70b', promptVersion: '2' };

const MARKS = '<!-- combee:marks (one line per mark: kind [rule id] what it says; Combee rewrites this section)';

const BASE = `# Playbook

## Build
[buil-00001] helpful=2 harmful=0 :: Run \`pnpm db:generate\` before \`pnpm test\`.
[buil-00002] helpful=0 harmful=0 :: Build with \`pnpm build\`.

${MARKS}
model [buil-00001] ${authorText({ written: A })}
-->
`;

/** A playbook of one rule with the given lines in its machine section. */
const withMarkLines = (...lines: string[]) =>
  `## B\n[buil-00001] helpful=0 harmful=0 :: x.\n[buil-00002] helpful=0 harmful=0 :: y.\n\n${MARKS}\n${lines.join('\n')}\n-->\n`;

describe('the model mark of a rule', () => {
  it('reads back from the playbook as written, and the file round-trips byte for byte', () => {
    const playbook = parsePlaybook(BASE);
    assert.equal(serializePlaybook(playbook), BASE);
    assert.deepEqual([...ruleAuthorships(playbook)], [['buil-00001', { written: A }]]);
  });

  it('an UPDATE by a later model keeps who first wrote the rule and says who last changed it', () => {
    const updated = applyDelta(parsePlaybook(BASE), {
      tags: [],
      ops: [
        { op: 'UPDATE', id: 'buil-00001', content: 'Run `pnpm db:generate` first.', support: [] },
        { op: 'UPDATE', id: 'buil-00002', content: 'Build with `pnpm build --filter web`.', support: [] },
      ],
    }).playbook;
    const changes = new Map([
      ['buil-00001', { op: 'UPDATE' as const, author: B }],
      ['buil-00002', { op: 'UPDATE' as const, author: B }],
    ]);
    const marked = withAuthorMarks(updated, changes);
    const text = serializePlaybook(marked);
    assert.ok(
      text.includes(
        '\nmodel [buil-00001] written by openai gpt-4o-mini (prompt 1), last changed by openai meta-llama/llama-3.1-70b (prompt 2)\n',
      ),
      text,
    );
    const read = ruleAuthorships(parsePlaybook(text));
    assert.deepEqual(read.get('buil-00001'), { written: A, changed: B });
    // a rule from before marks: who wrote it is unknown, who changed it is not
    assert.deepEqual(read.get('buil-00002'), {
      written: { provider: 'unknown', model: 'unknown', promptVersion: 'unknown' },
      changed: B,
    });
    assert.equal(
      serializePlaybook(withAuthorMarks(marked, changes)),
      text,
      'writing the same change again changes nothing',
    );
  });

  it('sits beside the rule’s other marks in the section: the flag mark is kept as it was', () => {
    const flag = flagMarkText([{ kind: 'remote-code', reason: 'x' }]);
    const flagged = BASE.replace('-->\n', `flagged [buil-00002] ${flag}\n-->\n`);
    const text = serializePlaybook(
      withAuthorMarks(parsePlaybook(flagged), new Map([['buil-00002', { op: 'ADD' as const, author: A }]])),
    );
    assert.ok(
      text.includes(`\nmodel [buil-00002] ${authorText({ written: A })}\nflagged [buil-00002] ${flag}\n-->`),
      text,
    );
  });

  it('cleans a hostile name: no comment terminator, markup, spaces or control characters, and a cap on length', () => {
    const hostile = `gpt --> <img src=x onerror=alert(1)>\n\u0000${'x'.repeat(500)}`;
    const name = cleanName(hostile);
    assert.ok(/^[A-Za-z0-9._:/@+-]+$/.test(name), name);
    assert.ok(name.length <= MAX_NAME);
    assert.equal(cleanName(''), 'unknown');
    assert.equal(cleanName(42), 'unknown');
    assert.equal(cleanName('anthropic/claude-3.5@2024-06'), 'anthropic/claude-3.5@2024-06', 'real names unchanged');
    const text = authorText({ written: { provider: 'openai', model: hostile, promptVersion: '1' } });
    assert.ok(!text.includes('-->'));
    assert.deepEqual(ruleAuthorships(parsePlaybook(withMarkLines(`model [buil-00001] ${text}`))).get('buil-00001'), {
      written: { provider: 'openai', model: name, promptVersion: '1' },
    });
  });

  it('a mark a repository wrote by hand is read cleaned, and one that does not read is unknown', () => {
    const text = withMarkLines(
      'model [buil-00001] written by evil<b> x"onclick (prompt 9)',
      'model [buil-00002] by whoever',
    );
    const read = ruleAuthorships(parsePlaybook(text));
    assert.deepEqual(read.get('buil-00001'), {
      written: { provider: 'evil_b', model: 'x_onclick', promptVersion: '9' },
    });
    assert.equal(read.has('buil-00002'), false);
  });

  it('a git merge keeps both sides’ marks, and one mark per rule when both sides marked it', () => {
    const ours = serializePlaybook(
      withAuthorMarks(
        applyDelta(parsePlaybook(BASE), {
          tags: [],
          ops: [{ op: 'UPDATE', id: 'buil-00001', content: 'Run `pnpm db:generate` first.', support: [] }],
        }).playbook,
        new Map([['buil-00001', { op: 'UPDATE' as const, author: B }]]),
      ),
    );
    const added = applyDelta(parsePlaybook(BASE), {
      tags: [],
      ops: [{ op: 'ADD', section: 'Build', content: 'Lint with `pnpm lint:src`.', support: [] }],
    });
    const newId = added.applied[0].id as string;
    const theirs = serializePlaybook(
      withAuthorMarks(added.playbook, new Map([[newId, { op: 'ADD' as const, author: A }]])),
    );
    const merged = mergePlaybooks(BASE, ours, theirs);
    assert.deepEqual(merged.conflicts, []);
    const read = ruleAuthorships(parsePlaybook(merged.text));
    assert.deepEqual(read.get('buil-00001'), { written: A, changed: B });
    assert.deepEqual(read.get(newId), { written: A });

    // both sides add the same rule (the same mark) under different ids: one rule, one mark
    const both = (model: string) =>
      serializePlaybook(
        withAuthorMarks(added.playbook, new Map([[newId, { op: 'ADD' as const, author: { ...A, model } }]])),
      );
    const twice = mergePlaybooks(BASE, both('gpt-4o-mini'), both('other-model'));
    const marks = twice.text.split('\n').filter((l) => l.startsWith(`model [${newId}]`));
    assert.equal(marks.length, 1, twice.text);
    assert.deepEqual(twice.droppedModelMarks, [newId]);
    assert.deepEqual(ruleAuthorships(parsePlaybook(twice.text)).get(newId), { written: A });
  });
});

describe('rules per model and stage', () => {
  it('one row per model, most rules first, unknown last', () => {
    const rows = stagesByModel([
      { model: 'unknown', stage: 'new' },
      { model: 'unknown', stage: 'new' },
      { model: 'unknown', stage: 'proven' },
      { model: 'openai/b', stage: 'proven' },
      { model: 'openai/a', stage: 'harmful' },
      { model: 'openai/b', stage: 'contested' },
    ]);
    assert.deepEqual(
      rows.map((r) => [r.model, r.counts.new, r.counts.proven, r.counts.contested, r.counts.harmful, r.total]),
      [
        ['openai/b', 0, 1, 1, 0, 2],
        ['openai/a', 0, 0, 0, 1, 1],
        ['unknown', 2, 1, 0, 0, 3],
      ],
    );
  });
});
