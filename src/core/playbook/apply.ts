import { dropMarksOf } from './marks';
import type { Delta, DeltaOp } from './delta';
import {
  DEFAULT_SECTIONS,
  bullets,
  endOfSectionBody,
  findBullet,
  formatId,
  nextIdNumber,
  sameSection,
  sectionSlug,
  type Bullet,
  type Playbook,
  type Section,
} from './model';
import { memoTokens, nearDuplicateWords } from './similarity';

export interface AppliedOp {
  op: DeltaOp;
  /** The bullet id the op produced or changed. */
  id?: string;
  status: 'applied' | 'skipped';
  reason?: string;
}

export interface ApplyResult {
  playbook: Playbook;
  applied: AppliedOp[];
}

function clone(playbook: Playbook): Playbook {
  return {
    preamble: [...playbook.preamble],
    trailingNewline: playbook.trailingNewline,
    ...(playbook.marks ? { marks: [...playbook.marks] } : {}),
    sections: playbook.sections.map((s) => ({
      ...s,
      lines: s.lines.map((l) => (l.kind === 'bullet' ? { kind: 'bullet', bullet: { ...l.bullet } } : { ...l })),
    })),
  };
}

function ensureSection(playbook: Playbook, title: string): Section {
  const existing = playbook.sections.find((s) => sameSection(s.title, title));
  if (existing) return existing;
  const section: Section = { title, header: `## ${title}`, lines: [{ kind: 'text', text: '' }] };
  // a known section goes before the first known one that the order puts after it; others go last
  const rank = (t: string) => DEFAULT_SECTIONS.findIndex((d) => sameSection(d, t));
  const own = rank(title);
  const before = own < 0 ? -1 : playbook.sections.findIndex((s) => rank(s.title) > own);
  if (before < 0) playbook.sections.push(section);
  else playbook.sections.splice(before, 0, section);
  // the section above keeps a blank line before this header
  const above = playbook.sections[playbook.sections.indexOf(section) - 1];
  const last = above?.lines.at(-1);
  if (above && !(last?.kind === 'text' && last.text.trim() === '')) above.lines.push({ kind: 'text', text: '' });
  return section;
}

/** Sections a removal left with neither rules nor text of the team's: their header alone would say nothing. */
function dropEmptied(playbook: Playbook, hadRules: ReadonlySet<Section>): void {
  playbook.sections = playbook.sections.filter(
    (s) => !hadRules.has(s) || s.lines.some((l) => l.kind === 'bullet' || l.text.trim() !== ''),
  );
}

/** Inserts after the section's last bullet, before its trailing blank lines, so sections stay separated. */
function insertBullet(section: Section, bullet: Bullet): void {
  section.lines.splice(endOfSectionBody(section), 0, { kind: 'bullet', bullet });
}

function setBullet(section: Section, index: number, bullet: Bullet): void {
  section.lines[index] = { kind: 'bullet', bullet };
}

/**
 * Applies a delta to a copy of the playbook, deterministically: ACE counters from the tags, then the operations in
 * order. An op that cannot apply (unknown id, near-duplicate ADD) is skipped and reported; the input is never mutated.
 */
export function applyDelta(input: Playbook, delta: Delta): ApplyResult {
  const playbook = clone(input);
  const applied: AppliedOp[] = [];
  // Last tag wins per id within one delta, as in ACE's update_bullet_counts.
  const lastTag = new Map(delta.tags.map((t) => [t.id, t.tag] as const));
  for (const [id, tag] of lastTag) {
    const found = findBullet(playbook, id);
    if (!found || (tag !== 'helpful' && tag !== 'harmful')) continue;
    const bullet = { ...found.bullet, raw: undefined };
    if (tag === 'helpful') bullet.helpful++;
    else bullet.harmful++;
    setBullet(found.section, found.index, bullet);
  }
  for (const count of delta.counts ?? []) {
    const found = findBullet(playbook, count.id);
    if (!found || count.helpful + count.harmful === 0) continue;
    const { helpful, harmful } = found.bullet;
    setBullet(found.section, found.index, {
      ...found.bullet,
      raw: undefined,
      helpful: helpful + count.helpful,
      harmful: harmful + count.harmful,
    });
  }
  // Every ADD is compared with every rule: each text is split into words once, not once per comparison.
  const wordsOf = memoTokens();
  let next = nextIdNumber(playbook);
  const used = new Set(bullets(playbook).map((b) => b.id));
  const freshId = (slug: string) => {
    let id = formatId(slug, next++);
    while (used.has(id) || idNumberTaken(used, id)) id = formatId(slug, next++);
    return id;
  };
  const hadRules = new Set(playbook.sections.filter((s) => s.lines.some((l) => l.kind === 'bullet')));
  for (const op of delta.ops) {
    switch (op.op) {
      case 'ADD': {
        const words = wordsOf(op.content);
        const duplicate = bullets(playbook).find((b) => nearDuplicateWords(wordsOf(b.content), words));
        if (duplicate) {
          applied.push({ op, id: duplicate.id, status: 'skipped', reason: `near-duplicate of ${duplicate.id}` });
          break;
        }
        const section = ensureSection(playbook, op.section);
        const id =
          op.id && !used.has(op.id) && !idNumberTaken(used, op.id) ? op.id : freshId(sectionSlug(section.title));
        used.add(id);
        insertBullet(section, { id, helpful: 0, harmful: 0, content: oneLine(op.content) });
        applied.push({ op, id, status: 'applied' });
        break;
      }
      case 'UPDATE': {
        const found = findBullet(playbook, op.id);
        if (!found) {
          applied.push({ op, status: 'skipped', reason: `no bullet ${op.id}` });
          break;
        }
        const counters = op.resetCounters ? { helpful: 0, harmful: 0 } : {};
        setBullet(found.section, found.index, {
          ...found.bullet,
          ...counters,
          content: oneLine(op.content),
          raw: undefined,
        });
        applied.push({ op, id: op.id, status: 'applied' });
        break;
      }
      case 'MERGE': {
        const found = op.ids.map((id) => findBullet(playbook, id));
        if (found.some((f) => !f)) {
          applied.push({ op, status: 'skipped', reason: `unknown id in ${op.ids.join(', ')}` });
          break;
        }
        const [keep, ...rest] = found as NonNullable<(typeof found)[number]>[];
        const merged: Bullet = {
          id: keep.bullet.id,
          helpful: found.reduce((sum, f) => sum + (f?.bullet.helpful ?? 0), 0),
          harmful: found.reduce((sum, f) => sum + (f?.bullet.harmful ?? 0), 0),
          content: oneLine(op.content),
        };
        setBullet(keep.section, keep.index, merged);
        for (const other of rest) removeBullet(playbook, other.bullet.id);
        applied.push({ op, id: keep.bullet.id, status: 'applied' });
        break;
      }
      case 'REMOVE': {
        if (!removeBullet(playbook, op.id)) {
          applied.push({ op, status: 'skipped', reason: `no bullet ${op.id}` });
          break;
        }
        applied.push({ op, id: op.id, status: 'applied' });
        break;
      }
    }
  }
  dropEmptied(playbook, hadRules);
  return { playbook, applied };
}

function removeBullet(playbook: Playbook, id: string): boolean {
  const found = findBullet(playbook, id);
  if (!found) return false;
  found.section.lines.splice(found.index, 1);
  // its marks (flagged, pinned, …) go with it
  dropMarksOf(playbook, new Set([id]));
  return true;
}

/** A bullet is one line: newlines in model output would break the format. */
function oneLine(text: string): string {
  return text.replace(/\s*\n+\s*/g, ' ').trim();
}

/** One global counter across sections: `bat-00003` and `pit-00003` may not both exist. */
function idNumberTaken(used: Set<string>, id: string): boolean {
  const number = id.slice(id.lastIndexOf('-'));
  return [...used].some((u) => u.endsWith(number));
}
