import assert from 'node:assert/strict';
import { faultRun } from '../../../bench/learn/faultRun';

describe('a run on a bad day at the endpoint (429s, 500s, hangs, malformed answers)', () => {
  it('finishes, reflects on every session, and proposes the same playbook as the fault-free run with the same seed', async function () {
    this.timeout(120_000);
    const clean = await faultRun({ sessions: 40, batch: 20, seed: 4, faults: false });
    const faulty = await faultRun({ sessions: 40, batch: 20, seed: 4, faults: true });
    assert.equal(clean.status, 'completed');
    assert.equal(faulty.status, 'completed');
    assert.equal(faulty.reflections, 40);
    assert.equal(faulty.failedSessions, 0);
    assert.ok(faulty.requests > clean.requests, 'faults were answered and retried');
    assert.ok(faulty.hedges > 0, 'a hung request was hedged');
    // the tree says which calls it was: every hedge and retry is on the node of its call
    assert.equal(faulty.nodeHedges, faulty.hedges);
    assert.ok(faulty.nodeRetries >= faulty.retries && faulty.retries > 0, `${faulty.nodeRetries} ≥ ${faulty.retries}`);
    // a clean run retries nothing; it hedges only when the machine is slow, and then its nodes say so
    assert.equal(clean.nodeRetries, 0, 'a clean run marks no node retried');
    assert.equal(clean.nodeHedges, clean.hedges);
    assert.equal(faulty.playbook, clean.playbook);
    assert.ok(clean.playbook.includes('LESSON-039'), 'the playbook holds the planted lessons');
  });
});
