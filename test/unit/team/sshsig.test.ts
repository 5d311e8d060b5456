import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UnsupportedKeyError } from '../../../src/core/team/ssh/publicKey';
import { armorSshsig, digestOf, parseSshsig, verifySshsig } from '../../../src/core/team/ssh/sshsig';
import { SshFormatError, WireReader, WireWriter } from '../../../src/core/team/ssh/wire';
import {
  keygenKey,
  keygenSign,
  keygenVerifies,
  nodeSshKey,
  nodeSshsig,
  sshKeygen,
  type NodeKeyType,
} from '../../support/sshSigning';
import { tempDir } from '../../../testing/tmp';

const NS = 'combee-bundle';
const message = Buffer.from('a bundle\u0000with bytes\n'.repeat(50));
/** The armored signature with its hash-algorithm field replaced. */
function sshsigWithHash(armored: string, hash: string): string {
  const p = parseSshsig(armored);
  const blob = new WireWriter()
    .raw('SSHSIG')
    .uint32(1)
    .string(p.publicKey.blob)
    .string(p.namespace)
    .string('')
    .string(hash)
    .string(p.signature)
    .toBuffer();
  return `-----BEGIN SSH SIGNATURE-----\n${blob.toString('base64')}\n-----END SSH SIGNATURE-----\n`;
}
const verifies = (armored: string, body: Buffer, namespace = NS) => {
  const sig = parseSshsig(armored);
  return verifySshsig(sig, namespace, digestOf(sig.hashAlgorithm, body));
};

describe('SSH signatures (SSHSIG), verified in Node', () => {
  for (const type of ['ssh-ed25519', 'ecdsa-sha2-nistp256', 'ssh-rsa'] as NodeKeyType[]) {
    it(`${type}: a signature verifies over its message only`, () => {
      const key = nodeSshKey(type);
      const armored = nodeSshsig(key, message, NS);
      assert.equal(parseSshsig(armored).publicKey.type, type);
      assert.equal(verifies(armored, message), true);
      const changed = Buffer.from(message);
      changed[10] ^= 1;
      assert.equal(verifies(armored, changed), false);
      assert.equal(verifies(armored, Buffer.concat([message, Buffer.from('\n')])), false);
    });
  }

  it('a signature made in another namespace never verifies in this one, even relabelled', () => {
    const key = nodeSshKey('ssh-ed25519');
    const gitSig = nodeSshsig(key, message, 'git');
    assert.equal(verifies(gitSig, message, 'git'), true);
    assert.equal(verifies(gitSig, message, NS), false);
    // the same signature bytes with the namespace field rewritten: the namespace is part of what was signed
    const parsed = parseSshsig(gitSig);
    const relabelled = armorSshsig(parsed.publicKey.blob, NS, parsed.hashAlgorithm, parsed.signature);
    assert.equal(verifies(relabelled, message), false);
  });

  it('sha256 message hashes verify too; a key swapped in for the signer does not', () => {
    const key = nodeSshKey('ssh-ed25519');
    const armored = nodeSshsig(key, message, NS, 'sha256');
    assert.equal(parseSshsig(armored).hashAlgorithm, 'sha256');
    assert.equal(verifies(armored, message), true);
    const other = nodeSshKey('ssh-ed25519');
    const parsed = parseSshsig(armored);
    assert.equal(verifies(armorSshsig(other.blob, NS, 'sha256', parsed.signature), message), false);
  });

  it('malformed input is an SshFormatError, an unknown key type an UnsupportedKeyError, never a crash', () => {
    const good = nodeSshsig(nodeSshKey('ssh-ed25519'), message, NS);
    const cases = [
      '',
      'not a signature',
      '-----BEGIN SSH SIGNATURE-----\n!!!!\n-----END SSH SIGNATURE-----',
      '-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----',
      good.replace(/\n([A-Za-z0-9+/]{20})/, '\n'),
    ];
    for (const text of cases) assert.throws(() => verifies(text, message), SshFormatError, JSON.stringify(text));
    const parsed = parseSshsig(good);
    const trailing = armorSshsig(
      parsed.publicKey.blob,
      NS,
      'sha512',
      Buffer.concat([parsed.signature, Buffer.from([0])]),
    );
    assert.throws(() => verifies(trailing, message), SshFormatError);
    const dsaBlob = new WireWriter().string('ssh-dss').string(randomBytes(8)).toBuffer();
    const dsa = armorSshsig(
      dsaBlob,
      NS,
      'sha512',
      new WireWriter().string('ssh-dss').string(randomBytes(40)).toBuffer(),
    );
    assert.throws(() => verifies(dsa, message), UnsupportedKeyError);
    const md5 = sshsigWithHash(good, 'md5');
    assert.throws(() => verifies(md5, message), SshFormatError);
    // a wire reader never reads past its bytes
    assert.throws(() => new WireReader(Buffer.from([0, 0, 1, 0, 1])).string(), SshFormatError);
  });

  it('the fingerprint is the one ssh-keygen prints (SHA256:, unpadded base64)', () => {
    const key = nodeSshKey('ssh-ed25519');
    assert.match(parseSshsig(nodeSshsig(key, message, NS)).publicKey.fingerprint, /^SHA256:[A-Za-z0-9+/]{43}$/);
  });
});

describe('SSH signatures agree with ssh-keygen', function () {
  before(function () {
    if (!sshKeygen()) {
      console.log('    (ssh-keygen is not installed: these interoperability tests are skipped)');
      this.skip();
    }
  });

  for (const type of ['ed25519', 'ecdsa', 'rsa'] as const) {
    it(`${type}: what ssh-keygen -Y sign writes verifies here, and a changed file does not`, () => {
      const dir = tempDir('combee-sshsig-');
      const key = keygenKey(dir, `id_${type}`, type);
      const file = join(dir, 'bundle');
      writeFileSync(file, message);
      keygenSign(key.path, file, NS);
      const armored = readFileSync(`${file}.sig`, 'utf8');
      assert.equal(parseSshsig(armored).publicKey.fingerprint.startsWith('SHA256:'), true);
      assert.equal(verifies(armored, message), true);
      assert.equal(verifies(armored, Buffer.concat([message, Buffer.from('x')])), false);
      assert.equal(verifies(armored, message, 'git'), false);
    });
  }

  it('what Node signs here ssh-keygen -Y verify accepts (the format is built as OpenSSH builds it)', () => {
    const dir = tempDir('combee-sshsig-');
    const file = join(dir, 'bundle');
    writeFileSync(file, message);
    for (const type of ['ssh-ed25519', 'ecdsa-sha2-nistp256', 'ssh-rsa'] as NodeKeyType[]) {
      const key = nodeSshKey(type);
      writeFileSync(join(dir, 'allowed'), `alice ${key.publicLine}\n`);
      writeFileSync(`${file}.sig`, nodeSshsig(key, message, NS));
      assert.equal(keygenVerifies(join(dir, 'allowed'), 'alice', NS, file), true, type);
      assert.equal(keygenVerifies(join(dir, 'allowed'), 'alice', 'git', file), false, type);
    }
  });
});
