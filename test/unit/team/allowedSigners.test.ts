import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  lookUpSigner,
  MAX_ALLOWED_SIGNERS_BYTES,
  matchesPatternList,
  parseAllowedSigners,
  signerName,
} from '../../../src/core/team/allowedSigners';
import { chooseAllowedSigners, loadAllowedSigners } from '../../../src/core/team/allowedSignersSource';
import { nodeSshKey } from '../../support/sshSigning';
import { tempDir } from '../../../testing/tmp';
import { withGitConfig } from '../../support/gitConfig';

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

describe('which allowed-signers file is read', () => {
  it("never the repository's own .git/config: only the user's setting or global git config", async () => {
    const root = tempDir('combee-signers-');
    const workspace = join(root, 'repo');
    mkdirSync(workspace);
    execFileSync('git', ['init', '-q', workspace]);
    writeFileSync(join(workspace, 'keys'), `mallory ${alice.publicLine}\n`);
    execFileSync('git', ['-C', workspace, 'config', 'gpg.ssh.allowedSignersFile', join(workspace, 'keys')]);
    const none = join(root, 'empty.gitconfig');
    writeFileSync(none, '');
    assert.equal(await withGitConfig(none, () => chooseAllowedSigners(workspace)), undefined);

    const global = join(root, 'user.gitconfig');
    writeFileSync(global, '[gpg "ssh"]\n\tallowedSignersFile = .github/allowed_signers\n');
    mkdirSync(join(workspace, '.github'));
    assert.deepEqual(await withGitConfig(global, () => chooseAllowedSigners(workspace)), {
      path: join(workspace, '.github', 'allowed_signers'),
      from: 'git config global gpg.ssh.allowedSignersFile',
    });
    // the user's setting comes first; a relative path that leaves the workspace is refused
    const setting = { value: '../elsewhere/allowed', from: 'combee.team.allowedSigners' };
    assert.match(
      String(await withGitConfig(global, () => chooseAllowedSigners(workspace, setting))),
      /combee\.team\.allowedSigners: "\.\.\/elsewhere\/allowed" leads outside the workspace folder/,
    );
    const home = await chooseAllowedSigners(workspace, { value: '~/.ssh/allowed_signers', from: 'setting' });
    assert.deepEqual(home, { path: join(homedir(), '.ssh', 'allowed_signers'), from: 'setting' });
  });

  it('a missing or oversized file is a reason, not a throw', async () => {
    const root = tempDir('combee-signers-');
    assert.match(String(await loadAllowedSigners({ path: join(root, 'nope'), from: 'x' })), /no such file/);
    const big = join(root, 'big');
    writeFileSync(big, Buffer.alloc(MAX_ALLOWED_SIGNERS_BYTES + 1, 0x20));
    assert.match(String(await loadAllowedSigners({ path: big, from: 'x' })), /larger than/);
    const ok = join(root, 'ok');
    writeFileSync(ok, `alice ${alice.publicLine}\n`);
    const loaded = await loadAllowedSigners({ path: ok, from: 'x' });
    assert.equal(typeof loaded === 'string' ? loaded : loaded.signers.length, 1);
  });
});

describe('principal patterns', () => {
  it("match as OpenSSH's wildcards do", () => {
    assert.ok(matchesPatternList('*@example.com', 'alice@example.com'));
    assert.ok(matchesPatternList('al?ce@*', 'alice@example.org'));
    assert.ok(!matchesPatternList('al?ce@*', 'allice@example.org'));
    assert.ok(!matchesPatternList('*@example.com,!bob@*', 'bob@example.com'));
    assert.ok(matchesPatternList('a*b*c', 'aXbYbZc'));
    assert.ok(!matchesPatternList('a*b*c', 'aXbYbZ'));
    assert.ok(matchesPatternList('*', ''));
    assert.ok(matchesPatternList('a.b+c', 'a.b+c') && !matchesPatternList('a.b+c', 'aXb+c'));
  });

  it('answer a pattern with many wildcards against a long principal at once (a regular expression backtracks for ever)', () => {
    const pattern = `${'*a'.repeat(40)}*b`;
    assert.equal(matchesPatternList(pattern, 'a'.repeat(5000)), false);
    assert.equal(matchesPatternList(pattern, `${'a'.repeat(5000)}b`), true);
  });
});
