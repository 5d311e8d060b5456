import assert from 'node:assert/strict';
import { appliedOpNote } from '../../../src/shared/protocol';

describe('what became of a change the run applied', () => {
  it('tells the run from the review, so a rule added and later rejected reads as two steps, not a contradiction', () => {
    assert.equal(appliedOpNote({ status: 'applied', review: 'rejected' }), 'applied in the run · rejected in review');
    assert.equal(appliedOpNote({ status: 'applied', review: 'accepted' }), 'applied in the run · accepted in review');
    assert.equal(appliedOpNote({ status: 'applied', review: 'pending' }), 'applied in the run · review pending');
  });

  it('says a dry run only applied it, names the flags that hold it back, and why the run skipped a change', () => {
    assert.equal(appliedOpNote({ status: 'applied' }), 'applied in the run');
    assert.equal(
      appliedOpNote({ status: 'applied', review: 'pending', flags: ['injection', 'remote-code'] }),
      'applied in the run · review pending · held back (injection, remote-code)',
    );
    assert.equal(appliedOpNote({ status: 'skipped', reason: 'no rule r-9' }), 'skipped in the run: no rule r-9');
  });
});
