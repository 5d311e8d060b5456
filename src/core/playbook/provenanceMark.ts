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
