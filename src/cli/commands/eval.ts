import { join, resolve } from 'node:path';
import { backtest } from '../../core/eval/backtest';
import { backtestText } from '../../core/eval/render';
import type { SplitChoice } from '../../core/eval/split';
import { CallCache } from '../../core/llm/cache';
import { PROVIDER_CHOICES } from '../../core/llm/providers';
import { TraceStore } from '../../core/store/traceStore';
import { integer, oneOf, parse, UsageError, workspacePathFlag } from '../args';
import { progressOf, type Output } from '../output';
import { endpointFromFlags, resolveRoles } from './learnProvider';
import { storeDirFor } from '../store';

/** `--split <date>` or `--ratio <r>` (not both); neither: the first half of the sessions teaches. */
function splitChoice(values: Record<string, string | boolean | undefined>): SplitChoice | undefined {
  if (values.split !== undefined && values.ratio !== undefined)
    throw new UsageError('--split and --ratio are two ways to cut: give one');
  if (typeof values.split === 'string') {
    if (!Number.isFinite(Date.parse(values.split)))
      throw new UsageError('--split must be a date or time (for example 2026-11-01 or 2026-11-01T09:00:00Z)');
    return { at: values.split };
  }
  if (typeof values.ratio === 'string') {
    const ratio = Number(values.ratio);
    if (!(ratio > 0 && ratio < 1)) throw new UsageError('--ratio must be a number between 0 and 1, such as 0.5');
    return { ratio };
  }
  return undefined;
}

/** `combee eval`: the backtest of the rules the earlier sessions teach, replayed over the later ones. */
export async function evalCommand(argv: string[], out: Output, signal?: AbortSignal): Promise<number> {
  const { values } = parse(argv, {
    workspace: { type: 'string' },
    store: { type: 'string' },
    playbook: { type: 'string' },
    split: { type: 'string' },
    ratio: { type: 'string' },
    seed: { type: 'string' },
    batch: { type: 'string' },
    provider: { type: 'string' },
    'base-url': { type: 'string' },
    model: { type: 'string' },
    'allow-insecure-http': { type: 'boolean' },
    'no-cache': { type: 'boolean' },
    json: { type: 'boolean' },
  });
  const split = splitChoice(values);
  const seed = integer('seed', values.seed);
  const batchSize = integer('batch', values.batch);
  if (batchSize === 0) throw new UsageError('--batch must be at least 1');
  // offline unless asked: a backtest is run often and should cost nothing by default
  const provider = oneOf('provider', values.provider, PROVIDER_CHOICES, 'offline');
  const workspace = resolve(typeof values.workspace === 'string' ? values.workspace : process.cwd());
  const playbookPath = workspacePathFlag('playbook', workspace, values.playbook);
  const store = new TraceStore(storeDirFor(values.store, out));
  const roles = resolveRoles(
    provider,
    {
      ...endpointFromFlags(values),
      cache: values['no-cache'] ? undefined : new CallCache(join(store.dir, 'cache')),
    },
    out,
  );
  if (!roles) return 1;
  const progress = values.json ? undefined : progressOf(out, 'backtesting');
  let report: Awaited<ReturnType<typeof backtest>>;
  try {
    report = await backtest({
      store,
      workspace,
      reflector: roles.reflector,
      aggregator: roles.aggregator,
      provider: roles.info,
      embed: roles.embed,
      playbookPath,
      split,
      seed,
      batchSize,
      signal,
      onProgress: progress
        ? (message, fraction) => progress.update(Math.round(fraction * 100), 100, message)
        : undefined,
    });
  } finally {
    progress?.stop();
  }
  out.result(values.json ? JSON.stringify(report, null, 2) : backtestText(report));
  return report.learnStatus === 'failed' ? 1 : 0;
}
