import { createHash } from 'node:crypto';

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function shortHash(text: string, length = 12): string {
  return sha256(text).slice(0, length);
}
