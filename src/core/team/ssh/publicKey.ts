import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { SshFormatError, WireReader } from './wire';

// SSH public keys as signatures and allowed-signers files carry them (the wire blob), turned into Node key objects,
// and the signature check for each key type. Types Combee cannot check (security keys, certificates, DSA, SHA-1 RSA)
// are named as unsupported, never guessed at.

/** A key type or signature algorithm Combee does not check. */
export class UnsupportedKeyError extends Error {
  constructor(readonly type: string) {
    super(`key type ${JSON.stringify(type)} is not supported (ssh-ed25519, ecdsa-sha2-nistp256/384/521, RSA are)`);
    this.name = 'UnsupportedKeyError';
  }
}

export interface SshPublicKey {
  type: string;
  /** The wire blob: what an allowed-signers line and a signature both hold, compared byte for byte. */
  blob: Buffer;
  /** As ssh-keygen prints it: `SHA256:` and the unpadded base64 of the blob's SHA-256. */
  fingerprint: string;
}

const CURVES: Record<string, { name: string; jwk: string; hash: string; size: number }> = {
  'ecdsa-sha2-nistp256': { name: 'nistp256', jwk: 'P-256', hash: 'sha256', size: 32 },
  'ecdsa-sha2-nistp384': { name: 'nistp384', jwk: 'P-384', hash: 'sha384', size: 48 },
  'ecdsa-sha2-nistp521': { name: 'nistp521', jwk: 'P-521', hash: 'sha512', size: 66 },
};
/** RSA signature algorithms and their hashes: plain `ssh-rsa` (SHA-1) is refused, as OpenSSH does for signatures. */
const RSA_HASHES: Record<string, string> = { 'rsa-sha2-256': 'sha256', 'rsa-sha2-512': 'sha512' };
const MIN_RSA_BITS = 1024;

const b64url = (bytes: Buffer) => bytes.toString('base64url');

export function fingerprintOf(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** The key's type as its blob names it; throws SshFormatError for no key blob at all. */
export function publicKeyFromBlob(blob: Buffer): SshPublicKey {
  const type = new WireReader(blob).text();
  return { type, blob, fingerprint: fingerprintOf(blob) };
}

/** A Node key object for the blob; throws UnsupportedKeyError or SshFormatError. */
function keyObjectOf(key: SshPublicKey): KeyObject {
  const wire = new WireReader(key.blob);
  wire.text();
  try {
    if (key.type === 'ssh-ed25519') {
      const x = wire.string();
      wire.end();
      if (x.length !== 32) throw new SshFormatError('its ed25519 key is not 32 bytes');
      return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: b64url(x) }, format: 'jwk' });
    }
    const curve = CURVES[key.type];
    if (curve) {
      if (wire.text() !== curve.name) throw new SshFormatError('its curve does not match its key type');
      const point = wire.string();
      wire.end();
      if (point.length !== 1 + 2 * curve.size || point[0] !== 0x04)
        throw new SshFormatError('its ECDSA point is not an uncompressed point of its curve');
      const x = point.subarray(1, 1 + curve.size);
      const y = point.subarray(1 + curve.size);
      return createPublicKey({ key: { kty: 'EC', crv: curve.jwk, x: b64url(x), y: b64url(y) }, format: 'jwk' });
    }
    if (key.type === 'ssh-rsa') {
      const e = wire.positiveMpint();
      const n = wire.positiveMpint();
      wire.end();
      if (n.length * 8 < MIN_RSA_BITS) throw new SshFormatError(`its RSA key is shorter than ${MIN_RSA_BITS} bits`);
      return createPublicKey({ key: { kty: 'RSA', n: b64url(n), e: b64url(e) }, format: 'jwk' });
    }
  } catch (error) {
    if (error instanceof SshFormatError) throw error;
    // OpenSSL refused the numbers (a point off the curve, say)
    throw new SshFormatError(`its key is not a valid ${key.type} key`);
  }
  throw new UnsupportedKeyError(key.type);
}

/** ECDSA's (mpint r, mpint s) as the fixed-width r‖s Node checks. */
function ecdsaSignature(inner: Buffer, size: number): Buffer {
  const wire = new WireReader(inner);
  const r = wire.positiveMpint();
  const s = wire.positiveMpint();
  wire.end();
  if (r.length > size || s.length > size) throw new SshFormatError('its ECDSA signature is too long');
  const out = Buffer.alloc(2 * size);
  r.copy(out, size - r.length);
  s.copy(out, 2 * size - s.length);
  return out;
}

/**
 * Whether `signature` (an SSH signature blob: algorithm name, then its bytes) by `key` is valid over `data`.
 * Throws UnsupportedKeyError for a type or algorithm not checked here, SshFormatError for a malformed key or blob.
 */
export function verifySshSignature(key: SshPublicKey, signature: Buffer, data: Buffer): boolean {
  const wire = new WireReader(signature);
  const algorithm = wire.text();
  const bytes = wire.string();
  wire.end();
  const object = keyObjectOf(key);
  if (key.type === 'ssh-ed25519') {
    if (algorithm !== 'ssh-ed25519') throw new SshFormatError('its signature algorithm does not match its key');
    return bytes.length === 64 && verify(null, data, object, bytes);
  }
  const curve = CURVES[key.type];
  if (curve) {
    if (algorithm !== key.type) throw new SshFormatError('its signature algorithm does not match its key');
    return verify(curve.hash, data, { key: object, dsaEncoding: 'ieee-p1363' }, ecdsaSignature(bytes, curve.size));
  }
  // RSA (keyObjectOf threw for every other type)
  const hash = RSA_HASHES[algorithm];
  if (!hash) throw new UnsupportedKeyError(algorithm);
  const modulus = (object.asymmetricKeyDetails?.modulusLength ?? 0) / 8;
  if (bytes.length > modulus) return false;
  // a signature may come without its leading zero bytes
  const padded = Buffer.concat([Buffer.alloc(modulus - bytes.length), bytes]);
  return verify(hash, data, object, padded);
}
