import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { lookUpSigner, signerName, type AllowedSigners } from './allowedSigners';
import { BundleError } from './bundle';
import { cleanName } from './portable';
import { UnsupportedKeyError } from './ssh/publicKey';
import { parseSshsig, verifySshsig, type SshsigHash } from './ssh/sshsig';
import { SshFormatError } from './ssh/wire';

// A bundle's optional signature: `<bundle>.sig` beside it, made by `ssh-keygen -Y sign -n combee-bundle -f <key>
// <bundle>` (Combee never holds a private key). It covers the bundle file's bytes as written, header included (who
// exported it, when, from where), not only the sessions the trailer's checksum covers. A signature that verifies with
// a key the user's allowed-signers file lists makes its principal the bundle's contributor, shown as verified; any
// other bundle's name is self-declared. Signing says who sent a bundle, never that what it says is safe: its sessions
// stay team evidence, screened and flagged as any bundle's.

/** Signatures for bundles are made in this namespace only: a git commit or file signature cannot stand in for one. */
export const BUNDLE_SIGNATURE_NAMESPACE = 'combee-bundle';
export const SIGNATURE_SUFFIX = '.sig';
/** An armored signature is a few hundred bytes (RSA-16384: about 5 KB). */
export const MAX_SIGNATURE_BYTES = 64 * 1024;

export type BundleSignature =
  | { status: 'unsigned' }
  /** A `.sig` that is no signature Combee can check: the bundle is read as unsigned, with a warning. */
  | { status: 'unreadable'; why: string }
  /** A valid signature by a key the allowed signers do not list (or no allowed-signers file is set). */
  | { status: 'unverified'; key: string; why: string }
  | { status: 'verified'; key: string; principals: string[] };

export interface SignatureCheckOptions {
  /** The user's allowed signers; absent: none set, so no signature counts as verified. */
  allowedSigners?: AllowedSigners;
  /** The time the key must be valid at (ms): the import's, never the bundle's own claim. */
  now: number;
}

async function fileDigest(path: string, algorithm: SshsigHash): Promise<Buffer> {
  const hash = createHash(algorithm);
  await pipeline(createReadStream(path), hash);
  return hash.digest();
}

/**
 * Checks `<path>.sig` against the bundle at `path`. Refuses the bundle (BundleError) when a readable signature does
 * not verify: the bundle changed after it was signed, or the signature was made for something else.
 */
export async function checkBundleSignature(path: string, options: SignatureCheckOptions): Promise<BundleSignature> {
  const sigPath = `${path}${SIGNATURE_SUFFIX}`;
  const info = await lstat(sigPath).catch(() => undefined);
  if (!info) return { status: 'unsigned' };
  // the file beside a bundle is read, never one a link leads to
  if (!info.isFile()) return { status: 'unreadable', why: `${SIGNATURE_SUFFIX} is not a regular file` };
  if (info.size > MAX_SIGNATURE_BYTES)
    return { status: 'unreadable', why: `${SIGNATURE_SUFFIX} is larger than ${MAX_SIGNATURE_BYTES} bytes` };
  let valid: boolean;
  let sig;
  try {
    sig = parseSshsig(await readFile(sigPath, 'latin1'));
    if (sig.namespace !== BUNDLE_SIGNATURE_NAMESPACE)
      throw new BundleError(
        path,
        `its signature was made for ${JSON.stringify(sig.namespace)}, not ${JSON.stringify(BUNDLE_SIGNATURE_NAMESPACE)} (a signature made for something else)`,
      );
    valid = verifySshsig(sig, BUNDLE_SIGNATURE_NAMESPACE, await fileDigest(path, sig.hashAlgorithm));
  } catch (error) {
    if (error instanceof SshFormatError || error instanceof UnsupportedKeyError)
      return { status: 'unreadable', why: `${SIGNATURE_SUFFIX} is not a signature Combee can check: ${error.message}` };
    throw error;
  }
  const key = sig.publicKey.fingerprint;
  if (!valid)
    throw new BundleError(
      path,
      `its signature (key ${key}) does not match it: it changed after it was signed, or the signature is forged`,
    );
  const allowed = options.allowedSigners;
  if (!allowed) return { status: 'unverified', key, why: 'no allowed-signers file is set' };
  const found = lookUpSigner(allowed, sig.publicKey.blob, BUNDLE_SIGNATURE_NAMESPACE, options.now);
  if (found.principals.length === 0)
    return { status: 'unverified', key, why: `${allowed.source}: ${found.why ?? 'the key is not listed'}` };
  return { status: 'verified', key, principals: found.principals };
}

/** Who a bundle's sessions are from: the verified signer's principal, else the exporter's self-declared name. */
export function signedContributor(
  signature: BundleSignature,
  exportedBy: string,
): { contributor: string; signedBy?: string } {
  if (signature.status !== 'verified') return { contributor: exportedBy };
  // principals come from a file a repository may hold: cleaned as any name from elsewhere
  const name = cleanName(signerName(signature.principals, exportedBy)) || 'unknown';
  return { contributor: name, signedBy: name };
}

/** The warning an import reports for a signature that does not make its signer verified; none for the others. */
export function signatureWarning(signature: BundleSignature): string | undefined {
  if (signature.status === 'unreadable')
    return `${signature.why}: read as unsigned (its exporter's name is self-declared)`;
  if (signature.status === 'unverified')
    return `signed with key ${signature.key}, not verified (${signature.why}): its exporter's name is self-declared`;
  return undefined;
}

/** How an import names who a bundle is from: "signed by alice (verified)" or "exported by bob (self-declared)". */
export function describeSigner(signature: BundleSignature, exportedBy: string): string {
  const { signedBy } = signedContributor(signature, exportedBy);
  if (signedBy === undefined) return `exported by ${exportedBy} (self-declared)`;
  return signedBy === exportedBy
    ? `signed by ${signedBy} (verified)`
    : `signed by ${signedBy} (verified; exported as ${exportedBy})`;
}
