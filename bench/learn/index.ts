// Entry of dist/bench.js: `combee bench learn [--json] [--quick] [--out <folder>]`.
import { runLearnBench } from './main';

export async function runBench(argv: string[]): Promise<number> {
  const [what, ...rest] = argv;
  if (what === 'learn') return runLearnBench(rest);
  process.stderr.write('usage: combee bench learn [--json] [--quick] [--out <folder>]\n');
  return 2;
}
