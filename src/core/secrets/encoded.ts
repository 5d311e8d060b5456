/**
 * Secrets hidden by an encoding: base64 runs that decode to text, and %-encoded runs (`password%3Dhunter2%26`). A run
 * whose decoded text holds a secret is replaced as a whole. Cheap when there is nothing to decode: the keyword scan
 * hands over the base64 runs of 24+ characters it saw and whether a `%XX` escape occurs.
 */

export const ENCODED_TAGS = { base64: '[REDACTED:base64-secret]', url: '[REDACTED:url-encoded-secret]' } as const;

export interface EncodedSpan {
  start: number;
  end: number;
  kind: 'base64' | 'url';
}

/** Longest run decoded (a bigger one is data: an image, an archive). */
const MAX_RUN = 64 * 1024;

/** The encoded runs of `text` whose decoded text `holdsSecret`. `base64` holds [start, end) pairs. */
export function encodedSpans(
  text: string,
  base64: readonly number[],
  percent: boolean,
  holdsSecret: (decoded: string) => boolean,
): EncodedSpan[] {
  const spans: EncodedSpan[] = [];
  if (percent) urlEncoded(text, holdsSecret, spans);
  for (let i = 0; i < base64.length; i += 2) {
    const [start, end] = [base64[i], base64[i + 1]];
    if (end - start > MAX_RUN) continue;
    const decoded = printable(Buffer.from(text.slice(start, end), 'base64'));
    if (decoded !== undefined && holdsSecret(decoded)) spans.push({ start, end, kind: 'base64' });
  }
  return spans;
}

/** The bytes as text when they are text (UTF-8, almost all printable), else undefined. */
function printable(bytes: Buffer): string | undefined {
  if (bytes.length < 12) return undefined;
  let bad = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f) bad++;
  }
  if (bad > bytes.length / 20) return undefined;
  const text = bytes.toString('utf8');
  return text.includes('\ufffd') ? undefined : text;
}

/** Characters of one encoded piece; `/ ? & = : @` (unencoded) end it, so a secret takes its parameter, not its whole URL. */
const URL_CHAR = /[A-Za-z0-9._~!*'()+;,%$-]/;
function urlEncoded(text: string, holdsSecret: (decoded: string) => boolean, spans: EncodedSpan[]): void {
  // its own expression: `holdsSecret` decodes recursively and must not move this loop's position
  const ESCAPE = /%[0-9A-Fa-f]{2}/g;
  let floor = 0;
  for (let m = ESCAPE.exec(text); m; m = ESCAPE.exec(text)) {
    let start = m.index;
    let end = m.index + 3;
    while (start > floor && URL_CHAR.test(text[start - 1])) start--;
    while (end < text.length && URL_CHAR.test(text[end])) end++;
    ESCAPE.lastIndex = end;
    floor = end;
    const run = text.slice(start, end);
    // `+` is a space only in form data: the run is tried both ways
    if (holdsSecret(decodePercent(run)) || (run.includes('+') && holdsSecret(decodePercent(run.replace(/\+/g, ' ')))))
      spans.push({ start, end, kind: 'url' });
  }
}

function decodePercent(run: string): string {
  try {
    return decodeURIComponent(run);
  } catch {
    // a stray % or a lone byte of a UTF-8 sequence: decode what can be
    return run.replace(/%[0-9A-Fa-f]{2}/g, (e) => String.fromCharCode(parseInt(e.slice(1), 16)));
  }
}
