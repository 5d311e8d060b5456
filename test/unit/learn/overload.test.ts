import assert from 'node:assert/strict';
import type { AggregationCapacity } from '../../../src/core/learn/types';
import {
  carriedOps,
  droppedInput,
  isOverloaded,
  packGreedy,
  redoTarget,
  splitToFit,
} from '../../../src/core/learn/overload';
import { seededRandom } from '../../../src/core/learn/random';
import type { AggregationInput, ItemOutcome } from '../../../src/core/learn/types';
import type { DeltaOp } from '../../../src/core/playbook/delta';
import { emptyPlaybook } from '../../../src/core/playbook/markdown';

const tally = (given: number, dropped: number, loadTokens = 10_000) => ({
  in: given,
  kept: given - dropped,
  merged: 0,
  rejected: 0,
  dropped,
  loadTokens,
});

const lesson = (traceId: string, content: string) => ({
  section: 'Build',
  content,
  kind: 'rule' as const,
  evidence: { traceId, steps: [1] },
});

const add = (content: string, traces: string[]): DeltaOp => ({
  op: 'ADD',
  section: 'Build',
  content,
  support: traces.map((traceId) => ({ traceId, steps: [2] })),
});

const outcome = (ref: ItemOutcome['ref'], fate: ItemOutcome['fate'], sessions = 1): ItemOutcome => ({
  ref,
  label: 'x',
  text: 'x',
  sessions,
  fate,
});

describe('overload: telling overload from judgment, and what is sent again', () => {
  it('a call that drops nothing is never overloaded; with no small calls known, any drop is (the redo tells)', () => {
    assert.equal(isOverloaded(tally(40, 0), undefined), false);
    assert.equal(isOverloaded(tally(40, 1), undefined), true);
  });

  it("a drop within the model's judgment share is judgment; more than it is overload", () => {
    assert.equal(isOverloaded(tally(40, 4), 0.1), false);
    assert.equal(isOverloaded(tally(40, 5), 0.1), true);
    assert.equal(isOverloaded(tally(40, 1), 0), true);
  });

  it('a redo that dropped no smaller a share than the call it redoes is judgment: not sent again', () => {
    assert.equal(isOverloaded(tally(10, 5), undefined, 0.5), false);
    assert.equal(isOverloaded(tally(10, 10), undefined, 0.5), false);
    assert.equal(isOverloaded(tally(10, 2), undefined, 0.5), true);
  });

  it('the dropped part of a call: only those lessons (by reflection) or operations (by delta), without tags', () => {
    const reflections: AggregationInput = {
      level: 'local',
      deltas: [],
      reflections: [
        { traceId: 'a', lessons: [lesson('a', 'one'), lesson('a', 'two')], tags: [{ id: 'r-1', tag: 'helpful' }] },
        { traceId: 'b', lessons: [lesson('b', 'three')], tags: [] },
      ],
    };
    const part = droppedInput(reflections, [
      outcome({ reflection: 0, lesson: 0 }, 'kept'),
      outcome({ reflection: 0, lesson: 1 }, 'dropped'),
      outcome({ reflection: 1, lesson: 0 }, 'rejected'),
    ]);
    assert.deepEqual(part, {
      level: 'local',
      deltas: [],
      reflections: [{ traceId: 'a', lessons: [lesson('a', 'two')], tags: [] }],
    });
    const deltas: AggregationInput = {
      level: 'global',
      reflections: [],
      deltas: [
        { ops: [add('one', ['a']), add('two', ['b'])], tags: [{ id: 'r-1', tag: 'harmful' }] },
        { ops: [add('three', ['c'])], tags: [] },
      ],
    };
    const ops = droppedInput(deltas, [
      outcome({ delta: 0, op: 0 }, 'dropped'),
      outcome({ delta: 0, op: 1 }, 'merged'),
      outcome({ delta: 1, op: 0 }, 'dropped'),
    ]);
    assert.deepEqual(
      ops.deltas.map((d) => [d.ops.map((o) => (o.op === 'ADD' ? o.content : '')), d.tags.length]),
      [
        [['one'], 0],
        [['three'], 0],
      ],
    );
  });

  it('an operation from two or more sessions dropped without a reason is carried on; one from a single session is not', () => {
    const input: AggregationInput = {
      level: 'global',
      reflections: [],
      deltas: [
        { ops: [add('two sessions', ['a', 'b']), add('one session', ['c']), add('kept', ['d', 'e'])], tags: [] },
      ],
    };
    const carried = carriedOps(input, [
      outcome({ delta: 0, op: 0 }, 'dropped', 2),
      outcome({ delta: 0, op: 1 }, 'dropped', 1),
      outcome({ delta: 0, op: 2 }, 'kept', 2),
    ]);
    assert.deepEqual(
      carried.map((o) => (o.op === 'ADD' ? o.content : '')),
      ['two sessions'],
    );
  });

  it('a redo is sized to what the call kept, within the budget and never below the least a call may be', () => {
    assert.equal(redoTarget(tally(100, 50, 14_000), undefined), 7_000);
    assert.equal(redoTarget(tally(100, 50, 14_000), 5_000), 5_000);
    assert.equal(redoTarget(tally(100, 99, 14_000), undefined), 1_000);
  });

  it('packs units into the longest prefixes that fit, exactly as a unit-by-unit greedy would', () => {
    const random = seededRandom(7);
    for (let round = 0; round < 200; round++) {
      const sizes = Array.from({ length: 1 + Math.floor(random() * 60) }, () => 1 + Math.floor(random() * 30));
      const limit = 10 + Math.floor(random() * 80);
      const fits = (part: number[]) => part.reduce((a, b) => a + b, 0) <= limit;
      const expected: number[][] = [];
      let current: number[] = [];
      for (const size of sizes) {
        if (current.length > 0 && !fits([...current, size])) {
          expected.push(current);
          current = [];
        }
        current.push(size);
      }
      expected.push(current);
      assert.deepEqual(packGreedy(sizes, fits), expected, `round ${round}`);
    }
  });

  it("splits what was dropped into parts that fit, keeping each session's lessons together in order", () => {
    const capacity: AggregationCapacity = {
      budgetTokens: 16_000,
      measure: (input) => 100 + input.reflections.flatMap((r) => r.lessons).length * 50,
    };
    const input: AggregationInput = {
      level: 'local',
      deltas: [],
      reflections: ['a', 'b', 'c'].map((t) => ({
        traceId: t,
        lessons: [1, 2, 3].map((n) => lesson(t, `${t}${n}`)),
        tags: [],
      })),
    };
    const parts = splitToFit(input, 300, capacity, emptyPlaybook());
    assert.deepEqual(
      parts.map((p) => p.reflections.map((r) => `${r.traceId}:${r.lessons.map((l) => l.content).join(',')}`)),
      [['a:a1,a2,a3', 'b:b1'], ['b:b2,b3', 'c:c1,c2'], ['c:c3']],
    );
    for (const part of parts) assert.ok(capacity.measure(part, emptyPlaybook()) <= 300);
  });
});
