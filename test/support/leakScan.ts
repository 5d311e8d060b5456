import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir`, recursively, as [path, text]. */
export function filesUnder(dir: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push([p, readFileSync(p, 'latin1')]);
    }
  };
  walk(dir);
  return out;
}

const GRAM = 8;

/**
 * Finds any 8-character piece of any needle in a text, with a rolling hash over the text (a 20 MB store scans in
 * well under a second); `owner` names whose needle a piece belongs to.
 */
export class LeakScanner {
  private readonly grams = new Map<number, Array<[string, string]>>();
  private readonly needles: string[];

  constructor(needles: Array<{ owner: string; needle: string }>) {
    this.needles = needles.map((n) => n.needle);
    for (const { owner, needle } of needles) {
      for (let i = 0; i + GRAM <= needle.length; i++) {
        const gram = needle.slice(i, i + GRAM);
        const h = hash(gram, 0);
        const list = this.grams.get(h) ?? [];
        list.push([gram, owner]);
        this.grams.set(h, list);
      }
    }
  }

  /** The pieces found in `text`, as `owner: piece` (at most `limit`). */
  scan(text: string, limit = 20): string[] {
    const found: string[] = [];
    if (text.length < GRAM) return found;
    for (let i = 0; i + GRAM <= text.length && found.length < limit; i++) {
      const list = this.grams.get(hash(text, i));
      if (!list) continue;
      for (const [gram, owner] of list)
        if (text.startsWith(gram, i) && !inUnrelatedDigest(text, i, gram, this.needles))
          found.push(`${owner}: ${gram} at ${i} in …${text.slice(Math.max(0, i - 80), i + 40)}…`);
    }
    return found;
  }
}

function hash(text: string, at: number): number {
  let h = 0;
  for (let j = 0; j < GRAM; j++) h = (Math.imul(h, 31) + text.charCodeAt(at + j)) | 0;
  return h;
}

/**
 * A hex piece of a hex needle inside a SHA-256 digest the store keeps (a file's fingerprint): 8 of its 64 hex
 * characters match some planted hex token now and then by chance. A digest no needle contains is no leak.
 */
function inUnrelatedDigest(text: string, at: number, gram: string, needles: readonly string[]): boolean {
  if (!/^[0-9a-f]+$/.test(gram)) return false;
  let start = at;
  let end = at + gram.length;
  while (start > 0 && /[0-9a-f]/.test(text[start - 1])) start--;
  while (end < text.length && /[0-9a-f]/.test(text[end])) end++;
  const run = text.slice(start, end);
  return run.length === 64 && !needles.some((needle) => needle.includes(run));
}
