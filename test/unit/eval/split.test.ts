import assert from 'node:assert/strict';
import { splitSessions, SplitError } from '../../../src/core/eval/split';

const at = (id: string, endedAt?: string, startedAt?: string) => ({ id, endedAt, startedAt });

describe('backtest split', () => {
  const sessions = [
    at('d', '2026-11-04T10:00:00Z'),
    at('b', '2026-11-02T10:00:00Z'),
    at('a', '2026-11-02T10:00:00Z'),
    at('c', undefined, '2026-11-03T09:00:00+01:00'),
    at('e', '2026-11-05T10:00:00Z'),
    at('undated'),
  ];

  it('orders by end time (the start when there is no end), ties by id, and cuts after the first half', () => {
    const split = splitSessions(sessions, { ratio: 0.5 });
    assert.deepEqual(
      split.earlier.map((s) => s.id),
      ['a', 'b'],
    );
    assert.deepEqual(
      split.later.map((s) => s.id),
      ['c', 'd', 'e'],
    );
    assert.equal(split.undated, 1);
    assert.deepEqual(split.by, { ratio: 0.5 });
  });

  it('gives the same split whatever order the store lists the sessions in', () => {
    const reversed = splitSessions([...sessions].reverse(), { ratio: 0.5 });
    assert.deepEqual(reversed, splitSessions(sessions, { ratio: 0.5 }));
  });

  it('cuts at a date: what ended before it teaches, the rest is replayed', () => {
    const split = splitSessions(sessions, { at: '2026-11-03T08:30:00Z' });
    assert.deepEqual(
      split.earlier.map((s) => s.id),
      ['a', 'b', 'c'],
      'c started 08:00 UTC (09:00+01:00)',
    );
    assert.deepEqual(
      split.later.map((s) => s.id),
      ['d', 'e'],
    );
    assert.deepEqual(split.by, { at: '2026-11-03T08:30:00.000Z' });
  });

  it('takes another share with a ratio, and refuses a ratio outside (0, 1) or a date that is none', () => {
    assert.deepEqual(
      splitSessions(sessions, { ratio: 0.8 }).earlier.map((s) => s.id),
      ['a', 'b', 'c', 'd'],
    );
    assert.throws(() => splitSessions(sessions, { ratio: 1 }), SplitError);
    assert.throws(() => splitSessions(sessions, { ratio: 0 }), SplitError);
    assert.throws(() => splitSessions(sessions, { at: 'soon' }), SplitError);
  });
});
