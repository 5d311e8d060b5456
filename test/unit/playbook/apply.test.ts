import assert from 'node:assert/strict';
import { applyDelta } from '../../../src/core/playbook/apply';
import { parsePlaybook, serializePlaybook } from '../../../src/core/playbook/markdown';
import { bullets } from '../../../src/core/playbook/model';

const BASE =
  '# Playbook\n\n## Build and test\n[bat-00001] helpful=2 harmful=0 :: Run `pnpm test` for the unit tests.\n\n## Pitfalls\n[pit-00002] helpful=0 harmful=1 :: Avoid npm.\n[pit-00003] helpful=1 harmful=0 :: Never use npm here.\n\n';
const support = [{ traceId: 'claude-code:a', steps: [1, 2] }];

describe('applying a delta', () => {
  it('adds with one global id counter, inside the right section, before its blank line', () => {
    const { playbook, applied } = applyDelta(parsePlaybook(BASE), {
      ops: [
        { op: 'ADD', section: 'Build and test', content: 'Run `pnpm db:generate` before `pnpm test`.', support },
        { op: 'ADD', section: 'Workflow', content: 'Open a draft PR early.', support },
      ],
      tags: [],
    });
    assert.deepEqual(
      applied.map((a) => [a.status, a.id]),
      [
        ['applied', 'bat-00004'],
        ['applied', 'work-00005'],
      ],
    );
    const text = serializePlaybook(playbook);
    assert.match(
      text,
      /\[bat-00001\][^\n]*\n\[bat-00004\] helpful=0 harmful=0 :: Run `pnpm db:generate` before `pnpm test`\.\n\n## Workflow/,
    );
    // a section Combee creates goes where the usual order puts it: Workflow before Pitfalls
    assert.match(text, /## Workflow\n\[work-00005\] helpful=0 harmful=0 :: Open a draft PR early\.\n\n## Pitfalls\n/);
  });

  it('updates ACE counters from tags (last tag per id wins, neutral changes nothing)', () => {
    const { playbook } = applyDelta(parsePlaybook(BASE), {
      ops: [],
      tags: [
        { id: 'bat-00001', tag: 'harmful' },
        { id: 'bat-00001', tag: 'helpful' },
        { id: 'pit-00002', tag: 'neutral' },
        { id: 'nope-00009', tag: 'helpful' },
      ],
    });
    const byId = new Map(bullets(playbook).map((b) => [b.id, b]));
    assert.equal(byId.get('bat-00001')?.helpful, 3);
    assert.equal(byId.get('bat-00001')?.harmful, 0);
    assert.equal(byId.get('pit-00002')?.harmful, 1);
  });

  it('merges into the first id with summed counters, updates in place, removes, and skips unknown ids', () => {
    const { playbook, applied } = applyDelta(parsePlaybook(BASE), {
      ops: [
        { op: 'MERGE', ids: ['pit-00002', 'pit-00003'], content: 'This repo uses pnpm; never npm.', support },
        { op: 'UPDATE', id: 'bat-00001', content: 'Run `pnpm test` (vitest).', support },
        { op: 'REMOVE', id: 'bat-09999', reason: 'gone', support },
      ],
      tags: [],
    });
    assert.deepEqual(
      applied.map((a) => a.status),
      ['applied', 'applied', 'skipped'],
    );
    const all = bullets(playbook);
    assert.deepEqual(
      all.map((b) => `${b.id} ${b.helpful}/${b.harmful} ${b.content}`),
      ['bat-00001 2/0 Run `pnpm test` (vitest).', 'pit-00002 1/1 This repo uses pnpm; never npm.'],
    );
  });

  it('does not add a near-duplicate of an existing rule and never mutates its input', () => {
    const input = parsePlaybook(BASE);
    const { applied } = applyDelta(input, {
      ops: [{ op: 'ADD', section: 'Pitfalls', content: 'Never use npm here!', support }],
      tags: [],
    });
    assert.equal(applied[0].status, 'skipped');
    assert.match(applied[0].reason ?? '', /pit-00003/);
    assert.equal(serializePlaybook(input), BASE);
  });

  it('keeps untouched bullets byte-identical (human formatting survives)', () => {
    const human = '## Conventions\n- [conv-00001]  helpful=1   harmful=0 ::  Keep it tidy.\n';
    const { playbook } = applyDelta(parsePlaybook(human), {
      ops: [{ op: 'ADD', section: 'Conventions', content: 'Use pnpm.', support }],
      tags: [],
    });
    assert.match(
      serializePlaybook(playbook),
      /^## Conventions\n- \[conv-00001\]  helpful=1   harmful=0 ::  Keep it tidy\.\n\[conv-00002\]/,
    );
  });

  it('flattens multi-line model output into one bullet line', () => {
    const { playbook } = applyDelta(parsePlaybook(''), {
      ops: [{ op: 'ADD', section: 'Tooling', content: 'Line one\n\nline two', support }],
      tags: [],
    });
    assert.equal(bullets(playbook)[0].content, 'Line one line two');
  });

  it('uses a preferred id when it is free, and never reuses a number of the global counter', () => {
    const { playbook, applied } = applyDelta(parsePlaybook(BASE), {
      ops: [
        { op: 'ADD', section: 'Workflow', content: 'Open a draft PR early.', id: 'work-00009', support },
        { op: 'ADD', section: 'Workflow', content: 'Squash before merging.', id: 'work-00002', support },
        { op: 'ADD', section: 'Workflow', content: 'Tag releases with the version.', support },
      ],
      tags: [],
    });
    assert.deepEqual(
      applied.map((a) => a.id),
      ['work-00009', 'work-00004', 'work-00005'],
    );
    assert.equal(new Set(bullets(playbook).map((b) => b.id.slice(-5))).size, bullets(playbook).length);
  });
});
