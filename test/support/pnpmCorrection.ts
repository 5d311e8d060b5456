import { makeTrace, shell, user } from '../../testing/traces';

/** A session where the agent installs with npm and the user corrects it to pnpm, on the given day of November 2026. */
export function pnpmCorrection(workspace: string, id: string, day: number) {
  return makeTrace(
    `claude:${id}`,
    [
      user('add zod to the api package'),
      ...shell('npm install zod', 'added 1 package'),
      ...shell('npm run build', 'Error: lockfile pnpm-lock.yaml does not match package-lock.json', 1),
      user('No, we use pnpm here, not npm. Run pnpm add zod instead.'),
      ...shell('pnpm add zod', 'Done in 1.2s'),
      ...shell('pnpm build', 'built in 3s'),
    ],
    { cwd: workspace, startedAt: `2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z` },
  );
}
