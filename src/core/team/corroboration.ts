import type { Evidence } from '../playbook/delta';
import type { Corroboration } from '../playbook/provenanceMark';

// A rule several developers' sessions support is stronger evidence than one person's habit: the proposal, the review
// and the playbook say how many people and sessions stand behind it.

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
