import type { Trace } from '../../src/core/trace/model';
import { assistant, makeTrace, shell, user } from '../../testing/traces';

export const TEAM = ['alice', 'bob', 'carol'] as const;

/**
 * A simulated team of three developers of one repository, each on their own machine (their own checkout path):
 * each hits the same failing `pnpm test` before the client is generated, and each has pitfalls of their own.
 */
export function teamSessions(checkoutOf: (dev: string) => string = (dev) => `/home/${dev}/src/acme-shop`): Trace[] {
  const traces: Trace[] = [];
  TEAM.forEach((dev, d) => {
    const cwd = checkoutOf(dev);
    for (let s = 0; s < 4; s++) {
      const day = `2026-11-${String(10 + s).padStart(2, '0')}`;
      const own = [
        shell(`pnpm lint --fix src/${dev}`, 'ESLint: 3 problems', 1),
        shell('docker compose up -d db', 'Error: port 5432 already in use', 1),
        shell(`pnpm --filter web build`, 'Type error in src/cart.ts', 1),
        shell('pnpm test --filter api', 'ok'),
      ][s];
      traces.push(
        makeTrace(
          `claude-code:${dev}-${s}`,
          [
            user(`task ${s} for ${dev}: fix the cart tests in ${cwd}/src/cart.ts`),
            ...(s < 2 ? shell('pnpm test', 'PrismaClientInitializationError: client not generated', 1) : []),
            ...own,
            ...shell('pnpm db:generate', 'Generated Prisma Client'),
            ...shell('pnpm test', '42 passed'),
            assistant('Fixed.'),
          ],
          {
            cwd,
            contributor: dev,
            title: `${dev} session ${s}`,
            startedAt: `${day}T${String(9 + d).padStart(2, '0')}:00:00.000Z`,
            endedAt: `${day}T${String(9 + d).padStart(2, '0')}:30:00.000Z`,
            source: { path: `${cwd}/.claude/${dev}-${s}.jsonl`, bytes: 1000 + s },
          },
        ),
      );
    }
  });
  return traces;
}
