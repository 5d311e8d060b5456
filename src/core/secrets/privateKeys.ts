/**
 * Private key blocks of every kind (PKCS#1/#8 `RSA`/`EC`/`DSA`/`ENCRYPTED PRIVATE KEY`, `OPENSSH`, `PGP PRIVATE KEY
 * BLOCK`, PuTTY files), also half of one: a block cut in two by an earlier clip keeps its BEGIN line in one piece and
 * its END line in the other, and each piece's body is removed up to the cut. Scanned by hand, not by one regex, so a
 * long body costs one pass. Lines may be real or JSON-escaped (`\n`).
 */

export const PRIVATE_KEY_TAG = '[REDACTED:private-key]';

const BEGIN = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----/g;
const END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g;
/** Longest block looked for between a BEGIN and its END (an RSA 16384-bit key is about 13 KB). */
const MAX_BLOCK = 64 * 1024;
/** Characters of a key body: base64, armor headers (`Proc-Type: 4,ENCRYPTED`), line breaks. */
const BODY_CHAR = /[A-Za-z0-9+/=:,.\- \t\r\n\\]/;

interface Range {
  start: number;
  end: number;
}

/** The ranges of key material in `text`: whole blocks, BEGIN with the body after it, the body before an END. */
export function privateKeyRanges(text: string): Range[] {
  if (!text.includes('PRIVATE KEY') && !text.includes('PuTTY-User-Key-File')) return [];
  const ranges: Range[] = [];
  const ends: number[][] = [];
  END.lastIndex = 0;
  for (let m = END.exec(text); m; m = END.exec(text)) ends.push([m.index, m.index + m[0].length]);
  let endAt = 0;
  let covered = 0;
  BEGIN.lastIndex = 0;
  for (let m = BEGIN.exec(text); m; m = BEGIN.exec(text)) {
    if (m.index < covered) continue;
    while (endAt < ends.length && ends[endAt][0] < m.index) {
      // an END before this BEGIN, not closing an earlier block: the tail of a block cut before it
      if (ends[endAt][0] >= covered)
        ranges.push({ start: bodyStart(text, ends[endAt][0], covered), end: ends[endAt][1] });
      covered = ends[endAt][1];
      endAt++;
    }
    const bodyFrom = m.index + m[0].length;
    if (endAt < ends.length && ends[endAt][0] - bodyFrom <= MAX_BLOCK) {
      ranges.push({ start: m.index, end: ends[endAt][1] });
      covered = ends[endAt][1];
      endAt++;
    } else {
      const end = bodyEnd(text, bodyFrom);
      ranges.push({ start: m.index, end });
      covered = end;
    }
    BEGIN.lastIndex = Math.max(BEGIN.lastIndex, covered);
  }
  for (; endAt < ends.length; endAt++) {
    if (ends[endAt][0] < covered) continue;
    ranges.push({ start: bodyStart(text, ends[endAt][0], covered), end: ends[endAt][1] });
    covered = ends[endAt][1];
  }
  const putty = text.indexOf('PuTTY-User-Key-File');
  if (putty !== -1) {
    const marker = text.indexOf('Private-Lines:', putty);
    if (marker !== -1) ranges.push({ start: marker, end: bodyEnd(text, marker + 'Private-Lines:'.length) });
  }
  return ranges.sort((a, b) => a.start - b.start);
}

/** Where the body after a BEGIN line stops: the first character no key body has (or a cut marker). */
function bodyEnd(text: string, from: number): number {
  let i = from;
  const limit = Math.min(text.length, from + MAX_BLOCK);
  while (i < limit && BODY_CHAR.test(text[i])) i++;
  return i;
}

/** Where the body before an END line starts, going back no further than `floor`. */
function bodyStart(text: string, endLine: number, floor: number): number {
  let i = endLine;
  const limit = Math.max(floor, endLine - MAX_BLOCK);
  while (i > limit && BODY_CHAR.test(text[i - 1])) i--;
  return i;
}
