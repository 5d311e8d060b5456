import assert from 'node:assert/strict';
import {
  lookUpSigner,
  matchesPatternList,
  parseAllowedSigners,
  signerName,
} from '../../../src/core/team/allowedSigners';
import { nodeSshKey } from '../../support/sshSigning';

const NS = 'combee-bundle';
const alice = nodeSshKey('ssh-ed25519');
const bob = nodeSshKey('ecdsa-sha2-nistp256');
const carol = nodeSshKey('ssh-ed25519');
const now = Date.UTC(2026, 11, 4);

describe('allowed-signers files', () => {
  it('reads principals, quoted lists, options and comments as ssh-keygen does', () => {
    const file = parseAllowedSigners(
      [
        '# the team',
        `alice@example.com ${alice.publicLine} alice's laptop`,
        `"bob@example.com,robert@example.com" namespaces="git,combee-bundle",valid-after="20260101Z" ${bob.publicLine}`,
        `carol@example.com valid-before="20261201" ${carol.publicLine}`,
        '',
      ].join('\n'),
      'allowed_signers',
    );
    assert.deepEqual(file.warnings, []);
    assert.equal(file.signers.length, 3);
    assert.equal(file.signers[0].principals, 'alice@example.com');
    assert.equal(file.signers[0].keyType, 'ssh-ed25519');
    assert.equal(file.signers[1].principals, 'bob@example.com,robert@example.com');
    assert.equal(file.signers[1].namespaces, 'git,combee-bundle');
    assert.equal(file.signers[1].validAfter, Date.UTC(2026, 0, 1));
    assert.equal(file.signers[2].line, 4);
  });

  it('skips, with a warning naming the line, what it cannot read: no key, a bad option or time, a CA line', () => {
    const file = parseAllowedSigners(
      [
        'alice@example.com',
        `alice@example.com ssh-ed25519 AAAA`,
        `alice@example.com bogus="x" ${alice.publicLine}`,
        `alice@example.com valid-after="2026-01-01" ${alice.publicLine}`,
        `*@example.com cert-authority ${alice.publicLine}`,
        `"alice ${alice.publicLine}`,
        `bob@example.com ${bob.publicLine}`,
      ].join('\n'),
      'signers',
    );
    assert.equal(file.signers.length, 1);
    assert.equal(file.signers[0].principals, 'bob@example.com');
    assert.equal(file.warnings.length, 6);
    assert.deepEqual(
      file.warnings.map((w) => w.split(':')[1]),
      ['1', '2', '3', '4', '5', '6'],
    );
    assert.match(file.warnings[4], /cert-authority/);
  });

  it('finds the principals of a key allowed in the namespace at the time, and says why one is not', () => {
    const file = parseAllowedSigners(
      [
        `alice@example.com ${alice.publicLine}`,
        `bob@example.com namespaces="git" ${bob.publicLine}`,
        `carol@example.com valid-before="20260601Z" ${carol.publicLine}`,
      ].join('\n'),
      'signers',
    );
    assert.deepEqual(lookUpSigner(file, alice.blob, NS, now), { principals: ['alice@example.com'] });
    const gitOnly = lookUpSigner(file, bob.blob, NS, now);
    assert.deepEqual(gitOnly.principals, []);
    assert.match(gitOnly.why ?? '', /only for "git"/);
    assert.match(lookUpSigner(file, carol.blob, NS, now).why ?? '', /only until 2026-06-01/);
    assert.deepEqual(lookUpSigner(file, carol.blob, NS, Date.UTC(2026, 0, 1)).principals, ['carol@example.com']);
    assert.deepEqual(lookUpSigner(file, nodeSshKey('ssh-ed25519').blob, NS, now), { principals: [] });
  });

  it('names the signer by the bundle’s own name only when the key’s principals include it', () => {
    assert.equal(signerName(['alice@example.com'], 'mallory'), 'alice@example.com');
    assert.equal(signerName(['alice@example.com,al@example.com'], 'al@example.com'), 'al@example.com');
    assert.equal(signerName(['*@example.com'], 'dana@example.com'), 'dana@example.com');
    assert.equal(signerName(['*@example.com,!eve@example.com'], 'eve@example.com'), '*@example.com');
    assert.equal(signerName(['*@example.com', 'frank'], 'mallory@evil.test'), 'frank');
  });

  it('matches pattern lists: wildcards, negation, whole text only', () => {
    assert.equal(matchesPatternList('git,combee-*', 'combee-bundle'), true);
    assert.equal(matchesPatternList('git,file', 'combee-bundle'), false);
    assert.equal(matchesPatternList('*,!combee-bundle', 'combee-bundle'), false);
    assert.equal(matchesPatternList('combee', 'combee-bundle'), false);
    assert.equal(matchesPatternList('a.c', 'abc'), false);
  });
});
