import { marksStart } from './marks';
import type { Playbook, PlaybookLine } from './model';

// The provenance mark of a rule several developers' sessions support: `<!-- combee:corroborated [id] … -->`.

export interface Corroboration {
  people: number;
  sessions: number;
}

export function describeCorroboration(c: Corroboration): string {
  return `${c.sessions} session${c.sessions === 1 ? '' : 's'} from ${c.people} ${c.people === 1 ? 'person' : 'people'}`;
}

const KIND = 'corroborated';
const markOf = (id: string) => new RegExp(`^<!-- combee:${KIND} \\[${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\]`);

/**
 * The playbook with a provenance mark above each rule that more than one person's sessions support (an older one
 * for the same rule replaced). It goes on top of the rule's marks: the trust screen's mark stays next to the bullet.
 */
export function withCorroborationMarks(playbook: Playbook, byRule: ReadonlyMap<string, Corroboration>): Playbook {
  const marked = [...byRule].filter(([, c]) => c.people >= 2);
  if (marked.length === 0) return playbook;
  const wanted = new Map(marked);
  return {
    ...playbook,
    preamble: [...playbook.preamble],
    sections: playbook.sections.map((section) => {
      const lines: PlaybookLine[] = [...section.lines];
      for (let i = lines.length - 1; i >= 0; i--) {
        const line = lines[i];
        if (line.kind !== 'bullet') continue;
        const c = wanted.get(line.bullet.id);
        if (!c) continue;
        const start = marksStart(lines, i);
        const old = markOf(line.bullet.id);
        const kept = lines.slice(start, i).filter((m) => !(m.kind === 'text' && old.test(m.text.trim())));
        const mark: PlaybookLine = {
          kind: 'text',
          text: `<!-- combee:${KIND} [${line.bullet.id}] ${describeCorroboration(c)} -->`,
        };
        lines.splice(start, i - start, mark, ...kept);
      }
      return { ...section, lines };
    }),
  };
}

const ANY_MARK = new RegExp(`^<!-- combee:${KIND} \\[([^\\]\\s]+)\\]`);

function corroborationLines(playbook: Playbook): Set<string> {
  const lines = new Set<string>();
  for (const section of playbook.sections)
    for (const line of section.lines)
      if (line.kind === 'text' && ANY_MARK.test(line.text.trim())) lines.add(line.text.trim());
  return lines;
}

/**
 * The merged playbook with only the provenance marks every version of a merge carries word for word (the common
 * ancestor's, which neither side touched). A merge has the files and none of the sessions a mark counts: a mark one
 * side added or changed is that side's say-so, so it is dropped (by rule id in `dropped`) rather than kept or summed;
 * the next run that proposes the rule marks it again from its own evidence.
 */
export function withCorroborationMarksOfAll(
  merged: Playbook,
  versions: readonly Playbook[],
): { playbook: Playbook; dropped: string[] } {
  const [first, ...rest] = versions.map(corroborationLines);
  const kept = new Set([...(first ?? [])].filter((line) => rest.every((lines) => lines.has(line))));
  const dropped = new Set<string>();
  const playbook = {
    ...merged,
    preamble: [...merged.preamble],
    sections: merged.sections.map((section) => ({
      ...section,
      lines: section.lines.filter((line) => {
        if (line.kind !== 'text') return true;
        const m = ANY_MARK.exec(line.text.trim());
        if (!m || kept.has(line.text.trim())) return true;
        dropped.add(m[1]);
        return false;
      }),
    })),
  };
  return { playbook, dropped: [...dropped].sort() };
}
