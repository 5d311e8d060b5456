/** An ACE bullet: `[slug-00012] helpful=3 harmful=0 :: content`. */
export interface Bullet {
  id: string;
  helpful: number;
  harmful: number;
  content: string;
  /** The line exactly as read, kept so an untouched bullet serializes byte-for-byte. */
  raw?: string;
}

export type PlaybookLine = { kind: 'bullet'; bullet: Bullet } | { kind: 'text'; text: string };

export interface Section {
  title: string;
  /** The header line exactly as read (`## Build and test`). */
  header: string;
  lines: PlaybookLine[];
}

export interface Playbook {
  /** Lines before the first section header. */
  preamble: string[];
  sections: Section[];
  /** Whether the source ended with a newline (kept for a lossless round trip). */
  trailingNewline: boolean;
  /** Combee's marks on its rules, written in the machine section at the end of the file (see marks.ts). */
  marks?: RuleMark[];
  /** What reading the marks left out or kept as text, for one counted warning (see marks.ts). */
  markProblems?: string[];
}

/** The kinds of marks, in the order a rule's marks are listed. */
export const MARK_KINDS = ['model', 'corroborated', 'enforced', 'pinned', 'flagged', 'removal'] as const;
export type MarkKind = (typeof MARK_KINDS)[number];

export interface RuleMark {
  id: string;
  kind: MarkKind;
  /** What the mark says: one line, no comment terminator. */
  text: string;
}

/**
 * Sections a rule is filed under by what it does, in the order a playbook lists them when Combee creates them; a
 * playbook starts with none, so no empty section is ever written.
 */
export const DEFAULT_SECTIONS = [
  'Setup',
  'Build',
  'Test',
  'Typecheck',
  'Lint',
  'Run',
  'Conventions',
  'Architecture',
  'Tooling',
  'Workflow',
  'Pitfalls',
] as const;

/** Where new lines go in a section: after its last non-blank line, so trailing blank lines keep sections apart. */
export function endOfSectionBody(section: Section): number {
  let at = section.lines.length;
  while (at > 0) {
    const line = section.lines[at - 1];
    if (line.kind !== 'text' || line.text.trim() !== '') break;
    at--;
  }
  return at;
}

export function bullets(playbook: Playbook): Bullet[] {
  return playbook.sections.flatMap((s) => s.lines.flatMap((l) => (l.kind === 'bullet' ? [l.bullet] : [])));
}

export function findBullet(
  playbook: Playbook,
  id: string,
): { section: Section; index: number; bullet: Bullet } | undefined {
  for (const section of playbook.sections) {
    const index = section.lines.findIndex((l) => l.kind === 'bullet' && l.bullet.id === id);
    if (index >= 0)
      return { section, index, bullet: (section.lines[index] as { kind: 'bullet'; bullet: Bullet }).bullet };
  }
  return undefined;
}

/** ACE's section slug: one word → its first 4 letters; several → initials of the first 5 words. */
export function sectionSlug(title: string): string {
  const words = title
    .toLowerCase()
    .replace(/&/g, 'and')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.length === 0) return 'misc';
  if (words.length === 1) return words[0].slice(0, 4);
  return words
    .slice(0, 5)
    .map((w) => w[0])
    .join('');
}

/** One global counter across sections, as in ACE: the next number after the highest id in use. */
/** The number of an id (`bat-00012` → 12; 0 when it has none): ids only grow, so it orders rules by age. */
export function idNumber(id: string): number {
  const m = /-(\d+)$/.exec(id);
  return m ? Number(m[1]) : 0;
}

export function nextIdNumber(playbook: Playbook): number {
  let max = 0;
  for (const bullet of bullets(playbook)) max = Math.max(max, idNumber(bullet.id));
  return max + 1;
}

export function formatId(slug: string, n: number): string {
  return `${slug}-${String(n).padStart(5, '0')}`;
}

export function sameSection(a: string, b: string): boolean {
  return normalizeSectionTitle(a) === normalizeSectionTitle(b);
}

export function normalizeSectionTitle(title: string): string {
  return title
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}
