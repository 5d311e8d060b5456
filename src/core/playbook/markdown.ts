import { inlineMark, keptMarks, liftInlineMarks, markSectionLines, splitMarkSection } from './marks';
import type { Bullet, Playbook, PlaybookLine, Section } from './model';

const BULLET = /^\s*(?:[-*]\s+)?\[([^\]\s]+)\]\s*(?:helpful|h)=(\d+)\s+(?:harmful|r)=(\d+)\s*::\s?(.*)$/;
const HEADER = /^##\s+(.+?)\s*$/;

/**
 * A rule written by hand without counters (`- [sec-00001] Always run …`): agents reading the playbook take it as a rule,
 * so it is one here too — listed, screened, counted from zero. Only Combee's id shape, so `- [x] done` stays text.
 */
const HAND_WRITTEN = /^\s*(?:[-*]\s+)?\[([a-z]{2,5}-\d{5})\]\s+(?!(?:helpful|h)=)(\S.*)$/;

export function parseBulletLine(line: string): Bullet | undefined {
  const m = BULLET.exec(line);
  if (m) return { id: m[1], helpful: Number(m[2]), harmful: Number(m[3]), content: m[4], raw: line };
  const hand = HAND_WRITTEN.exec(line);
  return hand ? { id: hand[1], helpful: 0, harmful: 0, content: hand[2].trim(), raw: line } : undefined;
}

export function formatBullet(bullet: Bullet): string {
  return bullet.raw ?? `[${bullet.id}] helpful=${bullet.helpful} harmful=${bullet.harmful} :: ${bullet.content}`;
}

/**
 * Parses a playbook: its headings, rules and text, and its marks (the machine section at the end, and older marks
 * above their rules, which are lifted out). A playbook Combee wrote serializes back byte for byte; an older one comes
 * back with its marks moved into the machine section.
 */
export function parsePlaybook(text: string): Playbook {
  const trailingNewline = text.endsWith('\n');
  const all = text.length === 0 ? [] : (trailingNewline ? text.slice(0, -1) : text).split('\n');
  const section = splitMarkSection(all);
  const playbook: Playbook = { preamble: [], sections: [], trailingNewline };
  const inline = new Set<object>();
  let current: Section | undefined;
  let inFence = false;
  for (const line of section.body) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const header = inFence ? null : HEADER.exec(line);
    if (header) {
      current = { title: header[1], header: line, lines: [] };
      playbook.sections.push(current);
      continue;
    }
    const bullet = inFence ? undefined : parseBulletLine(line);
    const entry: PlaybookLine = bullet ? { kind: 'bullet', bullet } : { kind: 'text', text: line };
    if (!inFence && !bullet && inlineMark(line)) inline.add(entry);
    if (current) current.lines.push(entry);
    else playbook.preamble.push(line);
  }
  const found = [...section.marks];
  const lifted = liftInlineMarks(playbook, inline, found);
  const kept = keptMarks(playbook, found);
  const problems = [...section.problems, ...lifted, ...kept.problems];
  if (kept.marks.length > 0) playbook.marks = kept.marks;
  if (problems.length > 0) playbook.markProblems = problems;
  return playbook;
}

export function serializePlaybook(playbook: Playbook): string {
  const body: string[] = [...playbook.preamble];
  for (const section of playbook.sections) {
    body.push(section.header);
    for (const line of section.lines) body.push(line.kind === 'bullet' ? formatBullet(line.bullet) : line.text);
  }
  const out = markSectionLines(playbook, body);
  const text = out.join('\n');
  return playbook.trailingNewline && out.length > 0 ? `${text}\n` : text;
}

export const PLAYBOOK_PREAMBLE = [
  '# Playbook',
  '',
  "<!-- Maintained by Combee from this repository's agent sessions; reviewed like code. Edit freely: human edits win.",
  "     Format: [id] helpful=N harmful=N :: rule. Agents: cite a rule's id when you apply it. -->",
  '',
];

export function emptyPlaybook(): Playbook {
  return {
    preamble: [...PLAYBOOK_PREAMBLE],
    sections: [],
    trailingNewline: true,
  };
}
