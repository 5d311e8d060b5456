import { identityKey } from '../../trace/shell';
import type { Lesson } from '../../learn/types';
import type { Run } from './fixes';

// What this environment cannot do: a command that fails for want of a login or a network, and never works in the
// session. Retrying it wastes the session; the user can fix it, the agent cannot. Precision first: never a check (its
// failures are the code's), never a line of several commands (whose status is which?), never a failure the session
// then fixed, two sessions failing the same way, and none of the run's sessions showing the command pass (the
// `refuted` gate). A missing program is left to fixes.ts, which names what replaced it: without a replacement, a
// `command not found` is as often a typo or a path as a missing install.

const MIN_SESSIONS = 2;
const CHECKS = new Set(['test', 'lint', 'typecheck', 'build', 'format']);

export type Limit = 'login' | 'network';

/** The tool's own words for a missing login (gh, git over ssh, npm, docker, cloud CLIs). */
const LOGIN =
  /\bnot logged in(?:to)?\b|\bfailed to log ?in\b|\blogin required\b|\bauthentication (?:required|failed)\b|\bre-?authenticate\b|\bunauthori[sz]ed\b|\binvalid (?:token|credentials)\b|\btoken\b[^\n]{0,40}\b(?:is invalid|has expired|expired)\b|\bpermission denied \(publickey\)/i;
const NETWORK =
  /\bcould not resolve host\b|\berror connecting to\b|\bnetwork is unreachable\b|\bENOTFOUND\b|\bEAI_AGAIN\b|\btemporary failure in name resolution\b|\bno route to host\b/i;

/** A tool's passing remark (`npm notice …`, `warning: …`): not why it failed. */
const REMARK = /^\s*(?:\S+ )?(?:notice|warn(?:ing)?|info|hint)\b/i;

/** Which limit a failure's output shows, if any, read from its lines that are not passing remarks. */
export function limitOf(output: string): Limit | undefined {
  const said = output
    .split('\n')
    .filter((line) => !REMARK.test(line))
    .join('\n');
  if (LOGIN.test(said)) return 'login';
  if (NETWORK.test(said)) return 'network';
  return undefined;
}

function wording(limit: Limit, command: string): string {
  const every = 'it failed so in every session that ran it';
  switch (limit) {
    case 'login':
      return `\`${command}\` fails here for want of a login (${every}): ask the user to authenticate instead of retrying.`;
    case 'network':
      return `\`${command}\` cannot reach the network here (${every}): ask the user instead of retrying.`;
  }
}

export function environmentLimitLessons(
  traceId: string,
  runs: readonly Run[],
  explained: ReadonlySet<number>,
): Lesson[] {
  const lessons: Lesson[] = [];
  const keyOf = (r: Run) => (r.action ? identityKey(r.action.identity) : undefined);
  const worked = new Set(runs.filter((r) => r.passed).map(keyOf));
  for (const run of runs) {
    const key = keyOf(run);
    if (!run.failed || !key || worked.has(key) || CHECKS.has(run.kind) || explained.has(run.call.index)) continue;
    if (run.action?.others.length) continue;
    const limit = limitOf(run.result.output);
    if (!limit) continue;
    lessons.push({
      section: 'Pitfalls',
      kind: 'pitfall',
      key: `limit:${limit}:${key}`,
      content: wording(limit, key),
      minSupport: MIN_SESSIONS,
      evidence: { traceId, steps: [run.call.index, run.result.index] },
    });
  }
  return lessons;
}
