import { createHash } from 'node:crypto';
import { publicKeyFromBlob, verifySshSignature, type SshPublicKey } from './publicKey';
import { SshFormatError, WireReader, WireWriter } from './wire';

// OpenSSH's detached signature format (PROTOCOL.sshsig), as `ssh-keygen -Y sign -n <namespace>` writes it and git's
// SSH signing uses: an armored blob holding the public key, the namespace, the hash algorithm and the signature over
// "SSHSIG" ‖ namespace ‖ reserved ‖ hash algorithm ‖ H(message). The namespace is part of what is signed, so a
// signature made for git (namespace "git") or for files ("file") can never pass as one made for another namespace.

const MAGIC = 'SSHSIG';
const VERSION = 1;
const BEGIN = '-----BEGIN SSH SIGNATURE-----';
const END = '-----END SSH SIGNATURE-----';
/** The hashes the format allows for H(message). */
export const SSHSIG_HASHES = ['sha256', 'sha512'] as const;
export type SshsigHash = (typeof SSHSIG_HASHES)[number];

export interface Sshsig {
  publicKey: SshPublicKey;
  namespace: string;
  hashAlgorithm: SshsigHash;
  /** The SSH signature blob (algorithm name, signature bytes). */
  signature: Buffer;
}

/** The armored text to the signature blob; throws SshFormatError when it is not one. */
export function parseSshsig(text: string): Sshsig {
  const trimmed = text.replace(/\r/g, '').trim();
  if (!trimmed.startsWith(BEGIN) || !trimmed.endsWith(END)) throw new SshFormatError('it is not an SSH signature');
  const body = trimmed.slice(BEGIN.length, trimmed.length - END.length).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body)) throw new SshFormatError('its armor is not base64');
  const wire = new WireReader(Buffer.from(body, 'base64'));
  if (wire.raw(MAGIC.length).toString('latin1') !== MAGIC) throw new SshFormatError('it has no SSHSIG preamble');
  const version = wire.uint32();
  if (version !== VERSION) throw new SshFormatError(`its version is ${version}, not ${VERSION}`);
  const publicKey = publicKeyFromBlob(wire.string());
  const namespace = wire.text();
  wire.string(); // reserved
  const hashAlgorithm = wire.text();
  const signature = wire.string();
  wire.end();
  if (!(SSHSIG_HASHES as readonly string[]).includes(hashAlgorithm))
    throw new SshFormatError(`its hash algorithm ${JSON.stringify(hashAlgorithm)} is not sha256 or sha512`);
  return { publicKey, namespace, hashAlgorithm: hashAlgorithm as SshsigHash, signature };
}

/** What the signer's key signed: the preamble, the namespace, an empty reserved field, the hash name and H(message). */
export function sshsigSignedData(namespace: string, hashAlgorithm: SshsigHash, messageDigest: Buffer): Buffer {
  return new WireWriter()
    .raw(MAGIC)
    .string(namespace)
    .string('')
    .string(hashAlgorithm)
    .string(messageDigest)
    .toBuffer();
}

/**
 * Whether `sig` is a valid signature in `namespace` over the message whose `hashAlgorithm` digest is given. A
 * signature made in another namespace is not valid (whatever its bytes). Throws UnsupportedKeyError for a key type
 * not checked here, SshFormatError for a malformed key or signature.
 */
export function verifySshsig(sig: Sshsig, namespace: string, messageDigest: Buffer): boolean {
  if (sig.namespace !== namespace) return false;
  return verifySshSignature(
    sig.publicKey,
    sig.signature,
    sshsigSignedData(namespace, sig.hashAlgorithm, messageDigest),
  );
}

/** The armored text of a signature blob (for tests and tools that sign without ssh-keygen). */
export function armorSshsig(publicKeyBlob: Buffer, namespace: string, hashAlgorithm: SshsigHash, signature: Buffer) {
  const blob = new WireWriter()
    .raw(MAGIC)
    .uint32(VERSION)
    .string(publicKeyBlob)
    .string(namespace)
    .string('')
    .string(hashAlgorithm)
    .string(signature)
    .toBuffer()
    .toString('base64');
  const lines = blob.match(/.{1,70}/g) ?? [];
  return `${BEGIN}\n${lines.join('\n')}\n${END}\n`;
}

export const digestOf = (hashAlgorithm: SshsigHash, message: Buffer) =>
  createHash(hashAlgorithm).update(message).digest();
