/** Cuts long text in the middle, keeping its head and tail, so both the command and its final error survive. */
export function clipMiddle(text: string, maxChars: number): { text: string; truncatedFrom?: number } {
  if (text.length <= maxChars) return { text };
  const keep = Math.max(0, maxChars - 40);
  const head = Math.ceil(keep * 0.4);
  const tail = keep - head;
  const cut = text.length - head - tail;
  return { text: `${text.slice(0, head)}\n[… ${cut} characters cut …]\n${text.slice(text.length - tail)}`, truncatedFrom: text.length };
}

export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function firstLine(text: string, max = 200): string {
  const line = text.split('\n').find((l) => l.trim().length > 0)?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
