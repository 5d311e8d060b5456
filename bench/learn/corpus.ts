import { seededRandom } from '../../src/core/learn/random';
import { TRACE_SCHEMA_VERSION, type Step, type StepInput, type Trace } from '../../src/core/trace/model';
import { computeOutcome } from '../../src/core/trace/outcome';

export interface PlantedLesson {
  id: string;
  text: string;
}

const SUBJECTS = [
  'the cart service',
  'the checkout flow',
  'the search index',
  'the orders repo',
  'the payments client',
  'the email worker',
  'the admin UI',
  'the pricing rules',
  'the inventory sync',
  'the auth middleware',
];
const ACTIONS = [
  'run `pnpm db:generate` first',
  'set `TZ=UTC`',
  'use `pnpm test --filter`',
  'mock the clock with `vi.useFakeTimers()`',
  'rebuild with `pnpm build:types`',
  'seed with `pnpm db:seed`',
  'restart `pnpm dev:queue`',
  'clear `.turbo/` caches',
  'pin `NODE_OPTIONS=--max-old-space-size=4096`',
  'use the `FeatureFlags` test helper',
];

/** L distinct, specific lessons (the kind naive aggregation loses first). */
export function plantedLessons(count: number): PlantedLesson[] {
  return Array.from({ length: count }, (_, i) => {
    const id = `LESSON-${String(i + 1).padStart(3, '0')}`;
    return {
      id,
      text: `${id}: when touching ${SUBJECTS[i % SUBJECTS.length]} (case ${Math.floor(i / SUBJECTS.length) + 1}), ${ACTIONS[(i * 7) % ACTIONS.length]}.`,
    };
  });
}

/**
 * N synthetic sessions of realistic length; each states some planted lessons (each lesson appears in
 * `lessonsPerTrace * traces / lessons` sessions). Deterministic from the seed.
 */
export function learningCorpus(
  traceCount: number,
  lessons: PlantedLesson[],
  lessonsPerTrace: number,
  seed: number,
): Trace[] {
  const random = seededRandom(seed);
  const slots: number[] = [];
  while (slots.length < traceCount * lessonsPerTrace)
    for (let i = 0; i < lessons.length && slots.length < traceCount * lessonsPerTrace; i++) slots.push(i);
  for (let i = slots.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [slots[i], slots[j]] = [slots[j], slots[i]];
  }
  return Array.from({ length: traceCount }, (_, t) => {
    const mine = slots.slice(t * lessonsPerTrace, (t + 1) * lessonsPerTrace).map((i) => lessons[i]);
    const steps: Step[] = [];
    const push = (step: StepInput) => steps.push({ ...step, index: steps.length } as Step);
    push({ kind: 'user', text: `Please fix bug #${1000 + t} in ${SUBJECTS[t % SUBJECTS.length]}.` });
    for (let k = 0; k < 6; k++) {
      const callId = `c${t}-${k}`;
      push({
        kind: 'assistant',
        text: `Looking at ${SUBJECTS[(t + k) % SUBJECTS.length]}: reading the module and its tests before changing anything. ${'The function composes several helpers and the bug is in the edge case handling. '.repeat(3)}`,
      });
      push({ kind: 'tool_call', callId, tool: 'Bash', command: `pnpm vitest run src/module${k}`, input: '{}' });
      push({
        kind: 'tool_result',
        callId,
        output: Array.from(
          { length: 25 },
          (_, l) => ` ✓ src/module${k}/case${l}.test.ts (${3 + ((l * 7) % 11)} tests) ${10 + l}ms`,
        ).join('\n'),
        isError: false,
      });
    }
    for (const lesson of mine) push({ kind: 'user', text: `Note for the future — ${lesson.text}` });
    push({ kind: 'assistant', text: 'Done: the fix is in and the tests pass.' });
    return {
      schemaVersion: TRACE_SCHEMA_VERSION,
      id: `bench:${String(t).padStart(4, '0')}`,
      agent: 'claude-code',
      cwd: '/bench/repo',
      startedAt: new Date(Date.UTC(2026, 10, 1) + t * 60_000).toISOString(),
      source: { path: `/bench/${t}.jsonl`, bytes: 0 },
      steps,
      outcome: computeOutcome(steps),
      unknown: {},
      warnings: [],
      redactions: 0,
    } satisfies Trace;
  });
}
