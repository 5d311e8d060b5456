import type { Evidence } from '../playbook/delta';
import { marksStart } from '../playbook/marks';
import type { Playbook, PlaybookLine } from '../playbook/model';

// A rule several developers' sessions support is stronger evidence than one person's habit: the proposal, the review
// and the playbook say how many people and sessions stand behind it.

export interface Corroboration {
  people: number;
  sessions: number;
}

/** Sessions recorded on this machine (not from a team bundle) count as one person. */
const THIS_MACHINE = '\u0000this machine';

export function corroborationOf(
  support: readonly Evidence[],
  contributorOf: (traceId: string) => string | undefined,
): Corroboration {
  const sessions = new Set(support.map((s) => s.traceId));
  const people = new Set([...sessions].map((id) => contributorOf(id) ?? THIS_MACHINE));
  return { people: people.size, sessions: sessions.size };
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
