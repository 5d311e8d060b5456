import assert from 'node:assert/strict';
import { confirmCounters, describeClaim, localCounts } from '../../../../src/core/learn/rules/confirmedCounters';
import type { RunRecord } from '../../../../src/core/learn/record/record';
import { ruleStage } from '../../../../src/core/learn/rules/ruleStanding';
import { ruleStandings } from '../../../../src/core/learn/rules/standings';

type Tag = { id: string; tag: 'helpful' | 'harmful' | 'neutral' };
const run = (id: string, startedAt: string, tags: Tag[], appliedIds: string[] = []) =>
  ({
    id,
    startedAt,
    batches: [{ tags }],
    nodes: [{ kind: 'apply', detail: appliedIds.map((ruleId) => ({ id: ruleId, status: 'applied' })) }],
  }) as unknown as RunRecord;

/** Counters this machine counted as many of as the line says. */
const counted = (helpful: number, harmful: number) => confirmCounters({ helpful, harmful }, { helpful, harmful });

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
        { id: 'a', counters: counted(1, 0), flagged: false },
        { id: 'b', counters: counted(0, 0), flagged: false },
        { id: 'c', counters: counted(0, 1), flagged: true },
        { id: 'hand-written', counters: counted(5, 0), flagged: false },
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
      ruleStandings([...records].reverse(), [{ id: 'a', counters: counted(1, 0), flagged: false }], 3).get('a'),
      standings.get('a'),
    );
  });

  it("stages a rule by what this machine confirms of its line's counters, the rest shown as the repository's claim", () => {
    const ledger = {
      tally: (id: string) => (id === 'honest' ? { helpful: 4, harmful: 0 } : { helpful: 0, harmful: 0 }),
    };
    const local = localCounts(ledger, []);
    const line = { helpful: 40, harmful: 0 };
    const standings = ruleStandings(
      [],
      [
        { id: 'forged', counters: confirmCounters(line, local('forged')), flagged: false },
        { id: 'honest', counters: confirmCounters({ helpful: 4, harmful: 0 }, local('honest')), flagged: false },
        { id: 'inflated', counters: confirmCounters(line, { helpful: 4, harmful: 0 }), flagged: false },
        { id: 'forged-harm', counters: confirmCounters({ helpful: 0, harmful: 9 }, local('x')), flagged: false },
      ],
    );
    assert.deepEqual(standings.get('forged')?.chips, ['new', 'unconfirmed'], 'a claim of 40 proves nothing');
    assert.deepEqual(standings.get('forged')?.counters.confirmed, { helpful: 0, harmful: 0 });
    assert.equal(
      describeClaim(standings.get('forged')!.counters),
      "claimed by the repository's playbook: 40 helpful, 0 harmful; confirmed here: 0 helpful, 0 harmful",
    );
    assert.deepEqual(standings.get('honest')?.chips, ['proven'], 'counted here: proven, nothing claimed beyond');
    assert.equal(describeClaim(standings.get('honest')!.counters), undefined);
    assert.equal(standings.get('inflated')?.stage, 'proven', 'the part counted here still counts');
    assert.deepEqual(standings.get('inflated')?.counters.confirmed, { helpful: 4, harmful: 0 });
    assert.deepEqual(standings.get('forged-harm')?.chips, ['new', 'unconfirmed'], 'a claimed harm retires nothing');
  });

  it('confirms counters from the runs recorded before the ledger, and from a run not yet in it', () => {
    const before = {
      id: 'old',
      startedAt: '2026-10-01T00:00:00Z',
      batches: [
        {
          tags: [
            { id: 'a', tag: 'helpful' },
            { id: 'a', tag: 'helpful' },
            { id: 'b', tag: 'harmful' },
          ],
        },
      ],
      nodes: [],
    } as unknown as RunRecord;
    const local = localCounts(
      { tally: () => ({ helpful: 1, harmful: 0 }) },
      [before],
      [
        { id: 'a', traceId: 't1', tag: 'helpful', counted: true },
        { id: 'a', traceId: 't2', tag: 'helpful', counted: false },
      ],
    );
    // the old batch's last tag per rule (as applied then), the ledger's one, this run's counted one
    assert.deepEqual(local('a'), { helpful: 3, harmful: 0 });
    assert.deepEqual(local('b'), { helpful: 1, harmful: 1 });
  });

  it('marks nothing stale before there are runs', () => {
    assert.deepEqual(ruleStandings([], [{ id: 'a', counters: counted(0, 0), flagged: false }]).get('a')?.chips, [
      'new',
    ]);
  });
});
