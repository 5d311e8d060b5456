// Entry of dist/bench.js: `combee bench learn [--json] [--quick] [--targets] [--out <folder>]`, `combee bench faults [--runs n]`,
// `combee bench poison [--json]`, `combee bench sessions [--sessions n]`, `combee bench quality [--learner …]`,
// `combee bench backtest [--learner …]`, `combee bench relevance [--json]`,
// `combee bench merge [--lines n]`, `combee bench secrets [--json]`, `combee bench real [--learner …]`.
import { runFaultsBench } from './faultsBench';
import { runLearnBench } from './main';
import { runPoisonBench } from './poison';
import { QUALITY_USAGE, runQualityBench } from '../quality/main';
import { BACKTEST_USAGE, runBacktestBench } from '../quality/backtest';
import { MERGE_USAGE, runMergeBench } from '../merge/mergeBench';
import { RELEVANCE_USAGE, runRelevanceBench } from '../quality/relevance';
import { runSessionsBench } from './sessions';
import { runSecretsBench, SECRETS_USAGE } from '../secrets/secretsBench';
import { REAL_USAGE, runRealBench } from '../real/main';

export async function runBench(argv: string[]): Promise<number> {
  const [what, ...rest] = argv;
  if (what === 'learn') return runLearnBench(rest);
  if (what === 'faults') return runFaultsBench(rest);
  if (what === 'poison') return runPoisonBench(rest);
  if (what === 'sessions') return runSessionsBench(rest);
  if (what === 'quality') return runQualityBench(rest);
  if (what === 'backtest') return runBacktestBench(rest);
  if (what === 'relevance') return runRelevanceBench(rest);
  if (what === 'merge') return runMergeBench(rest);
  if (what === 'secrets') return runSecretsBench(rest);
  if (what === 'real') return runRealBench(rest);
  process.stderr.write(
    `usage: combee bench learn [--json] [--quick] [--targets] [--out <folder>] | combee bench faults [--runs n] [--out <folder>] | combee bench poison [--json] [--out <folder>] | combee bench sessions [--sessions n] [--runs n] [--json] [--out <folder>] | ${QUALITY_USAGE} | ${BACKTEST_USAGE} | ${RELEVANCE_USAGE} | ${MERGE_USAGE} | ${SECRETS_USAGE} | ${REAL_USAGE}\n`,
  );
  return 2;
}
