import { z } from 'zod';
import { marksOf, withMark } from './marks';
import { findBullet, type Playbook } from './model';

// Which model wrote a rule, the rule's `model` mark (marks.ts places it): `written by openai gpt-4o-mini (prompt 1)`,
// and once a later run rewords it `…, last changed by <provider> <model> (prompt N)`. The mark lives in the playbook,
// so it goes where the rule goes (accept, git merge, a teammate's clone). It is a claim anyone with the file can write:
// it is cleaned when read and shown, and decides nothing.

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

/** What a model mark says. */
export function authorText(authorship: Authorship): string {
  const written = cleanAuthor(authorship.written);
  const changed = authorship.changed ? `, last changed by ${said(cleanAuthor(authorship.changed))}` : '';
  return `written by ${said(written)}${changed}`;
}

const WHO = String.raw`(\S+) (\S+) \(prompt (\S+)\)`;
const TEXT = new RegExp(`^written by ${WHO}(?:, last changed by ${WHO})?$`);

/** The authorship a model mark states, cleaned; undefined when it does not read. */
export function parseAuthorText(text: string): Authorship | undefined {
  const m = TEXT.exec(text.trim());
  if (!m) return undefined;
  const written = cleanAuthor({ provider: m[1], model: m[2], promptVersion: m[3] });
  const changed = m[4] ? cleanAuthor({ provider: m[4], model: m[5], promptVersion: m[6] }) : undefined;
  return changed ? { written, changed } : { written };
}

/** Each rule's authorship, from its model mark; rules without one (or with one that does not read) are left out. */
export function ruleAuthorships(playbook: Playbook): Map<string, Authorship> {
  const found = new Map<string, Authorship>();
  for (const [id, text] of marksOf(playbook, AUTHOR_KIND)) {
    const authorship = parseAuthorText(text);
    if (authorship) found.set(id, authorship);
  }
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
 * who first wrote the rule (unknown when it had no mark) and says who last changed it.
 */
export function withAuthorMarks(playbook: Playbook, changes: ReadonlyMap<string, AuthoredChange>): Playbook {
  if (changes.size === 0) return playbook;
  const before = ruleAuthorships(playbook);
  let marked = playbook;
  for (const [id, change] of changes) {
    if (!findBullet(playbook, id)) continue;
    // an ADD is a new rule (a mark its id had is stale); writing the same change again gives the same mark
    const authorship: Authorship =
      change.op === 'ADD'
        ? { written: change.author }
        : { written: before.get(id)?.written ?? UNKNOWN_AUTHOR, changed: change.author };
    marked = withMark(marked, AUTHOR_KIND, id, authorText(authorship));
  }
  return marked;
}
