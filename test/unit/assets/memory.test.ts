import assert from 'node:assert/strict';
import { ReviewMemory } from '../../../src/core/store/reviewMemory';
import type { DeltaOp } from '../../../src/core/playbook/delta';
import { tempDir } from '../../../testing/tmp';
import { WorkspaceState } from '../../../src/core/store/workspaceState';

const add = (content: string, traces: string[]): DeltaOp => ({
  op: 'ADD',
  section: 'Build and test',
  content,
  support: traces.map((traceId) => ({ traceId, steps: [1] })),
});

describe('review memory', () => {
  it('does not re-propose a rejected change from the sessions it was judged on; new sessions may bring it back', async () => {
    const memory = new ReviewMemory(new WorkspaceState(tempDir('combee-mem-')), '/ws');
    await memory.rememberRejected([
      { content: 'Run `pnpm proto:gen` before `pnpm api:test`.', support: [{ traceId: 'a' }] },
    ]);
    const veto = ReviewMemory.veto(await memory.load());
    assert.match(veto(add('Run `pnpm proto:gen` before `pnpm api:test`!', ['a'])) ?? '', /^rejected in review on /);
    assert.equal(veto(add('Run `pnpm proto:gen` before `pnpm api:test`!', ['a', 'z'])), undefined);
    assert.equal(veto(add('Use TZ=UTC for vitest runs.', ['a'])), undefined);
  });

  it('remembers a retired rule with its section and the sessions Combee knew behind it', async () => {
    const memory = new ReviewMemory(new WorkspaceState(tempDir('combee-mem-')), '/ws');
    await memory.rememberAccepted(
      '## Build and test\n[bat-00001] helpful=0 harmful=2 :: Install with `npm install`.\n',
      new Map([['bat-00001', ['s1']]]),
    );
    await memory.rememberRetired([
      { id: 'bat-00001', content: 'Install with `npm install`.', traceIds: ['s2'], reason: 'harmful in 2 sessions' },
    ]);
    const stored = await memory.load();
    assert.deepEqual(
      stored.retired.map((r) => [r.section, r.reason, r.traceIds]),
      [['Build and test', 'harmful in 2 sessions', ['s2', 's1']]],
    );
    assert.deepEqual(stored.accepted, [], 'not noticed again as a deletion');
    assert.deepEqual(await memory.noticeDeletions('## Build and test\n'), []);
    const veto = ReviewMemory.veto(stored);
    // another wording of the same purpose, from the sessions it was judged on
    assert.match(
      veto(add('Always install dependencies with `npm install --legacy-peer-deps`.', ['s1'])) ?? '',
      /^retired on \d{4}-\d\d-\d\d \(harmful in 2 sessions\); no new evidence$/,
    );
    assert.equal(veto(add('Install with `npm install`.', ['s1', 's3'])), undefined);
  });

  it('forgetting what was learned in a workspace clears its learned sessions and review memory, and nothing else', async () => {
    const state = new WorkspaceState(tempDir('combee-mem-'));
    const memory = new ReviewMemory(state, '/ws');
    await memory.rememberRejected([{ content: 'Run `pnpm proto:gen` first.', support: [{ traceId: 'a' }] }]);
    await state.markLearned('/ws', ['a', 'b'], 'run-1', [{ id: 'c', reason: 'its reflection failed' }]);
    await state.markLearned('/other', ['d'], 'run-2');
    await state.forgetLearning('/ws');
    assert.deepEqual(await state.loadLearned('/ws'), { version: 1, learned: {}, failed: {} });
    assert.deepEqual((await memory.load()).rejected, []);
    assert.deepEqual(Object.keys((await state.loadLearned('/other')).learned), ['d'], 'other folders keep theirs');
    await state.forgetLearning('/ws'); // nothing left to forget: no error
  });

  it('notices a rule the team deleted and vetoes it unless new sessions show it again', async () => {
    const memory = new ReviewMemory(new WorkspaceState(tempDir('combee-mem-')), '/ws');
    const written =
      '## Build and test\n[bat-00001] helpful=0 harmful=0 :: Run `pnpm db:generate` before `pnpm test`.\n[bat-00002] helpful=0 harmful=0 :: Build with `pnpm build`.\n';
    await memory.rememberAccepted(
      written,
      new Map([
        ['bat-00001', ['s1', 's2']],
        ['bat-00002', ['s3']],
      ]),
    );
    const deleted = await memory.noticeDeletions(
      '## Build and test\n[bat-00002] helpful=0 harmful=0 :: Build with `pnpm build`.\n',
    );
    assert.deepEqual(
      deleted.map((d) => d.traceIds),
      [['s1', 's2']],
    );
    const veto = ReviewMemory.veto(await memory.load());
    assert.match(
      veto(add('Run `pnpm db:generate` before `pnpm test`.', ['s2'])) ?? '',
      /^deleted from the playbook by the team, noticed on \d{4}-\d\d-\d\d; no new evidence$/,
    );
    assert.equal(
      veto(add('Run `pnpm db:generate` before `pnpm test`.', ['s2', 's9'])),
      undefined,
      'new evidence may bring it back for review',
    );
    assert.deepEqual(await memory.noticeDeletions('## Build and test\n'), [
      {
        content: 'Build with `pnpm build`.',
        traceIds: ['s3'],
        at: (await memory.load()).deleted[1].at,
        section: 'Build and test',
      },
    ]);
  });
});
