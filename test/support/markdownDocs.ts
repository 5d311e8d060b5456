import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// What the documentation tests read from Markdown: headings as GitHub anchors them, and links outside code.

export interface MarkdownLink {
  target: string;
  image: boolean;
  line: number;
}

/** The lines of a Markdown text outside fenced code blocks, with their 1-based numbers. */
function proseLines(markdown: string): Array<{ text: string; line: number }> {
  const out: Array<{ text: string; line: number }> = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((text, index) => {
    const opener = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
    if (opener && (!fence || opener.startsWith(fence))) {
      fence = fence ? undefined : opener;
      return;
    }
    if (!fence) out.push({ text, line: index + 1 });
  });
  return out;
}

/** GitHub's anchor for a heading: its text lower-cased, punctuation dropped, spaces as hyphens; repeats get -1, -2… */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const plain = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
}

/** Links and images of a Markdown text, outside code blocks and code spans. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { text, line } of proseLines(markdown)) {
    const prose = text.replace(/`[^`]*`/g, (span) => ' '.repeat(span.length));
    for (const m of prose.matchAll(/(!?)\[((?:[^[\]]|\[[^\]]*\])*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g))
      links.push({ target: m[3], image: m[1] === '!', line });
  }
  return links;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/**
 * The relative links of one Markdown file that lead nowhere: a file or folder that does not exist, a heading anchor
 * the target file does not have, or a path out of the repository. Each as `file:line: target (why)`.
 */
export function brokenLinks(file: string, root: string): string[] {
  const markdown = readFileSync(file, 'utf8');
  const where = (line: number) => `${relative(root, file)}:${line}`;
  const broken: string[] = [];
  for (const link of markdownLinks(markdown)) {
    if (isExternal(link.target)) continue;
    const [path, anchor] = link.target.split('#', 2) as [string, string | undefined];
    const target = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
    if (relative(root, target).startsWith('..')) {
      broken.push(`${where(link.line)}: ${link.target} (outside the repository)`);
      continue;
    }
    if (!existsSync(target)) {
      broken.push(`${where(link.line)}: ${link.target} (no such file)`);
      continue;
    }
    if (anchor === undefined) continue;
    if (statSync(target).isDirectory() || !target.endsWith('.md')) {
      broken.push(`${where(link.line)}: ${link.target} (an anchor into a file that is not Markdown)`);
      continue;
    }
    if (!headingAnchors(readFileSync(target, 'utf8')).has(anchor))
      broken.push(`${where(link.line)}: ${link.target} (no heading with that anchor)`);
  }
  return broken;
}

/** The Markdown files whose links the documentation test checks, relative to the repository root. */
export function documentationFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', 'CONTRIBUTING.md', 'bench/README.md', ...docs.sort()];
}
