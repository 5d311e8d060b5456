import assert from 'node:assert/strict';
import { describeDrops, dropSummary } from '../../../../src/core/learn/record/callItems';
import { callItemFacts, labelWithoutDrops } from '../../../../src/core/learn/record/callItemsText';
import type { BatchPlan, CallItems, RunNode, RunRecord } from '../../../../src/core/learn/record/record';
import { describePlan, renderRunTree } from '../../../../src/core/learn/record/treeText';
import { overloadedRunRecord } from '../../../support/overloadedRun';

const calls = (record: RunRecord) => record.nodes.filter((n): n is RunNode & { items: CallItems } => !!n.items);

/** The tree's line for a node (its first: a node reached again is repeated, marked ↺). */
function lineOf(tree: string, node: RunNode): string {
  const line = tree.split('\n').find((l) => l.trimStart().startsWith(`${labelWithoutDrops(node)} (`));
  assert.ok(line, `no line for ${node.id}`);
  return line;
}

describe('`combee tree` on a run whose calls dropped items', () => {
  let record: RunRecord;
  let tree: string;
  before(async () => {
    record = await overloadedRunRecord();
    tree = renderRunTree(record);
  });

  it('the run really overloaded: calls dropped items and were redone, one passed an item on in code', () => {
    assert.ok(calls(record).some((n) => n.items.overloaded && n.items.redone === 1));
    assert.ok(calls(record).some((n) => n.items.redoOf));
    assert.ok(calls(record).some((n) => n.items.carried));
    assert.ok(calls(record).some((n) => n.items.rejected > 0));
  });

  it("says under the run's header how many calls dropped how many items, and what became of them", () => {
    const summary = describeDrops(dropSummary(record.nodes));
    assert.ok(summary);
    assert.equal(tree.split('\n')[3], `  ${summary}`);
    assert.match(
      summary,
      /^\d+ aggregation call\(s\) dropped \d+ item\(s\) without a reason: \d+ sent again in \d+ smaller call\(s\), 1 from several sessions carried in code$/,
    );
  });

  it('says on each call that dropped items how many of how many, and that they were sent again', () => {
    const overloaded = calls(record).filter((n) => n.items.overloaded);
    assert.ok(overloaded.length >= 2);
    for (const node of overloaded) {
      const line = lineOf(tree, node);
      assert.ok(
        line.endsWith(`— dropped ${node.items.dropped} of ${node.items.in} (sent again in 1 smaller call)`) ||
          line.includes(`— dropped ${node.items.dropped} of ${node.items.in} (sent again in 1 smaller call); `),
        line,
      );
      assert.equal(line.split('dropped').length, 2, `the count once, not again from the label: ${line}`);
    }
    const clean = calls(record).find((n) => n.items.dropped === 0 && !n.items.redoOf && n.items.rejected === 0);
    assert.ok(clean);
    assert.doesNotMatch(lineOf(tree, clean), /—/, 'a call that dropped nothing says nothing of it');
  });

  it('names the call each redo sends again, and says what a redo that dropped again passed on in code', () => {
    const redos = calls(record).filter((n) => n.items.redoOf);
    for (const redo of redos) {
      const of = record.nodes.find((n) => n.id === redo.items.redoOf);
      assert.ok(of && redo.parents.includes(of.id));
      assert.match(lineOf(tree, redo), new RegExp(`— redo of ${of.label.split(':')[0]}(;|$)`));
    }
    const carrying = redos.find((n) => n.items.carried);
    assert.ok(carrying);
    assert.match(
      lineOf(tree, carrying),
      new RegExp(
        `; dropped ${carrying.items.dropped} of ${carrying.items.in} \\(carried ${carrying.items.carried} in code\\)$`,
      ),
    );
  });

  it('says how many items a call rejected with a reason', () => {
    const rejecting = calls(record).find((n) => n.items.rejected > 0);
    assert.ok(rejecting);
    assert.match(lineOf(tree, rejecting), new RegExp(`${rejecting.items.rejected} rejected with a reason`));
  });

  it('says in the plan the budget of the higher levels and the capacity the model showed', () => {
    const plan = record.batches[0].plan;
    assert.ok(plan?.higherBudgetTokens !== undefined && plan.learnedTokens !== undefined);
    assert.ok(plan.higherBudgetTokens < 16_000);
    assert.ok(
      tree.includes(
        `  plan: capacity-aware, local calls ≤ 16000 tokens, higher levels ≤ ${plan.higherBudgetTokens} (largest ${plan.largestCallTokens}), learned capacity ${plan.learnedTokens}: k = `,
      ),
      tree,
    );
  });

  it("says it once when the learner's warnings say it too", () => {
    const summary = describeDrops(dropSummary(record.nodes));
    assert.ok(summary);
    const warned = renderRunTree({ ...record, warnings: [...record.warnings, summary, 'another warning'] });
    assert.equal(warned.split(summary).length, 2, warned);
    assert.match(warned, new RegExp(`${record.warnings.length + 1} warning\\(s\\):\n(  .*\n)*  another warning$`));
  });

  it('a run whose calls dropped nothing has no line about drops', () => {
    const clean = {
      ...record,
      nodes: record.nodes.map((n) => (n.items ? { ...n, items: { ...n.items, dropped: 0, carried: undefined } } : n)),
    };
    assert.equal(renderRunTree(clean).split('\n')[3], '');
  });
});

describe('what a call did with its items, in words', () => {
  const items = (extra: Partial<CallItems>): CallItems => ({
    in: 40,
    kept: 30,
    merged: 7,
    rejected: 0,
    dropped: 3,
    ...extra,
  });

  it('tells drops sent again, lost, carried in code, and a redo by the name of the call it redoes', () => {
    assert.deepEqual(callItemFacts(items({ overloaded: true, redone: 2 })), [
      'dropped 3 of 40 (sent again in 2 smaller calls)',
    ]);
    assert.deepEqual(callItemFacts(items({})), ['dropped 3 of 40 (lost)']);
    assert.deepEqual(callItemFacts(items({ carried: 3 })), ['dropped 3 of 40 (carried 3 in code)']);
    assert.deepEqual(callItemFacts(items({ carried: 2, rejected: 1 })), [
      'dropped 3 of 40 (carried 2 in code, 1 lost)',
      '1 rejected with a reason',
    ]);
    const names = new Map([['b0:local:3', 'local delta 4']]);
    assert.deepEqual(
      callItemFacts(items({ dropped: 0, redoOf: 'b0:local:3' }), (id) => names.get(id)),
      ['redo of local delta 4'],
    );
    assert.deepEqual(callItemFacts(items({ dropped: 0, redoOf: 'b0:local:9' })), ['redo of b0:local:9']);
    assert.deepEqual(callItemFacts(items({ dropped: 0 })), []);
  });

  it('takes the count of drops off a label that carries it, and leaves any other label as it is', () => {
    const node = { label: 'local delta 2: 21 op(s), dropped 6 of 34', items: items({ dropped: 6, in: 34 }) };
    assert.equal(labelWithoutDrops(node), 'local delta 2: 21 op(s)');
    assert.equal(labelWithoutDrops({ ...node, items: items({ dropped: 5, in: 34 }) }), node.label);
    assert.equal(labelWithoutDrops({ label: 'local delta 1: 3 op(s)' }), 'local delta 1: 3 op(s)');
  });

  it("describes a plan without a higher levels' budget or a learned capacity as before", () => {
    const plan: BatchPlan = {
      kind: 'capacity',
      budgetTokens: 8000,
      largestCallTokens: 7412,
      reason: 'k = ⌊√n⌋ = 10: every local call fits 8000 tokens',
      mergedInCode: 3,
    };
    assert.equal(
      describePlan(plan),
      'capacity-aware, every call ≤ 8000 tokens (largest 7412): k = ⌊√n⌋ = 10: every local call fits 8000 tokens; 3 op(s) merged in code',
    );
    assert.equal(
      describePlan({ ...plan, learnedTokens: 5200, budgetTokens: 5200 }),
      'capacity-aware, every call ≤ 5200 tokens (largest 7412), learned capacity 5200: k = ⌊√n⌋ = 10: every local call fits 8000 tokens; 3 op(s) merged in code',
    );
  });
});
