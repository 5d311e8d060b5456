import { applyPatch, structuredPatch } from 'diff';
import type { RuleChange } from '../../assets/proposal';
import { isMarkLine, joinMarkSectionText, splitMarkSectionText } from '../../playbook/marks';

// Edit Before Accepting: what the user's edit of a proposed file says about its rules. A rule's line is rendered as
// some prefix, the rule's text and some suffix (`[id] helpful=0 harmful=0 :: text` in the playbook, `- [id] text` in
// AGENTS.md): the words the user put between them are the rule's new text, carried into every file. Everything else
// the user changed is kept as a patch laid onto the file rendered again.

/** A comment, or one of the playbook's marks: it names a rule and is none. */
const notRule = (line: string) => line.trimStart().startsWith('<!--') || isMarkLine(line);

/** The lines citing a rule (`[id]`), without comments and marks (a flagged rule's mark is no rule). */
function ruleLines(text: string, id: string): string[] {
  const tag = `[${id}]`;
  return text.split('\n').filter((line) => line.includes(tag) && !notRule(line));
}

export interface EditedRules {
  /** The rules the edited text makes (its line differs from the file before the proposal), with their text now. */
  kept: RuleChange[];
  /** The rules the user took out (their line is as before the proposal: gone, or back as it was). */
  dropped: RuleChange[];
  /** Kept rules whose line changed beyond their text (its prefix or suffix): they keep the proposed text. */
  unreadable: string[];
}

/** The new text of a rule from its line in the edited file; undefined when the line changed outside the rule's text. */
function editedContent(proposedLine: string, content: string, editedLine: string): string | undefined {
  const at = proposedLine.indexOf(content);
  if (at < 0) return undefined;
  const [prefix, suffix] = [proposedLine.slice(0, at), proposedLine.slice(at + content.length)];
  if (editedLine.length < prefix.length + suffix.length) return undefined;
  if (!editedLine.startsWith(prefix) || !editedLine.endsWith(suffix)) return undefined;
  const text = editedLine.slice(prefix.length, editedLine.length - suffix.length).trim();
  return text.length > 0 ? text : undefined;
}

/**
 * Reads an edited file of a proposal: `before` is the file before the proposal, `proposed` the proposal's text,
 * `edited` the user's; `rules` the pending rules the proposed file holds.
 */
export function readEditedRules(
  before: string,
  proposed: string,
  edited: string,
  rules: readonly RuleChange[],
): EditedRules {
  const out: EditedRules = { kept: [], dropped: [], unreadable: [] };
  for (const rule of rules) {
    const now = ruleLines(edited, rule.id);
    if (now.join('\n') === ruleLines(before, rule.id).join('\n')) {
      out.dropped.push(rule);
      continue;
    }
    const content = rule.content;
    const was = content === undefined ? undefined : ruleLines(proposed, rule.id).find((l) => l.includes(content));
    if (content === undefined || was === undefined || now.includes(was)) {
      out.kept.push(rule);
      continue;
    }
    const text = now.length === 1 ? editedContent(was, content, now[0]) : undefined;
    if (text === undefined) {
      out.unreadable.push(rule.id);
      out.kept.push(rule);
    } else out.kept.push({ ...rule, content: text });
  }
  return out;
}

/** Whether a line cites one of these rules (its marker comment included). */
const citesAny = (line: string, ids: ReadonlySet<string>) => [...ids].some((id) => line.includes(`[${id}]`));

/**
 * The edited file as written: `rendered` (the file rendered again from the rules as edited) with the user's other
 * changes laid onto it. The rules' lines are Combee's: the lines of `kept` rules as the user left them and those of
 * `out` rules (taken out, or left waiting) gone, on both sides; what else differs is the user's. Undefined when those
 * changes no longer fit the rendered file.
 */
export function withOtherEdits(
  proposed: string,
  edited: string,
  rendered: string,
  rules: { kept: readonly string[]; out: readonly string[] },
): string | undefined {
  // the playbook's marks section is Combee's: the one rendered again is kept, the edits are laid onto the rest
  const again = splitMarkSectionText(rendered);
  const patched = withOtherBodyEdits(
    splitMarkSectionText(proposed).body,
    splitMarkSectionText(edited).body,
    again.body,
    rules,
  );
  return patched === undefined ? undefined : joinMarkSectionText(patched, again.section);
}

function withOtherBodyEdits(
  proposed: string,
  edited: string,
  rendered: string,
  rules: { kept: readonly string[]; out: readonly string[] },
): string | undefined {
  const out = new Set(rules.out);
  const placed = new Set<string>();
  const lines: string[] = [];
  for (const line of proposed.split('\n')) {
    if (citesAny(line, out)) continue;
    const id = notRule(line) ? undefined : rules.kept.find((k) => line.includes(`[${k}]`));
    if (id === undefined) lines.push(line);
    // the rule's lines as edited, in place of its first line
    else if (!placed.has(id)) {
      placed.add(id);
      lines.push(...ruleLines(edited, id));
    }
  }
  const start = lines.join('\n');
  const mine = edited
    .split('\n')
    .filter((line) => !citesAny(line, out))
    .join('\n');
  if (start === mine) return rendered;
  const patch = structuredPatch('file', 'file', start, mine, undefined, undefined, { context: 3 });
  const patched = applyPatch(rendered, patch, { fuzzFactor: 0 });
  return patched === false ? undefined : patched;
}
