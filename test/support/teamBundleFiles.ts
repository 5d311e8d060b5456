import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { writeBundle } from '../../src/core/team/bundle';
import type { Trace } from '../../src/core/trace/model';
import { makeTrace, shell, user } from '../../testing/traces';

/** A developer's sessions as a bundle carries them: the folder relative to the workspace, no contributor of its own. */
export function portableSessions(dev: string, count: number): Trace[] {
  return Array.from({ length: count }, (_, i) =>
    makeTrace(
      `claude-code:${dev}-team-${i}`,
      [user(`${dev}: fix the cart test ${i}`), ...shell('pnpm db:generate && pnpm test', '42 passed')],
      {
        cwd: '.',
        title: `${dev} session ${i}`,
        endedAt: `2026-11-1${i}T10:00:00.000Z`,
        source: { path: `${dev}-${i}.jsonl`, bytes: 100 },
      },
    ),
  );
}

/** Writes `dev`'s bundle of `count` sessions to `path`; returns its bytes. */
export async function writeTeamBundle(path: string, dev: string, count = 2): Promise<Buffer> {
  await writeBundle(
    path,
    { exportedBy: dev, newestSessionAt: '2026-11-20T00:00:00.000Z', workspaceName: 'acme-shop' },
    portableSessions(dev, count),
  );
  return readFileSync(path);
}

/** A copy of the bundle at `from` with one session's text changed after it was written: its checksum fails. */
export function writeTamperedCopy(from: string, to: string, find: string, replace: string): void {
  const text = gunzipSync(readFileSync(from)).toString('utf8');
  if (!text.includes(find)) throw new Error(`${find} is not in ${from}`);
  writeFileSync(to, gzipSync(text.replace(find, replace)));
}
