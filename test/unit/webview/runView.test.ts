import assert from 'node:assert/strict';
import { describeDrops, dropSummary } from '../../../src/core/learn/record/callItems';
import type { CallItems, RunNode, RunRecord } from '../../../src/core/learn/record/record';
import { nodeDetailView, nodeSummary, withReview } from '../../../src/extension/webview/nodeDetail';
import { liveRunView, runMessageView, runView } from '../../../src/extension/webview/runView';
import type { RunNodeView } from '../../../src/shared/protocol';
import { exampleRunRecord } from '../../support/exampleRun';
import { overloadedRunRecord } from '../../support/overloadedRun';

const node = (kind: RunNode['kind'], detail: unknown): RunNode => ({
  id: `b0:${kind}`,
  kind,
  batch: 0,
  label: 'a label',
  parents: [],
  status: 'ok',
  detail,
});

describe('the run as the tree panel gets it', () => {
  it('gives every node of a real run its summary and its content: lessons, operations with support, what was applied', async () => {
    const view = runView(await exampleRunRecord());
    assert.ok(view.nodes.length > 10);
    for (const n of view.nodes) assert.ok(n.summary.includes(n.label), n.summary);
    const lessons = view.nodes.flatMap((n) => (n.detail?.kind === 'lessons' ? n.detail.lessons : []));
    assert.ok(
      lessons.some((l) => l.content.includes('pnpm')),
      'the lessons are there as text',
    );
    const applied = view.nodes.find((n) => n.kind === 'apply');
    assert.equal(applied?.detail?.kind, 'applied');
    if (applied?.detail?.kind !== 'applied') return;
    assert.ok(applied.detail.operations.every((op) => op.support.length > 0));
    assert.ok(applied.detail.operations.some((op) => op.status === 'applied' && op.ruleId));
    const sessions = view.nodes.filter((n) => n.kind === 'trace');
    assert.ok(sessions.every((n) => n.detail?.kind === 'session'));
  });

  it("shows each applied change's review as it stands now: accepted, rejected or pending, counted", async () => {
    const view = runView(await exampleRunRecord());
    const applied = view.nodes.find((n) => n.kind === 'apply')?.detail;
    assert.equal(applied?.kind, 'applied');
    if (applied?.kind !== 'applied') return;
    const ids = applied.operations
      .filter((op) => op.status === 'applied' && op.ruleId)
      .map((op) => op.ruleId as string);
    assert.ok(ids.length >= 3);
    const states = new Map<string, 'pending' | 'accepted' | 'rejected'>([
      [ids[0], 'accepted'],
      [ids[1], 'rejected'],
      ...ids.slice(2).map((id) => [id, 'pending'] as [string, 'pending']),
    ]);
    const flaggedRules = new Map([[ids[1], ['remote-code']]]);
    const reviewed = withReview(applied, { states, flaggedRules });
    assert.equal(reviewed?.kind, 'applied');
    if (reviewed?.kind !== 'applied') return;
    assert.equal(reviewed.operations.find((op) => op.ruleId === ids[0])?.review, 'accepted');
    assert.equal(reviewed.operations.find((op) => op.ruleId === ids[1])?.review, 'rejected');
    assert.deepEqual(reviewed.operations.find((op) => op.ruleId === ids[1])?.flags, ['remote-code']);
    assert.equal(reviewed.operations.find((op) => op.ruleId === ids[0])?.flags, undefined);
    assert.equal(reviewed.reviewNote, `Review now: 1 accepted, 1 rejected, ${ids.length - 2} pending`);
    assert.deepEqual(
      withReview(applied, { states: new Map(), flaggedRules: new Map() }),
      { ...applied, reviewNote: undefined },
      'no proposal: as recorded',
    );
  });

  it('marks a node whose call was sent again or hedged, and an apply node holding rules the trust screen holds back', async () => {
    const record = await exampleRunRecord();
    const reflection = record.nodes.find((n) => n.kind === 'reflection');
    const apply = record.nodes.find((n) => n.kind === 'apply');
    assert.ok(reflection && apply);
    const marked = {
      ...record,
      nodes: record.nodes.map((n) => (n === reflection ? { ...n, retries: 2, hedges: 1 } : n)),
    };
    const appliedIds = (apply.detail as Array<{ id?: string; status: string }>)
      .filter((a) => a.status === 'applied' && a.id)
      .map((a) => a.id as string);
    const view = runView(marked, new Set([appliedIds[0]]));
    const byId = new Map(view.nodes.map((n) => [n.id, n]));
    assert.deepEqual(byId.get(reflection.id)?.marks, ['retried', 'hedged']);
    assert.match(byId.get(reflection.id)?.summary ?? '', /sent again 2×, hedged 1×/);
    assert.deepEqual(byId.get(apply.id)?.marks, ['flagged']);
    assert.match(byId.get(apply.id)?.summary ?? '', /holds flagged rules/);
    assert.equal(view.nodes.filter((n) => n.marks).length, 2, 'nothing else is marked');
  });

  it('leaves out a payload that does not fit its kind (a damaged or older record) instead of passing it on', () => {
    assert.equal(nodeDetailView(node('reflection', { lessons: 'not a list' })), undefined);
    assert.equal(nodeDetailView(node('local', { ops: [{ op: 'DROP TABLE' }], tags: [] })), undefined);
    assert.equal(nodeDetailView(node('apply', '<script>alert(1)</script>')), undefined);
    assert.equal(nodeDetailView(node('group', undefined)), undefined);
    assert.deepEqual(nodeDetailView(node('group', { members: ['claude-code:1'] })), {
      kind: 'members',
      traceIds: ['claude-code:1'],
    });
  });

  it('says in one line what a node is and what it cost', () => {
    const summary = nodeSummary({
      ...node('local', undefined),
      latencyMs: 1234.4,
      inputTokens: 1000,
      outputTokens: 234,
    });
    assert.equal(summary, 'Local delta: a label — 1234 ms, 1,234 tokens');
    assert.equal(nodeSummary({ ...node('reflection', undefined), status: 'failed' }), 'Reflection: a label — failed');
  });

  it('marks nothing as dropped or redone in a run whose calls kept what they were given', async () => {
    const view = runView(await exampleRunRecord());
    assert.ok(view.nodes.every((n) => !n.marks?.includes('dropped') && !n.marks?.includes('redo')));
    assert.equal(view.drops, undefined);
  });
});

describe('a run whose calls dropped items, as the tree panel gets it', () => {
  let record: RunRecord;
  let byId: Map<string, RunNodeView>;
  const calls = () => record.nodes.filter((n): n is RunNode & { items: CallItems } => !!n.items);
  before(async () => {
    record = await overloadedRunRecord();
    byId = new Map(runView(record).nodes.map((n) => [n.id, n]));
  });

  it('says with the run how many of its calls dropped how many items, as `combee tree` does, live or recorded', () => {
    const line = describeDrops(dropSummary(record.nodes));
    assert.ok(line);
    assert.equal(runView(record).drops, line);
    assert.equal(runMessageView(runView(record)).drops, line, 'sent with the run');
    const live = liveRunView({ ...record, traces: 60, calls: 1, costUsd: 0, nodes: record.nodes });
    assert.equal(live.drops, line);
  });

  it('marks every call that dropped items, and every redo, and no other node', () => {
    const dropped = calls().filter((n) => n.items.dropped > 0);
    const redos = calls().filter((n) => n.items.redoOf);
    assert.ok(dropped.length >= 3 && redos.length >= 3);
    for (const n of record.nodes) {
      const marks = byId.get(n.id)?.marks ?? [];
      assert.equal(marks.includes('dropped'), dropped.includes(n as (typeof dropped)[number]), n.id);
      assert.equal(marks.includes('redo'), redos.includes(n as (typeof redos)[number]), n.id);
    }
    const carrying = redos.find((n) => n.items.carried);
    assert.deepEqual(carrying && byId.get(carrying.id)?.marks, ['dropped', 'redo'], 'a redo that dropped again');
  });

  it('says in the hover how many a call dropped of how many, and what became of them', () => {
    const overloaded = calls().find((n) => n.items.overloaded && n.items.rejected === 0);
    assert.ok(overloaded);
    const summary = byId.get(overloaded.id)?.summary ?? '';
    assert.ok(
      summary.startsWith(
        `${overloaded.kind === 'local' ? 'Local delta' : 'Global delta'}: ${overloaded.label.split(', dropped')[0]} — dropped ${overloaded.items.dropped} of ${overloaded.items.in} (sent again in 1 smaller call), `,
      ),
      summary,
    );
    const carrying = calls().find((n) => n.items.carried);
    const of = record.nodes.find((n) => n.id === carrying?.items.redoOf);
    assert.ok(carrying && of);
    const redoSummary = byId.get(carrying.id)?.summary ?? '';
    assert.ok(
      redoSummary.includes(
        ` — redo of ${of.label.split(':')[0]}, dropped ${carrying.items.dropped} of ${carrying.items.in} (carried ${carrying.items.carried} in code), `,
      ),
      redoSummary,
    );
    const lost = { ...overloaded, items: { ...overloaded.items, overloaded: undefined, redone: undefined } };
    assert.ok(nodeSummary(lost).includes(` — dropped ${lost.items.dropped} of ${lost.items.in} (lost), `));
  });

  it("lists in a call's details the items it dropped and those it rejected, with the reason", () => {
    const call = calls().find((n) => n.items.dropped > 0 && n.items.rejected > 0);
    assert.ok(call);
    const detail = byId.get(call.id)?.detail;
    assert.equal(detail?.kind, 'operations');
    if (detail?.kind !== 'operations') return;
    const items = detail.items;
    assert.ok(items);
    assert.deepEqual(
      [items.in, items.kept, items.merged, items.rejected, items.dropped],
      [call.items.in, call.items.kept, call.items.merged, call.items.rejected, call.items.dropped],
    );
    assert.equal(items.in, items.kept + items.merged + items.rejected + items.dropped);
    assert.equal(items.dropFate, 'sent again in 1 smaller call');
    assert.equal(items.droppedItems.length, call.items.dropped);
    for (const item of items.droppedItems) {
      assert.match(item.label, /^L\d+$/);
      assert.match(item.text, /LESSON-\d{3}: when touching /);
      assert.ok(item.sessions >= 1);
    }
    assert.equal(items.rejectedItems.length, call.items.rejected);
    for (const item of items.rejectedItems) {
      assert.match(item.text, /LESSON-001: /, 'the lesson the playbook already holds');
      assert.equal(item.reason, 'the playbook already says it');
    }
    assert.equal(items.redoOf, undefined);
    assert.ok(detail.operations.length > 0, 'its operations as before');
  });

  it("names in a redo's details the call whose drops it sends again", () => {
    const redo = calls().find((n) => n.items.redoOf);
    const of = record.nodes.find((n) => n.id === redo?.items.redoOf);
    assert.ok(redo && of);
    const detail = byId.get(redo.id)?.detail;
    assert.equal(detail?.kind, 'operations');
    if (detail?.kind !== 'operations') return;
    assert.deepEqual(detail.items?.redoOf, { id: of.id, name: of.label.split(':')[0] });
  });

  it('gives no item counts for a call recorded before calls were checked for drops', () => {
    const call = calls()[0];
    const { items: _items, ...older } = call;
    const detail = nodeDetailView(older);
    assert.equal(detail?.kind, 'operations');
    assert.equal(detail?.kind === 'operations' ? detail.items : 'not operations', undefined);
  });
});
