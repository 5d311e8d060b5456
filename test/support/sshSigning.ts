import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { armorSshsig, digestOf, sshsigSignedData, type SshsigHash } from '../../src/core/team/ssh/sshsig';
import { WireWriter } from '../../src/core/team/ssh/wire';

// Signing as `ssh-keygen -Y sign` does, in Node alone (so verification is tested where ssh-keygen is absent), and
// ssh-keygen itself where it is installed (so both agree with OpenSSH).

export type NodeKeyType = 'ssh-ed25519' | 'ecdsa-sha2-nistp256' | 'ssh-rsa';

export interface NodeSshKey {
  type: NodeKeyType;
  privateKey: KeyObject;
  /** The public key's wire blob. */
  blob: Buffer;
  /** As a `.pub` file or an allowed-signers line has it: `<type> <base64>`. */
  publicLine: string;
}

const fromB64url = (text: string | undefined) => Buffer.from(text ?? '', 'base64url');

export function nodeSshKey(type: NodeKeyType): NodeSshKey {
  const wire = new WireWriter().string(type);
  let privateKey: KeyObject;
  if (type === 'ssh-ed25519') {
    const pair = generateKeyPairSync('ed25519');
    privateKey = pair.privateKey;
    wire.string(fromB64url(pair.publicKey.export({ format: 'jwk' }).x));
  } else if (type === 'ecdsa-sha2-nistp256') {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    privateKey = pair.privateKey;
    const jwk = pair.publicKey.export({ format: 'jwk' });
    wire.string('nistp256').string(Buffer.concat([Buffer.from([4]), fromB64url(jwk.x), fromB64url(jwk.y)]));
  } else {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    privateKey = pair.privateKey;
    const jwk = pair.publicKey.export({ format: 'jwk' });
    wire.mpint(fromB64url(jwk.e)).mpint(fromB64url(jwk.n));
  }
  const blob = wire.toBuffer();
  return { type, privateKey, blob, publicLine: `${type} ${blob.toString('base64')}` };
}

/** An armored SSHSIG of `message` by `key` in `namespace`, built as ssh-keygen builds it. */
export function nodeSshsig(key: NodeSshKey, message: Buffer, namespace: string, hash: SshsigHash = 'sha512'): string {
  const data = sshsigSignedData(namespace, hash, digestOf(hash, message));
  let signature: Buffer;
  if (key.type === 'ssh-ed25519')
    signature = new WireWriter()
      .string('ssh-ed25519')
      .string(sign(null, data, key.privateKey))
      .toBuffer();
  else if (key.type === 'ecdsa-sha2-nistp256') {
    const rs = sign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
    const inner = new WireWriter().mpint(rs.subarray(0, 32)).mpint(rs.subarray(32)).toBuffer();
    signature = new WireWriter().string(key.type).string(inner).toBuffer();
  } else
    signature = new WireWriter()
      .string('rsa-sha2-512')
      .string(sign('sha512', data, key.privateKey))
      .toBuffer();
  return armorSshsig(key.blob, namespace, hash, signature);
}

const SSH_KEYGEN = ['/usr/bin/ssh-keygen', '/usr/local/bin/ssh-keygen', '/opt/homebrew/bin/ssh-keygen'].find((p) =>
  existsSync(p),
);

/** ssh-keygen's path, or undefined on a machine without OpenSSH (the tests that need it say so and skip). */
export const sshKeygen = (): string | undefined => SSH_KEYGEN;

/** A new key pair made by ssh-keygen in `dir`: the private key's path and the public line. */
export function keygenKey(
  dir: string,
  name: string,
  type: 'ed25519' | 'ecdsa' | 'rsa',
): { path: string; publicLine: string } {
  const path = join(dir, name);
  execFileSync(SSH_KEYGEN!, ['-q', '-t', type, '-N', '', '-C', name, '-f', path]);
  const [keyType, base64] = readFileSync(`${path}.pub`, 'utf8').trim().split(/\s+/);
  return { path, publicLine: `${keyType} ${base64}` };
}

/** `ssh-keygen -Y sign -n <namespace> -f <key> <file>`: writes `<file>.sig`. */
export function keygenSign(key: string, file: string, namespace: string): void {
  execFileSync(SSH_KEYGEN!, ['-q', '-Y', 'sign', '-n', namespace, '-f', key, file], { stdio: 'pipe' });
}

/** Whether `ssh-keygen -Y verify` accepts `<file>.sig` as `principal`'s, in `namespace`. */
export function keygenVerifies(allowedSigners: string, principal: string, namespace: string, file: string): boolean {
  try {
    execFileSync(
      SSH_KEYGEN!,
      ['-Y', 'verify', '-f', allowedSigners, '-I', principal, '-n', namespace, '-s', `${file}.sig`],
      { input: readFileSync(file), stdio: ['pipe', 'pipe', 'pipe'] },
    );
    return true;
  } catch {
    return false;
  }
}
