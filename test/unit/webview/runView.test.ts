import assert from 'node:assert/strict';
import type { RunNode } from '../../../src/core/learn/record';
import { nodeDetailView, nodeSummary, withReview } from '../../../src/extension/webview/nodeDetail';
import { runView } from '../../../src/extension/webview/runView';
import { exampleRunRecord } from '../../support/exampleRun';

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
});
