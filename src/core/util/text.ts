/** Cuts long text in the middle, keeping its head and tail, so both the command and its final error survive. */
export function clipMiddle(text: string, maxChars: number): { text: string; truncatedFrom?: number } {
  if (text.length <= maxChars) return { text };
  const keep = Math.max(0, maxChars - 40);
  const head = Math.ceil(keep * 0.4);
  const tail = keep - head;
  const cut = text.length - head - tail;
  // Slices of `text` would keep all of it alive (V8 sliced strings): the clipped text is copied into a flat string.
  const clipped = `${text.slice(0, head)}\n[… ${cut} characters cut …]\n${text.slice(text.length - tail)}`;
  return { text: flat(clipped), truncatedFrom: text.length };
}

export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function firstLine(text: string, max = 200): string {
  const line = text.split('\n').find((l) => l.trim().length > 0)?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A copy of `text` that shares no memory with the string it was cut from. */
function flat(text: string): string {
  // slicing a concatenation flattens it into a new string first
  return ` ${text}`.slice(1);
}
