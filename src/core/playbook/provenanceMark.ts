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

const ANY_MARK = new RegExp(
  `^<!-- combee:${KIND} \\[([^\\]\\s]+)\\] (\\d+) sessions? from (\\d+) (?:person|people) -->$`,
);

/**
 * One provenance mark per rule: a merge of two branches can bring a mark from each side. The one naming more people
 * (then more sessions) stays.
 */
export function withOneCorroborationMark(playbook: Playbook): Playbook {
  return {
    ...playbook,
    sections: playbook.sections.map((section) => {
      const lines = [...section.lines];
      for (let i = lines.length - 1; i >= 0; i--) {
        const line = lines[i];
        if (line.kind !== 'bullet') continue;
        const start = marksStart(lines, i);
        const marks = lines
          .slice(start, i)
          .map((l, at) => ({ at: start + at, m: l.kind === 'text' ? ANY_MARK.exec(l.text.trim()) : null }))
          .filter((x) => x.m && x.m[1] === line.bullet.id);
        if (marks.length < 2) continue;
        const score = (x: (typeof marks)[number]) => Number(x.m?.[3]) * 1e9 + Number(x.m?.[2]);
        const keep = marks.reduce((best, x) => (score(x) > score(best) ? x : best));
        for (const x of marks.reverse()) if (x !== keep) lines.splice(x.at, 1);
      }
      return { ...section, lines };
    }),
  };
}
