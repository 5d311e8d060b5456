import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Output } from '../output';

/** Benchmarks live in their own bundle (dist/bench.js), built from a source checkout and not shipped in the .vsix. */
export async function benchCommand(argv: string[], out: Output): Promise<number> {
  const bundle = join(__dirname, 'bench.js');
  if (!existsSync(bundle)) {
    out.warn('benchmarks run from a source checkout: npm run build, then node dist/cli.js bench learn');
    return 1;
  }
  const load = require;
  const { runBench } = load(bundle) as { runBench(argv: string[]): Promise<number> };
  return runBench(argv);
}
