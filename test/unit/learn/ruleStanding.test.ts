import assert from 'node:assert/strict';
import type { RunRecord } from '../../../src/core/learn/record';
import { ruleStage, ruleStandings } from '../../../src/core/learn/ruleStanding';

type Tag = { id: string; tag: 'helpful' | 'harmful' | 'neutral' };
const run = (id: string, startedAt: string, tags: Tag[], appliedIds: string[] = []) =>
  ({
    id,
    startedAt,
    batches: [{ tags }],
    nodes: [{ kind: 'apply', detail: appliedIds.map((ruleId) => ({ id: ruleId, status: 'applied' })) }],
  }) as unknown as RunRecord;

describe('rule standing', () => {
  it('stages a rule by its counters: proven, harmful, contested, else new', () => {
    assert.equal(ruleStage(0, 0), 'new');
    assert.equal(ruleStage(2, 0), 'new');
    assert.equal(ruleStage(3, 0), 'proven');
    assert.equal(ruleStage(3, 1), 'proven');
    assert.equal(ruleStage(4, 2), 'contested', 'helpful must be more than twice harmful to be proven');
    assert.equal(ruleStage(1, 1), 'contested');
    assert.equal(ruleStage(1, 3), 'harmful');
    assert.equal(ruleStage(0, 2), 'harmful');
  });

  it('counts the runs since the last one that tagged or changed a rule; stale after the threshold, whatever the date', () => {
    const records = [
      run('r3', '2026-11-03T00:00:00Z', [{ id: 'a', tag: 'neutral' }]),
      run('r1', '2026-11-01T00:00:00Z', [{ id: 'a', tag: 'helpful' }], ['b']),
      run('r2', '2026-11-02T00:00:00Z', [], ['c']),
      run('r4', '2026-11-04T00:00:00Z', [{ id: 'c', tag: 'harmful' }]),
    ];
    const standings = ruleStandings(
      records,
      [
        { id: 'a', helpful: 1, harmful: 0, flagged: false },
        { id: 'b', helpful: 0, harmful: 0, flagged: false },
        { id: 'c', helpful: 0, harmful: 1, flagged: true },
        { id: 'hand-written', helpful: 5, harmful: 0, flagged: false },
      ],
      3,
    );
    // a neutral tag is no evidence: a's last is r1
    assert.equal(standings.get('a')?.runsWithoutEvidence, 3);
    assert.deepEqual(standings.get('a')?.chips, ['new', 'stale']);
    assert.equal(standings.get('b')?.runsWithoutEvidence, 3, 'made by r1');
    assert.deepEqual(standings.get('c')?.chips, ['contested', 'flagged']);
    assert.equal(standings.get('c')?.runsWithoutEvidence, 0);
    assert.deepEqual(
      standings.get('hand-written')?.chips,
      ['proven', 'stale'],
      'never seen by a run: every run counts',
    );
    assert.deepEqual(standings.get('a')?.history, [{ at: '2026-11-01T00:00:00Z', helpful: 1, harmful: 0 }]);
    // the order of the records given does not matter
    assert.deepEqual(
      ruleStandings([...records].reverse(), [{ id: 'a', helpful: 1, harmful: 0, flagged: false }], 3).get('a'),
      standings.get('a'),
    );
  });

  it('marks nothing stale before there are runs', () => {
    assert.deepEqual(ruleStandings([], [{ id: 'a', helpful: 0, harmful: 0, flagged: false }]).get('a')?.chips, ['new']);
  });
});
