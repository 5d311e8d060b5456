import { diffArrays } from 'diff';
import { renameMarks } from './marks';
import { mergeMarks, type MergedMarks } from './mergeMarks';
import { formatBullet, parseBulletLine, parsePlaybook, serializePlaybook } from './markdown';
import {
  bullets,
  endOfSectionBody,
  formatId,
  nextIdNumber,
  sameSection,
  type Bullet,
  type Playbook,
  type Section,
} from './model';

/**
 * Three-way merge of playbooks for git (`combee merge %O %A %B`): bullets by id, counters added up, a one-sided edit
 * or delete wins, text merged line-wise (ours when in doubt). Only two different edits of one bullet conflict.
 */

// A generic diff3 over lines, marker-free.

/** One region of a three-way merge: either all sides agree, or they differ. */
export type Chunk<T> = { stable: true; lines: T[] } | { stable: false; base: T[]; ours: T[]; theirs: T[] };

/**
 * The most edits a line diff looks for: past it (a file rewritten or reordered wholesale) the diff's cost grows with
 * the square of the file, so the middle between the shared head and tail is taken as changed instead. A count, not a
 * time limit, so the same files always merge the same way.
 */
export const MAX_LINE_EDITS = 2000;

/** base index → side index, for lines the LCS keeps. */
function matches<T>(base: T[], side: T[]): Map<number, number> {
  const map = new Map<number, number>();
  const changes = diffArrays(base, side, { maxEditLength: MAX_LINE_EDITS }) ?? headAndTail(base, side, map);
  let b = 0;
  let s = 0;
  for (const change of changes) {
    const n = change.count ?? change.value.length;
    if (change.added) s += n;
    else if (change.removed) b += n;
    else {
      for (let k = 0; k < n; k++) map.set(b + k, s + k);
      b += n;
      s += n;
    }
  }
  return map;
}

/** Matches only the lines both share at the start and at the end; no changes are left to walk. */
function headAndTail<T>(base: T[], side: T[], map: Map<number, number>): [] {
  let head = 0;
  while (head < base.length && head < side.length && base[head] === side[head]) map.set(head, head++);
  for (let tail = 1; tail <= Math.min(base.length, side.length) - head; tail++) {
    if (base[base.length - tail] !== side[side.length - tail]) break;
    map.set(base.length - tail, side.length - tail);
  }
  return [];
}

/** diff3: splits three versions into stable regions and the regions between them. */
export function diff3<T>(base: T[], ours: T[], theirs: T[]): Chunk<T>[] {
  const mo = matches(base, ours);
  const mt = matches(base, theirs);
  const chunks: Chunk<T>[] = [];
  let b = 0;
  let o = 0;
  let t = 0;
  const stable = (line: T) => {
    const last = chunks[chunks.length - 1];
    if (last?.stable) last.lines.push(line);
    else chunks.push({ stable: true, lines: [line] });
  };
  while (b < base.length || o < ours.length || t < theirs.length) {
    if (b < base.length && mo.get(b) === o && mt.get(b) === t) {
      stable(base[b]);
      b++;
      o++;
      t++;
      continue;
    }
    let j = b;
    while (j < base.length && !(mo.has(j) && mt.has(j))) j++;
    const oEnd = j < base.length ? (mo.get(j) as number) : ours.length;
    const tEnd = j < base.length ? (mt.get(j) as number) : theirs.length;
    chunks.push({ stable: false, base: base.slice(b, j), ours: ours.slice(o, oEnd), theirs: theirs.slice(t, tEnd) });
    b = j;
    o = oEnd;
    t = tEnd;
  }
  return chunks;
}

function same<T>(a: T[], b: T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Resolves a differing region without markers: a one-sided change wins; two insertions at the same place are both
 * kept (shared head and tail once); anything else keeps ours.
 */
export function resolveChunk<T>(chunk: { base: T[]; ours: T[]; theirs: T[] }): T[] {
  const { base, ours, theirs } = chunk;
  if (same(ours, base)) return theirs;
  if (same(theirs, base) || same(ours, theirs)) return ours;
  if (base.length > 0) return ours;
  let head = 0;
  while (head < ours.length && head < theirs.length && ours[head] === theirs[head]) head++;
  let tail = 0;
  while (
    tail < ours.length - head &&
    tail < theirs.length - head &&
    ours[ours.length - 1 - tail] === theirs[theirs.length - 1 - tail]
  )
    tail++;
  return [
    ...ours.slice(0, ours.length - tail),
    ...theirs.slice(head, theirs.length - tail),
    ...ours.slice(ours.length - tail),
  ];
}

/** A marker-free three-way line merge (keep ours when in doubt). */
export function merge3<T>(base: T[], ours: T[], theirs: T[]): T[] {
  return diff3(base, ours, theirs).flatMap((c) => (c.stable ? c.lines : resolveChunk(c)));
}

// The playbook merge.

export interface MergeOutcome extends Omit<MergedMarks, 'marks'> {
  text: string;
  /** Ids of bullets left between conflict markers. */
  conflicts: string[];
  /** Theirs' new bullets that got the next free id because ours added a different bullet with the same one. */
  renumbered: Array<{ from: string; to: string }>;
}

/** Bullet lines become id tokens, so counter changes never make the line merge conflict. */
const TOKEN = '\u0000bullet:';

type Resolved =
  | { kind: 'keep'; bullet: Bullet; template?: Bullet }
  | { kind: 'conflict'; ours?: Bullet; theirs?: Bullet }
  | { kind: 'drop' };

function byId(playbook: Playbook): Map<string, Bullet> {
  const map = new Map<string, Bullet>();
  for (const bullet of bullets(playbook)) if (!map.has(bullet.id)) map.set(bullet.id, bullet);
  return map;
}

function tokenLines(playbook: Playbook): string[] {
  const seen = new Set<string>();
  const out = [...playbook.preamble];
  for (const section of playbook.sections) {
    out.push(section.header);
    for (const line of section.lines) {
      if (line.kind === 'text') out.push(line.text);
      // A repeated id (a hand edit) stays as text rather than vanishing.
      else if (seen.has(line.bullet.id)) out.push(formatBullet(line.bullet));
      else {
        seen.add(line.bullet.id);
        out.push(TOKEN + line.bullet.id);
      }
    }
  }
  return out;
}

/** Renames a bullet of `playbook` and its marks: a flag or pin left naming the old id would hold nothing. */
function rename(playbook: Playbook, bullet: Bullet, id: string): void {
  renameMarks(playbook, bullet.id, id);
  bullet.raw = bullet.raw?.replace(`[${bullet.id}]`, `[${id}]`);
  bullet.id = id;
}

const normalized = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** Both sides added a bullet with the same new id: theirs takes the next free id, unless it is the same rule. */
function renumberClashes(
  theirs: Playbook,
  base: Map<string, Bullet>,
  ours: Map<string, Bullet>,
  next: number,
): MergeOutcome['renumbered'] {
  const renumbered: MergeOutcome['renumbered'] = [];
  for (const bullet of bullets(theirs)) {
    const clash = ours.get(bullet.id);
    if (base.has(bullet.id) || !clash || normalized(clash.content) === normalized(bullet.content)) continue;
    const to = formatId(bullet.id.replace(/-\d+$/, ''), next++);
    renumbered.push({ from: bullet.id, to });
    rename(theirs, bullet, to);
  }
  return renumbered;
}

/** Both sides added the same rule under different ids: one rule, ours' id. */
function aliasSameAdds(theirs: Playbook, base: Map<string, Bullet>, ours: Map<string, Bullet>): void {
  const oursAdded = new Map(
    [...ours.values()].filter((b) => !base.has(b.id)).map((b) => [normalized(b.content), b.id]),
  );
  const theirsIds = new Set(bullets(theirs).map((b) => b.id));
  for (const bullet of bullets(theirs)) {
    const id = oursAdded.get(normalized(bullet.content));
    if (base.has(bullet.id) || !id || id === bullet.id || theirsIds.has(id)) continue;
    theirsIds.add(id);
    rename(theirs, bullet, id);
  }
}

const counters = (b: Bullet | undefined, o: Bullet, t: Bullet) => ({
  helpful: Math.max(0, o.helpful + t.helpful - (b?.helpful ?? 0)),
  harmful: Math.max(0, o.harmful + t.harmful - (b?.harmful ?? 0)),
});

function resolveBullet(b: Bullet | undefined, o: Bullet | undefined, t: Bullet | undefined): Resolved {
  if (o && t) {
    const merged = counters(b, o, t);
    const base = b?.content;
    const content =
      o.content === base ? t.content : t.content === base || o.content === t.content ? o.content : undefined;
    if (content === undefined) return { kind: 'conflict', ours: { ...o, ...merged }, theirs: { ...t, ...merged } };
    return { kind: 'keep', bullet: { id: o.id, ...merged, content }, template: content === o.content ? o : t };
  }
  const side = o ?? t;
  if (!side) return { kind: 'drop' };
  if (!b) return { kind: 'keep', bullet: side, template: side };
  // Deleted on one side: gone, unless the other side edited its text (counter bumps are not edits).
  if (side.content === b.content) return { kind: 'drop' };
  return { kind: 'conflict', ours: o, theirs: t };
}

/** The template's exact line when nothing changed, else the canonical form with the template's list prefix. */
function bulletLine(bullet: Bullet, template: Bullet | undefined): string {
  const raw = template?.raw;
  const was = raw === undefined ? undefined : parseBulletLine(raw);
  if (
    raw &&
    was &&
    was.id === bullet.id &&
    was.helpful === bullet.helpful &&
    was.harmful === bullet.harmful &&
    was.content === bullet.content
  )
    return raw;
  const prefix = /^\s*(?:[-*]\s+)?/.exec(raw ?? '')?.[0] ?? '';
  return prefix + formatBullet({ ...bullet, raw: undefined });
}

function emit(resolved: Resolved): string[] {
  if (resolved.kind === 'drop') return [];
  if (resolved.kind === 'keep') return [bulletLine(resolved.bullet, resolved.template)];
  return [
    '<<<<<<< ours',
    ...(resolved.ours ? [bulletLine(resolved.ours, resolved.ours)] : []),
    '=======',
    ...(resolved.theirs ? [bulletLine(resolved.theirs, resolved.theirs)] : []),
    '>>>>>>> theirs',
  ];
}

function sectionOf(playbook: Playbook, id: string): string | undefined {
  return playbook.sections.find((s) => s.lines.some((l) => l.kind === 'bullet' && l.bullet.id === id))?.title;
}

/** Lines whose place was lost in a text conflict go after the last non-blank line of their section. */
function placeMissing(text: string, missing: Array<{ lines: string[]; section: string }>): string {
  const playbook = parsePlaybook(text);
  for (const { lines, section: title } of missing) {
    let section: Section | undefined = playbook.sections.find((s) => sameSection(s.title, title));
    if (!section) {
      section = { title, header: `## ${title}`, lines: [{ kind: 'text', text: '' }] };
      const last = playbook.sections[playbook.sections.length - 1];
      if (last && !last.lines.some((l) => l.kind === 'text' && l.text.trim() === ''))
        last.lines.push({ kind: 'text', text: '' });
      playbook.sections.push(section);
    }
    section.lines.splice(endOfSectionBody(section), 0, ...lines.map((line) => ({ kind: 'text' as const, text: line })));
  }
  return serializePlaybook(playbook);
}

/** Merges three versions of a playbook file; `conflicts` empty means a clean merge. */
export function mergePlaybooks(baseText: string, oursText: string, theirsText: string): MergeOutcome {
  // The parser works on LF; a CRLF checkout (Windows) gets CRLF back.
  const firstBreak = oursText.indexOf('\n');
  const crlf = firstBreak > 0 && oursText[firstBreak - 1] === '\r';
  const lf = (text: string) => text.replace(/\r\n/g, '\n');
  const base = parsePlaybook(lf(baseText));
  const ours = parsePlaybook(lf(oursText));
  const theirs = parsePlaybook(lf(theirsText));
  const B = byId(base);
  const O = byId(ours);
  const next = Math.max(nextIdNumber(base), nextIdNumber(ours), nextIdNumber(theirs));
  const renumbered = renumberClashes(theirs, B, O, next);
  aliasSameAdds(theirs, B, O);
  const T = byId(theirs);

  const resolved = new Map<string, Resolved>();
  for (const id of new Set([...B.keys(), ...O.keys(), ...T.keys()]))
    resolved.set(id, resolveBullet(B.get(id), O.get(id), T.get(id)));

  const out: string[] = [];
  const placed = new Set<string>();
  for (const line of merge3(tokenLines(base), tokenLines(ours), tokenLines(theirs))) {
    if (!line.startsWith(TOKEN)) {
      out.push(line);
      continue;
    }
    const id = line.slice(TOKEN.length);
    if (placed.has(id)) continue;
    placed.add(id);
    out.push(...emit(resolved.get(id) ?? { kind: 'drop' }));
  }
  const trailing = ours.trailingNewline !== base.trailingNewline ? ours.trailingNewline : theirs.trailingNewline;
  let text = out.length === 0 ? '' : out.join('\n') + (trailing ? '\n' : '');
  const missing = [...resolved].filter(([id, r]) => r.kind !== 'drop' && !placed.has(id));
  if (missing.length > 0) {
    text = placeMissing(
      text,
      missing.map(([id, r]) => ({ lines: emit(r), section: sectionOf(theirs, id) ?? sectionOf(ours, id) ?? 'Misc' })),
    );
  }
  const conflicts = [...resolved].filter(([, r]) => r.kind === 'conflict').map(([id]) => id);
  const merged = parsePlaybook(text);
  const { marks, ...said } = mergeMarks(base, ours, theirs, merged);
  merged.marks = marks;
  text = serializePlaybook(merged);
  return { text: crlf ? text.replace(/\n/g, '\r\n') : text, conflicts, renumbered, ...said };
}
