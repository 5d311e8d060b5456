import { findBullet, type Playbook, type PlaybookLine } from './model';

// Combee's marks on a rule are comment lines directly above its bullet, each naming it: `<!-- combee:<kind> [id] … -->`
// (the trust screen's `flagged`, the team's `pinned`). The lossless parser keeps them as text, ACE tools skip them,
// and the bullet line itself stays as ACE writes it.

const MARK_LINE = /^<!-- combee:([a-z]+) \[([^\]\s]+)\]/;

/** A pinned rule is kept by the team: Combee proposes neither retiring nor replacing it. */
export const PIN_KIND = 'pinned';

export function pinLine(id: string): string {
  return `<!-- combee:${PIN_KIND} [${id}] kept by the team: Combee proposes neither retiring nor replacing it -->`;
}

/** The kind of mark a line is for this rule, if it is one. */
function markFor(line: PlaybookLine | undefined, id: string): string | undefined {
  if (line?.kind !== 'text') return undefined;
  const m = MARK_LINE.exec(line.text.trim());
  return m && m[2] === id ? m[1] : undefined;
}

/** Where the run of mark lines naming the bullet at `index` starts (`index` itself when there are none). */
export function marksStart(lines: readonly PlaybookLine[], index: number): number {
  const line = lines[index];
  if (line?.kind !== 'bullet') return index;
  let start = index;
  while (start > 0 && markFor(lines[start - 1], line.bullet.id) !== undefined) start--;
  return start;
}

/** Rules with a pin mark above them. */
export function pinnedIds(playbook: Playbook): Set<string> {
  const ids = new Set<string>();
  for (const section of playbook.sections)
    section.lines.forEach((line, i) => {
      if (line.kind !== 'bullet') return;
      for (let at = marksStart(section.lines, i); at < i; at++)
        if (markFor(section.lines[at], line.bullet.id) === PIN_KIND) ids.add(line.bullet.id);
    });
  return ids;
}

/** The playbook with the rule pinned or not; `undefined` when it holds no such rule or nothing would change. */
export function withPin(playbook: Playbook, id: string, pinned: boolean): Playbook | undefined {
  const copy: Playbook = {
    ...playbook,
    preamble: [...playbook.preamble],
    sections: playbook.sections.map((s) => ({ ...s, lines: [...s.lines] })),
  };
  const found = findBullet(copy, id);
  if (!found) return undefined;
  const lines = found.section.lines;
  const start = marksStart(lines, found.index);
  const pins = [];
  for (let at = start; at < found.index; at++) if (markFor(lines[at], id) === PIN_KIND) pins.push(at);
  if (pinned === pins.length > 0) return undefined;
  if (pinned) lines.splice(start, 0, { kind: 'text', text: pinLine(id) });
  else for (const at of pins.reverse()) lines.splice(at, 1);
  return copy;
}

/** The trust screen's mark: it holds its rule back only from the line directly above the rule's bullet. */
export const FLAG_KIND = 'flagged';

export interface FlagMark {
  /** The rule it names. */
  id: string;
  /** The mark line as written. */
  text: string;
  /** Whether it sits directly above that rule's bullet. */
  attached: boolean;
}

/** Every flag mark line of the playbook, in order, with whether it holds its rule back. */
export function flagMarks(playbook: Playbook): FlagMark[] {
  const marks: FlagMark[] = [];
  for (const section of playbook.sections)
    section.lines.forEach((line, i) => {
      if (line.kind !== 'text') return;
      const m = MARK_LINE.exec(line.text.trim());
      if (!m || m[1] !== FLAG_KIND) return;
      const below = section.lines[i + 1];
      marks.push({ id: m[2], text: line.text, attached: below?.kind === 'bullet' && below.bullet.id === m[2] });
    });
  return marks;
}

/**
 * Rules named by a `flagged` mark that is not directly above that rule's bullet (a merge or a hand edit moved one
 * without the other): the trust screen reads only that line, so the mark holds nothing back there.
 */
export function detachedFlagMarks(playbook: Playbook): string[] {
  return flagMarks(playbook)
    .filter((m) => !m.attached)
    .map((m) => m.id);
}
