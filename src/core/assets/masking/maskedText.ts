import { builtInFinds } from '../../trace/redact';
import type { MaskedValue, ValueReader } from './maskedValue';
import { pathKey, showPath } from './secretNames';

// A config file as Combee stores it: the values its reader finds (env, headers, secret-named) replaced by a tag, then
// whatever secret the redactor still finds (in a comment, an argument list, a multi-line string, a file that can't be
// read) replaced by the redactor's tag. The real text is made again from the file on disk: each tagged value from the
// value at the same path there, in order; each redactor tag from the one at the same place in the order of them.

/** A tag the redactor leaves (the same pattern as the secrets engine's). */
const PLACEHOLDER = /\[REDACTED:[a-z0-9-]{1,60}\]/g;

interface Replacement {
  start: number;
  end: number;
  by: string;
}

function replaced(text: string, parts: readonly Replacement[]): string {
  const out: string[] = [];
  let at = 0;
  for (const part of [...parts].sort((a, b) => a.start - b.start)) {
    out.push(text.slice(at, part.start), part.by);
    at = part.end;
  }
  out.push(text.slice(at));
  return out.join('');
}

/** A file masked, with what each tag stands for in it. */
interface Masked {
  stored: string;
  /** Each tagged value's path and real text, in order. */
  values: Array<{ path: string; raw: string }>;
  /** Each redactor tag outside the tagged values, in order, and the text it stands for (itself when it was there). */
  leftovers: Array<{ tag: string; raw: string }>;
}

function masked(text: string, read: ValueReader): Masked {
  const found = read(text) ?? [];
  // the text with its values tagged, and where each tag is in it
  const tags: Array<{ start: number; end: number; value: MaskedValue }> = [];
  const pieces: string[] = [];
  let at = 0;
  let length = 0;
  for (const value of found) {
    const before = text.slice(at, value.start);
    pieces.push(before, value.tagged);
    length += before.length;
    tags.push({ start: length, end: length + value.tagged.length, value });
    length += value.tagged.length;
    at = value.end;
  }
  pieces.push(text.slice(at));
  const tagged = pieces.join('');
  /** A place in the tagged text (never inside a tag) as a place in the real one. */
  const real = (p: number): number => {
    let shift = 0;
    for (const t of tags) if (t.end <= p) shift = t.value.end - t.end;
    return p + shift;
  };
  const inTag = (s: number, e: number) => tags.some((t) => s < t.end && e > t.start);
  const finds = builtInFinds(tagged);
  const literal = [...tagged.matchAll(PLACEHOLDER)]
    .map((m) => ({ start: m.index, end: m.index + m[0].length, tag: m[0], raw: m[0] }))
    .filter((l) => !inTag(l.start, l.end) && !finds.some((f) => l.start < f.end && l.end > f.start));
  const leftovers = [
    ...finds.map((f) => ({
      start: f.start,
      end: f.end,
      tag: f.replacement,
      raw: text.slice(real(f.start), real(f.end)),
    })),
    ...literal,
  ].sort((a, b) => a.start - b.start);
  return {
    stored: replaced(
      tagged,
      finds.map((f) => ({ start: f.start, end: f.end, by: f.replacement })),
    ),
    values: found.map((v) => ({ path: pathKey(v.path), raw: text.slice(v.start, v.end) })),
    leftovers: leftovers.map(({ tag, raw }) => ({ tag, raw })),
  };
}

/** The text as Combee stores it. */
export function maskText(text: string, read: ValueReader): string {
  return masked(text, read).stored;
}

export type Unmasked = { text: string } | { problem: string };

/**
 * The stored text with the real values put back from `real` (the file as it is on disk), or why they can't be: a
 * tagged value whose path the file no longer has, or redactor tags that don't line up with the file's secrets.
 */
export function unmaskText(stored: string, real: string | undefined, read: ValueReader): Unmasked {
  const source = masked(real ?? '', read);
  const byPath = new Map<string, string[]>();
  for (const { path, raw } of source.values) byPath.set(path, [...(byPath.get(path) ?? []), raw]);
  const parts: Replacement[] = [];
  const values = read(stored) ?? [];
  for (const value of values) {
    if (stored.slice(value.start, value.end) !== value.tagged) continue;
    const raw = byPath.get(pathKey(value.path))?.shift();
    if (raw === undefined) return { problem: `its masked value ${showPath(value.path)} is no longer in the file` };
    parts.push({ start: value.start, end: value.end, by: raw });
  }
  const leftovers = [...stored.matchAll(PLACEHOLDER)].filter(
    (m) => !values.some((v) => m.index < v.end && m.index + m[0].length > v.start),
  );
  if (leftovers.length !== source.leftovers.length || leftovers.some((m, i) => m[0] !== source.leftovers[i].tag))
    return { problem: 'the secrets taken out of it no longer line up with the file' };
  leftovers.forEach((m, i) => parts.push({ start: m.index, end: m.index + m[0].length, by: source.leftovers[i].raw }));
  return { text: replaced(stored, parts) };
}
