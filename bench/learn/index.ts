// Entry of dist/bench.js: `combee bench learn [--json] [--quick] [--out <folder>]`, `combee bench faults [--runs n]`.
import { runFaultsBench } from './faultsBench';
import { runLearnBench } from './main';

export async function runBench(argv: string[]): Promise<number> {
  const [what, ...rest] = argv;
  if (what === 'learn') return runLearnBench(rest);
  if (what === 'faults') return runFaultsBench(rest);
  process.stderr.write('usage: combee bench learn [--json] [--quick] [--out <folder>] | combee bench faults [--runs n] [--out <folder>]\n');
  return 2;
}
