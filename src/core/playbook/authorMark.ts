import { z } from 'zod';
import { marksStart } from './marks';
import type { Playbook, PlaybookLine } from './model';

// Which model wrote a rule: `<!-- combee:model [id] written by openai gpt-4o-mini (prompt 1) -->`, and once a later
// run rewords it `…, last changed by <provider> <model> (prompt N) -->`. The mark lives in the playbook, so it goes
// where the rule goes (accept, git merge, a teammate's clone). It is a claim anyone with the file can write: it is
// cleaned when read and shown, and decides nothing.

export const AUTHOR_KIND = 'model';
/** Shown for a rule without a mark (written before marks, by hand, or with a mark that does not read). */
export const UNKNOWN = 'unknown';
/** The longest provider, model or prompt version kept; the rest of a longer claim is cut. */
export const MAX_NAME = 64;

export const RuleAuthor = z.object({ provider: z.string(), model: z.string(), promptVersion: z.string() });
export type RuleAuthor = z.infer<typeof RuleAuthor>;

/** Who first wrote the rule and, when a later run reworded it, who did that last. */
export interface Authorship {
  written: RuleAuthor;
  changed?: RuleAuthor;
}

export const UNKNOWN_AUTHOR: RuleAuthor = { provider: UNKNOWN, model: UNKNOWN, promptVersion: UNKNOWN };

/** Changes made by Combee's own code (retiring, rewording from the rules' standing), not by a model. */
export const UPKEEP_AUTHOR: RuleAuthor = { provider: 'combee', model: 'upkeep', promptVersion: 'none' };

/**
 * A name as a mark may hold it: letters, digits and `. _ : / @ + -`, at most MAX_NAME characters; anything else
 * (spaces, a comment terminator, markup, control characters) becomes `_`. Empty is `unknown`.
 */
export function cleanName(value: unknown): string {
  const text = (typeof value === 'string' ? value : '')
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9._:/@+-]+/g, '_')
    .replace(/-{2,}/g, '-')
    .slice(0, MAX_NAME)
    .replace(/^_+|_+$/g, '');
  return text === '' ? UNKNOWN : text;
}

export function cleanAuthor(author: { provider?: unknown; model?: unknown; promptVersion?: unknown }): RuleAuthor {
  return {
    provider: cleanName(author.provider),
    model: cleanName(author.model),
    promptVersion: cleanName(author.promptVersion),
  };
}

/** How views name an author's model: `provider/model`, or `unknown`. */
export function modelLabel(author: RuleAuthor | undefined): string {
  if (!author || (author.provider === UNKNOWN && author.model === UNKNOWN)) return UNKNOWN;
  return `${author.provider}/${author.model}`;
}

const said = (a: RuleAuthor) => `${a.provider} ${a.model} (prompt ${a.promptVersion})`;

export function authorLine(id: string, authorship: Authorship): string {
  const written = cleanAuthor(authorship.written);
  const changed = authorship.changed ? `, last changed by ${said(cleanAuthor(authorship.changed))}` : '';
  return `<!-- combee:${AUTHOR_KIND} [${id}] written by ${said(written)}${changed} -->`;
}

const ANY_MARK = new RegExp(`^<!-- combee:${AUTHOR_KIND} \\[([^\\]\\s]+)\\]`);
const WHO = String.raw`(\S+) (\S+) \(prompt (\S+)\)`;
const LINE = new RegExp(
  `^<!-- combee:${AUTHOR_KIND} \\[([^\\]\\s]+)\\] written by ${WHO}(?:, last changed by ${WHO})? -->$`,
);

/** The authorship a mark line states, cleaned; undefined when the line is no readable model mark. */
export function parseAuthorLine(text: string): { id: string; authorship: Authorship } | undefined {
  const m = LINE.exec(text.trim());
  if (!m) return undefined;
  const written = cleanAuthor({ provider: m[2], model: m[3], promptVersion: m[4] });
  const changed = m[5] ? cleanAuthor({ provider: m[5], model: m[6], promptVersion: m[7] }) : undefined;
  return { id: m[1], authorship: changed ? { written, changed } : { written } };
}

/** Where in the marks above the bullet at `index` its model mark is (-1: none). */
function markAt(lines: readonly PlaybookLine[], index: number, id: string): number {
  for (let at = marksStart(lines, index); at < index; at++) {
    const line = lines[at];
    if (line.kind === 'text' && ANY_MARK.exec(line.text.trim())?.[1] === id) return at;
  }
  return -1;
}

/** Each rule's authorship, from the model mark among the marks directly above it; rules without one are left out. */
export function ruleAuthorships(playbook: Playbook): Map<string, Authorship> {
  const found = new Map<string, Authorship>();
  for (const section of playbook.sections)
    section.lines.forEach((line, i) => {
      if (line.kind !== 'bullet' || found.has(line.bullet.id)) return;
      const at = markAt(section.lines, i, line.bullet.id);
      const mark = at < 0 ? undefined : section.lines[at];
      const parsed = mark?.kind === 'text' ? parseAuthorLine(mark.text) : undefined;
      if (parsed) found.set(line.bullet.id, parsed.authorship);
    });
  return found;
}

export interface AuthoredChange {
  op: 'ADD' | 'UPDATE' | 'MERGE';
  author: RuleAuthor;
}

/** The rule changes that carry an author (a removal has no rule left to mark), by rule id. */
export function authoredChanges(
  rules: ReadonlyArray<{ id: string; op: string; author?: RuleAuthor }>,
): Map<string, AuthoredChange> {
  const changes = new Map<string, AuthoredChange>();
  for (const r of rules)
    if (r.author && (r.op === 'ADD' || r.op === 'UPDATE' || r.op === 'MERGE'))
      changes.set(r.id, { op: r.op, author: r.author });
  return changes;
}

/**
 * The playbook with each changed rule's model mark written: an ADD is written by its author; an UPDATE or MERGE keeps
 * who first wrote the rule (unknown when it had no mark) and says who last changed it. A mark goes on top of the
 * rule's marks, so the trust screen's stays next to the bullet.
 */
export function withAuthorMarks(playbook: Playbook, changes: ReadonlyMap<string, AuthoredChange>): Playbook {
  if (changes.size === 0) return playbook;
  const before = ruleAuthorships(playbook);
  return {
    ...playbook,
    preamble: [...playbook.preamble],
    sections: playbook.sections.map((section) => {
      const lines: PlaybookLine[] = [...section.lines];
      for (let i = lines.length - 1; i >= 0; i--) {
        const line = lines[i];
        if (line.kind !== 'bullet') continue;
        const change = changes.get(line.bullet.id);
        if (!change) continue;
        const id = line.bullet.id;
        const old = before.get(id);
        // an ADD is a new rule (a mark its id had is stale); writing the same change again gives the same mark
        const authorship: Authorship =
          change.op === 'ADD'
            ? { written: change.author }
            : { written: old?.written ?? UNKNOWN_AUTHOR, changed: change.author };
        const mark: PlaybookLine = { kind: 'text', text: authorLine(id, authorship) };
        const at = markAt(lines, i, id);
        if (at >= 0) lines[at] = mark;
        else lines.splice(marksStart(lines, i), 0, mark);
      }
      return { ...section, lines };
    }),
  };
}

/**
 * A merged playbook with one model mark per rule: a second one (both sides marked the same rule) and marks naming a
 * rule they no longer sit above (its bullet gone or moved) are dropped; their ids are returned.
 */
export function withOneAuthorMarkEach(
  playbook: Playbook,
  /** Rules left in a conflict: their marks are left to the person resolving it. */
  conflicts: ReadonlySet<string> = new Set(),
): { playbook: Playbook; dropped: string[] } {
  const dropped = new Set<string>();
  const sections = playbook.sections.map((section) => {
    const keep = new Set<number>();
    section.lines.forEach((line, i) => {
      if (line.kind === 'bullet') {
        const at = markAt(section.lines, i, line.bullet.id);
        if (at >= 0) keep.add(at);
      }
    });
    const lines = section.lines.filter((line, i) => {
      if (line.kind !== 'text') return true;
      const m = ANY_MARK.exec(line.text.trim());
      if (!m || keep.has(i) || conflicts.has(m[1])) return true;
      dropped.add(m[1]);
      return false;
    });
    return { ...section, lines };
  });
  if (dropped.size === 0) return { playbook, dropped: [] };
  return { playbook: { ...playbook, preamble: [...playbook.preamble], sections }, dropped: [...dropped].sort() };
}

/**
 * The playbook without its model marks, as a token budget measures it: a mark is one line per rule that no agent loads
 * (AGENTS.md and the other files carry the rules, not the marks), and counting it would retire rules to make room for
 * metadata.
 */
export function withoutAuthorMarks(playbook: Playbook): Playbook {
  return {
    ...playbook,
    sections: playbook.sections.map((section) => ({
      ...section,
      lines: section.lines.filter((line) => line.kind !== 'text' || !ANY_MARK.test(line.text.trim())),
    })),
  };
}
