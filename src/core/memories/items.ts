// A memory file's text cut into memories: each bullet (with its indented continuation) or paragraph is one.
// Headings, front matter and index lines pointing at another memory file are structure, not memories.

export interface RawMemory {
  /** 1-based line where it starts. */
  line: number;
  text: string;
  /** The heading it sits under, if any: a shared file's `## acme-shop` says which project its memories are about. */
  heading?: string;
}

/** Longer than this, a "memory" is a pasted document rather than a lesson: left out (and counted). */
export const MAX_MEMORY_CHARS = 1200;

const BULLET = /^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+(.*)$/;
const HEADING = /^\s{0,3}#{1,6}(?:\s|$)/;
const FENCE = /^\s{0,3}(?:```|~~~)/;
/** `- [Testing](testing.md) — how the tests run`: Claude Code's index of its topic files, read on their own. */
const INDEX_LINE = /^\[[^\]]*\]\([^)]*\.md\)/i;

export function splitMemories(text: string): { memories: RawMemory[]; tooLong: number } {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const memories: RawMemory[] = [];
  let tooLong = 0;
  let current: RawMemory | undefined;
  let heading: string | undefined;
  const close = () => {
    if (!current) return;
    const flat = current.text.replace(/\s+/g, ' ').trim();
    if (flat.length > MAX_MEMORY_CHARS) tooLong++;
    else if (flat && !INDEX_LINE.test(flat))
      memories.push({ line: current.line, text: flat, ...(current.heading ? { heading: current.heading } : {}) });
    current = undefined;
  };
  let start = 0;
  // YAML front matter (Claude Code's topic files carry a name, a description and a type)
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
    if (end > 0) start = end + 1;
  }
  let inFence = false;
  for (let i = start; i < lines.length; i++) {
    const line = lines[i];
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      // a command block belongs to the memory it follows, as inline code
      const code = line.trim();
      // after a blank line, the block still belongs to the memory before it
      if (code && !current) current = memories.pop() ?? { line: i + 1, text: '' };
      if (code && current) current.text += ` \`${code}\``;
      continue;
    }
    if (line.trim() === '' || HEADING.test(line)) {
      close();
      if (HEADING.test(line)) heading = line.replace(/^\s*#+/, '').trim() || undefined;
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      close();
      current = { line: i + 1, text: bullet[1], heading };
    } else if (current) current.text += ` ${line.trim()}`;
    else current = { line: i + 1, text: line.trim(), heading };
  }
  close();
  return { memories, tooLong };
}

/** The lines under a `## title` heading, up to the next heading of the same or a higher level. */
export function sectionText(text: string, title: string): string | undefined {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const at = lines.findIndex((l) => /^##\s/.test(l) && l.replace(/^##\s+/, '').trim() === title);
  if (at === -1) return undefined;
  const end = lines.findIndex((l, i) => i > at && /^#{1,2}\s/.test(l));
  // the lines before it stay blank, so line numbers still point into the file
  return [...lines.slice(0, at + 1).map(() => ''), ...lines.slice(at + 1, end === -1 ? undefined : end)].join('\n');
}
