import { withMark } from './marks';
import { findBullet, type Playbook } from './model';

// The provenance mark of a rule several developers' sessions support, its `corroborated` mark (marks.ts places it):
// `3 sessions from 2 people`.

export const CORROBORATION_KIND = 'corroborated';

export interface Corroboration {
  people: number;
  sessions: number;
}

export function describeCorroboration(c: Corroboration): string {
  return `${c.sessions} session${c.sessions === 1 ? '' : 's'} from ${c.people} ${c.people === 1 ? 'person' : 'people'}`;
}

/** The playbook with a provenance mark on each rule that more than one person's sessions support (an older one replaced). */
export function withCorroborationMarks(playbook: Playbook, byRule: ReadonlyMap<string, Corroboration>): Playbook {
  let marked = playbook;
  for (const [id, c] of byRule)
    if (c.people >= 2 && findBullet(playbook, id))
      marked = withMark(marked, CORROBORATION_KIND, id, describeCorroboration(c));
  return marked;
}
