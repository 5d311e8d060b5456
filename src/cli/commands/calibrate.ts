import {
  describeCalibration,
  describePlan,
  planCalibration,
  runCalibration,
} from '../../core/learn/capacity/calibrate';
import {
  DEFAULT_AGGREGATION_CAPACITY_TOKENS,
  MIN_AGGREGATION_CAPACITY_TOKENS,
} from '../../core/learn/capacity/capacity';
import { PROVIDER_CHOICES } from '../../core/llm/providers';
import { saveCalibration } from '../../core/service/calibrateModel';
import { decimal, integer, oneOf, parse, UsageError } from '../args';
import { progressOf, type Output } from '../output';
import { endpointFromFlags, resolveRoles } from './learnProvider';
import { storeDirFor } from '../store';

/**
 * `combee calibrate`: a few synthetic aggregation calls at growing sizes, their cost shown first, and what the
 * model kept kept in its capacity profile, which the next learning run plans with.
 */
export async function calibrateCommand(argv: string[], out: Output, signal?: AbortSignal): Promise<number> {
  const { values } = parse(argv, {
    store: { type: 'string' },
    provider: { type: 'string' },
    'base-url': { type: 'string' },
    model: { type: 'string' },
    seed: { type: 'string' },
    'max-tokens': { type: 'string' },
    'price-in': { type: 'string' },
    'price-out': { type: 'string' },
    'allow-insecure-http': { type: 'boolean' },
    timeout: { type: 'string' },
    yes: { type: 'boolean' },
    json: { type: 'boolean' },
    reset: { type: 'boolean' },
  });
  const upperBoundTokens = integer('max-tokens', values['max-tokens']) ?? DEFAULT_AGGREGATION_CAPACITY_TOKENS;
  if (upperBoundTokens < MIN_AGGREGATION_CAPACITY_TOKENS)
    throw new UsageError(`--max-tokens must be at least ${MIN_AGGREGATION_CAPACITY_TOKENS}`);
  const seed = integer('seed', values.seed);
  const timeoutSeconds = integer('timeout', values.timeout);
  const priceIn = decimal('price-in', values['price-in']);
  const priceOut = decimal('price-out', values['price-out']);
  const prices =
    priceIn !== undefined || priceOut !== undefined ? { input: priceIn ?? 0, output: priceOut ?? 0 } : undefined;
  const provider = oneOf('provider', values.provider, PROVIDER_CHOICES, 'auto');
  const storeDir = storeDirFor(values.store, out);
  const roles = resolveRoles(
    provider,
    {
      ...endpointFromFlags(values),
      // never the cache: a calibration measures the model as it answers now
      prices,
      timeoutMs: timeoutSeconds ? timeoutSeconds * 1000 : undefined,
      aggregationCapacityTokens: upperBoundTokens,
    },
    out,
  );
  if (!roles) return 1;
  const capacity = roles.aggregator.capacity;
  if (roles.info.provider === 'offline' || !capacity)
    throw new UsageError(
      'calibration needs a model: the offline learner has no capacity to measure (use --provider openai with OPENAI_API_KEY, or --base-url of a local endpoint)',
    );

  const plan = planCalibration({ capacity, upperBoundTokens, seed, prices });
  out.info(describePlan(plan, `${roles.info.provider}/${roles.info.model}`));
  if (!values.yes) {
    if (!out.ask) throw new UsageError('calibration sends model calls: pass --yes to send them without a terminal');
    const answer = await out.ask('Send these calls? [y/N] ');
    if (!/^y(es)?$/i.test(answer.trim())) {
      if (values.json) out.result(JSON.stringify({ declined: true, estimate: plan.estimate }, null, 2));
      else out.result('Calibration cancelled: nothing was sent.');
      return 0;
    }
  }

  const progress = values.json ? undefined : progressOf(out, 'calibrating');
  let result: Awaited<ReturnType<typeof runCalibration>>;
  try {
    result = await runCalibration(plan, roles.aggregator, signal, (message, fraction) =>
      progress?.update(Math.round(fraction * 100), 100, message),
    );
  } finally {
    progress?.stop();
  }
  const saved = await saveCalibration(storeDir, roles.info, result, values.reset === true);
  const answered = result.calls.some((c) => c.answer);
  if (values.json) {
    out.result(
      JSON.stringify(
        {
          provider: roles.info.provider,
          model: roles.info.model,
          seed: result.seed,
          upperBoundTokens: result.upperBoundTokens,
          estimate: plan.estimate,
          calls: result.calls,
          learnedTokens: result.learnedTokens ?? null,
          largestAnsweredTokens: result.largestAnsweredTokens ?? null,
          failedCalls: result.failedCalls,
          cancelled: result.cancelled,
          usage: result.usage,
          warnings: result.warnings,
          profile: {
            file: saved.file,
            reset: values.reset === true,
            calls: saved.profileCalls,
            capacityTokens: saved.profileTokens ?? null,
          },
        },
        null,
        2,
      ),
    );
    return answered ? 0 : 1;
  }
  for (const warning of result.warnings) out.warn(warning);
  const next =
    saved.profileTokens !== undefined
      ? `about ${saved.profileTokens.toLocaleString('en-US')} tokens per call (never more than --aggregation-tokens)`
      : 'the setting (--aggregation-tokens)';
  out.result(
    [
      describeCalibration(result),
      `Saved ${result.observations.length} call(s) to ${saved.file}${values.reset ? ' (the earlier calls were forgotten)' : ''}: the next run of ${roles.info.model} plans with ${next}.`,
    ].join('\n'),
  );
  return answered ? 0 : 1;
}
