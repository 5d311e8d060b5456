import { applyDelta } from '../playbook/apply';
import type { Delta, DeltaOp } from '../playbook/delta';
import { marksOf, withMark } from '../playbook/marks';
import { findBullet, type Playbook, type PlaybookLine } from '../playbook/model';
import type { RuleFlag } from './kinds';
import { screenExistingRule } from './screenRule';

// A flagged rule is held back: it shows in the playbook (marked) and in no other asset until accepted by name.
// The mark is the rule's `flagged` mark (marks.ts places it), so a playbook written with it (Accept File, Edit) still
// holds the rule back. A mark can only hold back, never trust, so a repository gains nothing by writing one.

const FLAG_KIND = 'flagged';
/** A held removal's note: it names the rule the removal takes out, so it holds nothing once written. */
const REMOVAL_KIND = 'removal';

export interface HeldRule {
  id: string;
  content: string;
  flags: RuleFlag[];
}

/** One line, no comment terminator inside: the reason comes from rule text anyone can write. */
function inline(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/--+>?/g, '-').trim();
}

/** What a flag mark says. */
export function flagMarkText(flags: readonly RuleFlag[]): string {
  const kinds = flags.map((f) => f.kind).join(', ');
  const reasons = flags.map((f) => inline(f.reason)).join('; ');
  return `${kinds}: ${reasons}. Kept out of AGENTS.md and the other files until accepted by name.`;
}

/** Bullets the playbook itself marks as flagged. */
export function markedIds(playbook: Playbook): Set<string> {
  return new Set(marksOf(playbook, FLAG_KIND).keys());
}

/**
 * Rules no model may see: those the playbook marks as flagged and those whose text the screen flags (a cloned
 * repository's playbook is untrusted input). Shown to a model, a held rule would come back as a lesson or an operation
 * in words of its own, where no mark holds it.
 */
export function heldFromModels(playbook: Playbook): Set<string> {
  const held = markedIds(playbook);
  for (const section of playbook.sections)
    for (const line of section.lines)
      if (line.kind === 'bullet' && screenExistingRule(line.bullet.content).length > 0) held.add(line.bullet.id);
  return held;
}

function mapSections(playbook: Playbook, lines: (section: PlaybookLine[]) => PlaybookLine[]): Playbook {
  return {
    ...playbook,
    preamble: [...playbook.preamble],
    sections: playbook.sections.map((s) => ({ ...s, lines: lines(s.lines) })),
  };
}

/** The playbook as the review shows it: each flagged rule with a mark saying why. */
export function withMarks(playbook: Playbook, flagged: ReadonlyMap<string, readonly RuleFlag[]>): Playbook {
  const already = markedIds(playbook);
  let marked = playbook;
  for (const [id, flags] of flagged)
    if (flags.length > 0 && !already.has(id) && findBullet(playbook, id))
      marked = withMark(marked, FLAG_KIND, id, flagMarkText(flags));
  return marked;
}

/**
 * A flagged removal has no rule left to mark: a removal note names it and says so. It holds nothing if the file is
 * written with it, and is not read back.
 */
export function withRemovalMarks(
  shown: Playbook,
  before: Playbook,
  removed: ReadonlyMap<string, readonly RuleFlag[]>,
): Playbook {
  let marked = shown;
  for (const [id, flags] of removed) {
    if (findBullet(shown, id) || !findBullet(before, id)) continue;
    marked = withMark(
      marked,
      REMOVAL_KIND,
      id,
      `${flags.map((f) => f.kind).join(', ')}: ${flags.map((f) => inline(f.reason)).join('; ')}. The rule stays in AGENTS.md and the other files until this removal is accepted by name.`,
    );
  }
  return marked;
}

/** Flag marks removed for the given rules (accepted by name), every other mark and line kept as it is. */
export function withoutMarks(playbook: Playbook, ids: ReadonlySet<string>): Playbook {
  let unmarked = playbook;
  for (const id of ids) if (markedIds(unmarked).has(id)) unmarked = withMark(unmarked, FLAG_KIND, id, undefined);
  return unmarked;
}

/** The playbook without the held bullets: what every asset but the playbook is rendered from. */
export function withoutBullets(playbook: Playbook, ids: ReadonlySet<string>): Playbook {
  if (ids.size === 0) return playbook;
  return mapSections(playbook, (lines) => lines.filter((line) => line.kind !== 'bullet' || !ids.has(line.bullet.id)));
}

export interface HoldInput {
  /** The playbook the assets are rendered from. */
  playbook: Playbook;
  /** This proposal's rule changes with their flags. */
  rules: ReadonlyArray<{ id: string; op: string; flags?: readonly RuleFlag[] }>;
  /** Rules the user accepted by name (now or in an earlier review): never held. */
  accepted?: ReadonlySet<string>;
  /** Rule text the user accepted by name in an earlier review. */
  isTrusted?: (content: string) => boolean;
  /** Rule text the user turned down by name in an earlier review: still held, no longer waiting for a decision. */
  isRejected?: (content: string) => boolean;
}

export interface Hold {
  /** Bullets kept out of every asset but the playbook. */
  ids: Set<string>;
  /** This proposal's flagged rules, marked in the playbook diff. */
  flagged: Map<string, RuleFlag[]>;
  /** Rules already in the playbook that are held (flagged text, or marked): reported, never rendered elsewhere. */
  existing: HeldRule[];
  /** Held rules already in the playbook that the user turned down before: kept out, and asked about no more. */
  decided: HeldRule[];
}

/** Which bullets to hold back: this proposal's flagged rules, and existing rules whose text is flagged or marked. */
export function holdBack(input: HoldInput): Hold {
  const accepted = input.accepted ?? new Set<string>();
  const flagged = new Map<string, RuleFlag[]>();
  for (const rule of input.rules)
    if (rule.flags && rule.flags.length > 0 && !accepted.has(rule.id)) flagged.set(rule.id, [...rule.flags]);
  const proposed = new Set(input.rules.filter((r) => r.op !== 'REMOVE').map((r) => r.id));
  const marked = markedIds(input.playbook);
  const existing: HeldRule[] = [];
  const decided: HeldRule[] = [];
  for (const section of input.playbook.sections)
    for (const line of section.lines) {
      if (line.kind !== 'bullet' || proposed.has(line.bullet.id) || accepted.has(line.bullet.id)) continue;
      const { id, content } = line.bullet;
      // A mark holds whatever the user trusted before: it is removed only by accepting the rule by name.
      if (!marked.has(id) && input.isTrusted?.(content)) continue;
      const flags = screenExistingRule(content);
      if (marked.has(id) && flags.length === 0)
        flags.push({ kind: 'untrusted-source', reason: 'marked as flagged in the playbook and not accepted by name' });
      if (flags.length === 0) continue;
      if (input.isRejected?.(content)) decided.push({ id, content, flags });
      else existing.push({ id, content, flags });
    }
  const ids = new Set([...flagged.keys(), ...existing.map((e) => e.id), ...decided.map((e) => e.id)]);
  return { ids, flagged, existing, decided };
}

/**
 * The accepted rules whose text the screen flags: the user took them in review, so later runs must not hold them back
 * as existing rules (their text alone would flag them again, without the evidence that cleared them).
 */
export function textsToTrust(rules: ReadonlyArray<{ content?: string }>): string[] {
  return rules.flatMap((r) => (r.content && screenExistingRule(r.content).length > 0 ? [r.content] : []));
}

/** The rule id an operation produces or changes (ADDs carry theirs once proposed). */
function opRuleId(op: DeltaOp): string | undefined {
  return op.op === 'MERGE' ? op.ids[0] : op.id;
}

/**
 * What the other assets are drawn from when a flagged change edits or removes an existing rule: the playbook with only
 * the unflagged operations applied, so AGENTS.md and the rest keep that rule as it was until the change is accepted
 * by name. Undefined when every flagged change is an ADD (held back by leaving its bullet out).
 */
export function playbookForOtherAssets(
  base: Playbook,
  ops: ReadonlyArray<{ ruleId: string; op: DeltaOp }>,
  counters: Pick<Delta, 'tags' | 'counts'>,
  flagged: ReadonlyMap<string, unknown>,
): Playbook | undefined {
  if (!ops.some((o) => o.op.op !== 'ADD' && flagged.has(o.ruleId))) return undefined;
  const kept = ops
    .filter((o) => !flagged.has(o.ruleId))
    .map((o) => (o.op.op === 'ADD' ? { ...o.op, id: o.ruleId } : o.op));
  return applyDelta(base, { ...counters, ops: kept }).playbook;
}

/** `playbookForOtherAssets` for operations as they are re-rendered (ids on the ADDs already). */
export function opsWithIds(ops: readonly DeltaOp[]): Array<{ ruleId: string; op: DeltaOp }> {
  return ops.flatMap((op) => {
    const ruleId = opRuleId(op);
    return ruleId ? [{ ruleId, op }] : [];
  });
}
