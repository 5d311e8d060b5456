import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { LeakScanner } from '../../support/leakScan';

describe('the leak scanner the sink tests use', () => {
  const token = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4';
  const scanner = new LeakScanner([{ owner: 'hex token', needle: token }]);

  it('finds any 8-character piece of a planted secret, whole or cut', () => {
    assert.equal(scanner.scan(`key=${token}`).length > 0, true);
    assert.equal(scanner.scan(`key=${token.slice(10, 22)}…`).length > 0, true);
  });

  it('does not take a file fingerprint that happens to share 8 hex characters for a leak', () => {
    // a SHA-256 digest with a piece of the token planted in it, as chance does now and then
    const digest = createHash('sha256').update('some file').digest('hex');
    const chance = `${digest.slice(0, 20)}${token.slice(4, 12)}${digest.slice(28)}`;
    assert.equal(chance.length, 64);
    assert.deepEqual(scanner.scan(`{"head":"${chance}"}`), []);
  });
});
