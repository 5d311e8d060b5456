import { bullets, idNumber, MARK_KINDS, type MarkKind, type Playbook, type RuleMark } from './model';

// Combee's marks on rules (who wrote one, how many people's sessions back it, a flag that holds it back, a pin, an
// enforcement) live in one machine section at the end of the playbook, one line per mark, keyed by rule id:
//
//   <!-- combee:marks …
//   model [bui-00001] written by openai gpt-4o-mini (prompt 1)
//   -->
//
// This file alone places, writes and reads them; the files of each kind say only what their mark says. Older playbooks
// carried each mark as a comment line right above its rule (`<!-- combee:<kind> [id] … -->`): those are read the same
// and written here when Combee next renders the file. Why a section in the playbook, not a file beside it:
// docs/architecture.md. Every mark is text anyone with the repository can write: each kind re-checks what it says.

export { MARK_KINDS, type MarkKind, type RuleMark };

/**
 * Kinds a mark may have without its rule in the file: a held removal's note names the rule the removal takes out. It
 * served its review, so it is not read back.
 */
const RULELESS: ReadonlySet<MarkKind> = new Set<MarkKind>(['removal']);

const START = /^<!--\s*combee:marks\b/;
const HEADER = '<!-- combee:marks (one line per mark: kind [rule id] what it says; Combee rewrites this section)';
const END = '-->';
/** Kind first: a line of the section never reads as a rule (`[id] …`) to a tool or an agent reading the file raw. */
const MARK = /^([a-z]+) \[([^\]\s]+)\](?: (.*))?$/;
/** A mark as older playbooks wrote it, right above its rule. */
const INLINE_MARK = /^<!-- combee:([a-z]+) \[([^\]\s]+)\](?: (.*?))? ?-->$/;
const FENCE = /^\s*(```|~~~)/;

const isKind = (kind: string): kind is MarkKind => (MARK_KINDS as readonly string[]).includes(kind);

/** One line that cannot end the machine section's comment early. */
export function markText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/-{2,}(!?)>/g, '-$1>')
    .trim();
}

function markLine(mark: RuleMark): string {
  return `${mark.kind} [${mark.id}] ${markText(mark.text)}`;
}

function readMarkLine(line: string): RuleMark | undefined {
  const m = MARK.exec(line.trim());
  return m && isKind(m[1]) ? { id: m[2], kind: m[1], text: markText(m[3] ?? '') } : undefined;
}

/** Whether a line is one of Combee's marks (in the machine section, or above a rule as older versions wrote them). */
export function isMarkLine(line: string): boolean {
  return START.test(line.trim()) || readMarkLine(line) !== undefined || inlineMark(line) !== undefined;
}

/** An older mark line's kind, rule and text; undefined when the line is none. */
export function inlineMark(line: string): { kind: string; id: string; text: string } | undefined {
  const m = INLINE_MARK.exec(line.trim());
  return m ? { kind: m[1], id: m[2], text: markText(m[3] ?? '') } : undefined;
}

/**
 * What an older whole mark line of this kind and rule says (a proposal stored before marks moved holds such lines);
 * any other text is taken as the mark's text itself.
 */
export function fromInlineMark(kind: MarkKind, id: string, text: string): string {
  const old = inlineMark(text);
  return old && old.kind === kind && old.id === id ? old.text : markText(text);
}

/** Whether the section starting at `start` is closed and only blank lines follow it. */
function closesFile(lines: readonly string[], start: number): boolean {
  let end = start + 1;
  while (end < lines.length && !lines[end].includes(END)) end++;
  return end < lines.length && lines.slice(end + 1).every((l) => l.trim() === '');
}

export interface MarkSection {
  /** The file's lines without the machine section (and the blank lines right before it). */
  body: string[];
  marks: RuleMark[];
  problems: string[];
}

/**
 * Takes the machine section out of a file's lines. A damaged one is read as far as it goes: a line that is no mark is
 * kept as text where the section was (nothing is lost), a section never closed ends at the file's end.
 */
export function splitMarkSection(lines: readonly string[]): MarkSection {
  const body: string[] = [];
  const marks: RuleMark[] = [];
  const problems: string[] = [];
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (FENCE.test(line)) inFence = !inFence;
    // a fence the file never closes does not hide the section Combee wrote after it
    if (!START.test(line.trim()) || (inFence && !closesFile(lines, i))) {
      body.push(line);
      continue;
    }
    while (body.length > 0 && body[body.length - 1].trim() === '') body.pop();
    let closed = line.includes(END, line.indexOf('combee:marks'));
    for (i++; !closed && i < lines.length; i++) {
      const at = lines[i].indexOf(END);
      const text = (at < 0 ? lines[i] : lines[i].slice(0, at)).trim();
      closed = at >= 0;
      if (text === '') continue;
      const mark = readMarkLine(text);
      if (mark) marks.push(mark);
      else {
        problems.push(`a line of the combee:marks section is no mark, kept as text: ${markText(text).slice(0, 80)}`);
        body.push(lines[i]);
      }
    }
    i--;
    if (!closed) problems.push('the combee:marks section has no closing -->, read to the end of the file');
  }
  return { body, marks, problems };
}

/**
 * A file's text split at its marks section: the text around it, and the section's lines with the blank lines before
 * it (none when the file has no section). For laying a person's edits onto a file Combee renders again.
 */
export function splitMarkSectionText(text: string): { body: string; section: string[] } {
  const lines = text.split('\n');
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    if (FENCE.test(lines[i])) inFence = !inFence;
    if (!START.test(lines[i].trim()) || (inFence && !closesFile(lines, i))) continue;
    let end = lines[i].includes(END, lines[i].indexOf('combee:marks')) ? i : i + 1;
    while (end < lines.length - 1 && !lines[end].includes(END)) end++;
    let cut = i;
    while (cut > 0 && lines[cut - 1].trim() === '') cut--;
    return { body: [...lines.slice(0, cut), ...lines.slice(end + 1)].join('\n'), section: lines.slice(cut, end + 1) };
  }
  return { body: text, section: [] };
}

/** `splitMarkSectionText` undone: the section after the text's last non-blank line. */
export function joinMarkSectionText(body: string, section: readonly string[]): string {
  if (section.length === 0) return body;
  const trailingNewline = body.endsWith('\n');
  const lines = (trailingNewline ? body.slice(0, -1) : body).split('\n');
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  const text = [...lines, ...section].join('\n');
  return trailingNewline ? `${text}\n` : text;
}

/**
 * Lifts older marks (a comment line above a rule, naming it) into `playbook.marks`; one not above the rule it names
 * (moved by a merge or a hand edit) is dropped, as it meant nothing there. `inline` holds the lines that look like
 * older marks outside code fences. Marks already read from the machine section win over older ones for the same rule.
 */
export function liftInlineMarks(playbook: Playbook, inline: ReadonlySet<object>, found: RuleMark[]): string[] {
  const problems: string[] = [];
  const lifted = new Set<object>();
  for (const section of playbook.sections)
    section.lines.forEach((line, index) => {
      if (line.kind !== 'bullet') return;
      for (let at = index - 1; at >= 0; at--) {
        const above = section.lines[at];
        const old = above.kind === 'text' && inline.has(above) ? inlineMark(above.text) : undefined;
        if (!old || old.id !== line.bullet.id) break;
        if (!isKind(old.kind)) continue;
        lifted.add(above);
        found.push({ id: old.id, kind: old.kind, text: old.text });
      }
    });
  for (const section of playbook.sections)
    section.lines = section.lines.filter((line) => {
      if (lifted.has(line)) return false;
      if (!inline.has(line) || line.kind !== 'text') return true;
      const old = inlineMark(line.text);
      if (!old || !isKind(old.kind)) return true;
      problems.push(`the ${old.kind} mark of ${old.id} was not above that rule and is dropped`);
      return false;
    });
  return problems;
}

/**
 * The marks the playbook keeps: one of each kind per rule (the first read wins) and only for rules it holds. What is
 * left out is said in the returned problems.
 */
export function keptMarks(playbook: Playbook, found: readonly RuleMark[]): { marks: RuleMark[]; problems: string[] } {
  const rules = new Set(bullets(playbook).map((b) => b.id));
  const seen = new Map<string, string>();
  const marks: RuleMark[] = [];
  const problems: string[] = [];
  for (const mark of found) {
    const key = `${mark.kind} ${mark.id}`;
    const first = seen.get(key);
    if (first !== undefined) {
      if (first !== mark.text) problems.push(`a second ${mark.kind} mark of ${mark.id} is dropped`);
      continue;
    }
    seen.set(key, mark.text);
    if (RULELESS.has(mark.kind)) continue;
    if (rules.has(mark.id)) marks.push(mark);
    else problems.push(`the ${mark.kind} mark of ${mark.id} names no rule in the playbook and is dropped`);
  }
  return { marks, problems };
}

function ordered(marks: readonly RuleMark[]): RuleMark[] {
  return [...marks].sort(
    (a, b) =>
      idNumber(a.id) - idNumber(b.id) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) ||
      MARK_KINDS.indexOf(a.kind) - MARK_KINDS.indexOf(b.kind),
  );
}

/** The machine section's lines for the playbook's marks (none when it has none), after its body. */
export function markSectionLines(playbook: Playbook, body: string[]): string[] {
  const rules = new Set(bullets(playbook).map((b) => b.id));
  const marks = ordered((playbook.marks ?? []).filter((m) => RULELESS.has(m.kind) || rules.has(m.id)));
  if (marks.length === 0) return body;
  const out = [...body];
  while (out.length > 0 && out[out.length - 1].trim() === '') out.pop();
  if (out.length > 0) out.push('');
  return [...out, HEADER, ...marks.map(markLine), END];
}

/** One counted warning for what reading the playbook's marks left out or kept as text; undefined when nothing. */
export function markWarning(playbook: Playbook, path = 'the playbook'): string | undefined {
  const problems = playbook.markProblems ?? [];
  if (problems.length === 0) return undefined;
  const shown = problems.slice(0, 3).join('; ');
  return `${path}: ${problems.length} mark problem${problems.length === 1 ? '' : 's'} (${shown}${problems.length > 3 ? '; …' : ''}); Combee writes its marks afresh on the next render`;
}

// Reading and writing one kind of mark.

/** What the rule's mark of this kind says, if it has one. */
export function markOf(playbook: Playbook, kind: MarkKind, id: string): string | undefined {
  return (playbook.marks ?? []).find((m) => m.kind === kind && m.id === id)?.text;
}

/** Every mark of a kind, by rule id, for the rules the playbook holds (in the playbook's order). */
export function marksOf(playbook: Playbook, kind: MarkKind): Map<string, string> {
  const byId = new Map<string, string>();
  for (const mark of playbook.marks ?? []) if (mark.kind === kind && !byId.has(mark.id)) byId.set(mark.id, mark.text);
  const found = new Map<string, string>();
  for (const bullet of bullets(playbook)) {
    const text = byId.get(bullet.id);
    if (text !== undefined && !found.has(bullet.id)) found.set(bullet.id, text);
  }
  if (RULELESS.has(kind)) for (const [id, text] of byId) if (!found.has(id)) found.set(id, text);
  return found;
}

/** The playbook with the rule's mark of this kind set to `text` (replacing one it had), or removed when undefined. */
export function withMark(playbook: Playbook, kind: MarkKind, id: string, text: string | undefined): Playbook {
  const rest = (playbook.marks ?? []).filter((m) => !(m.kind === kind && m.id === id));
  return { ...playbook, marks: text === undefined ? rest : [...rest, { id, kind, text: markText(text) }] };
}

/** The playbook without any mark of these rules (their rules left or renamed), in place, as `apply` edits. */
export function dropMarksOf(playbook: Playbook, ids: ReadonlySet<string>): void {
  if (playbook.marks) playbook.marks = playbook.marks.filter((m) => !ids.has(m.id));
}

/** Gives a rule's marks its new id, in place. */
export function renameMarks(playbook: Playbook, from: string, to: string): void {
  if (playbook.marks) playbook.marks = playbook.marks.map((m) => (m.id === from ? { ...m, id: to } : m));
}

/**
 * The playbook as agents would load it if they loaded it whole: its headings and rules, no marks. No agent reads the
 * marks (AGENTS.md and the other files carry the rules only), so a token budget does not count them.
 */
export function withoutAnyMarks(playbook: Playbook): Playbook {
  return { ...playbook, marks: [] };
}

/** A pinned rule is kept by the team: Combee proposes neither retiring nor replacing it. */
export const PIN_KIND = 'pinned';
const PIN_TEXT = 'kept by the team: Combee proposes neither retiring nor replacing it';

/** Rules with a pin mark. */
export function pinnedIds(playbook: Playbook): Set<string> {
  return new Set(marksOf(playbook, PIN_KIND).keys());
}

/** The playbook with the rule pinned or not; `undefined` when it holds no such rule or nothing would change. */
export function withPin(playbook: Playbook, id: string, pinned: boolean): Playbook | undefined {
  if (!bullets(playbook).some((b) => b.id === id)) return undefined;
  if (pinned === pinnedIds(playbook).has(id)) return undefined;
  return withMark(playbook, PIN_KIND, id, pinned ? PIN_TEXT : undefined);
}
