import type { Strategy } from '../../src/core/learn/run';
import { NO_COUNTS } from '../../src/core/learn/rules/confirmedCounters';
import { serializePlaybook } from '../../src/core/playbook/markdown';
import { resolveConflicts } from '../../src/core/service/learnRun/resolveConflicts';
import { startModelServer } from '../../testing/modelServer';
import { learningCorpus, type PlantedLesson } from './corpus';
import { instantModel, OVERLOAD } from './simulation';
import { CONCURRENCY, learnSimulated } from './simulatedRun';

// Lessons that differ only in their target: "run `make gen-007` before `make test-007` in services/cart", the same
// for npm scripts and cargo targets, in a few services. Every one is its own rule; one that is merged into another
// because both name `services/cart` and `make` is a lesson lost. The run's rules go through the proposal's own
// conflict resolution (merging what says the same, settling contradictions), as `learn` does before proposing.

const SERVICES = ['cart', 'checkout', 'search', 'orders', 'payments', 'email', 'admin', 'pricing', 'inventory', 'auth'];

/** `count` lessons, each naming its own make, npm-script or cargo targets. */
export function targetLessons(count: number): PlantedLesson[] {
  return Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(3, '0');
    const id = `LESSON-${n}`;
    const where = `services/${SERVICES[i % SERVICES.length]}`;
    const steps = [
      `run \`make gen-${n}\` before \`make test-${n}\` in ${where}`,
      `run \`npm run gen:${n}\` before \`npm run test:${n}\` in ${where}`,
      `build \`cargo build --bin gen-${n}\` before \`cargo test --test it-${n}\` in ${where}`,
    ];
    return { id, text: `${id}: ${steps[i % steps.length]}.` };
  });
}

export interface TargetFigures {
  strategy: Strategy;
  batch: number;
  planted: number;
  /** Lessons whose rule is still in the playbook after the proposal's conflict resolution. */
  kept: number;
  /** Rules the resolution withdrew as saying what another says. */
  mergedAway: number;
}

/** Sequential and combee on 1,000 sessions (200 with `quick`) stating twice as few target lessons, each in 2 of them. */
export async function targetLessonsBench(quick: boolean, log: (line: string) => void): Promise<TargetFigures[]> {
  const traceCount = quick ? 200 : 1000;
  const lessons = targetLessons(traceCount / 2);
  const traces = learningCorpus(traceCount, lessons, 2, 29);
  const server = await startModelServer({
    responder: instantModel(OVERLOAD),
    concurrencyCap: CONCURRENCY,
    retryAfterSeconds: 1,
  });
  const figures: TargetFigures[] = [];
  try {
    for (const [strategy, batch] of [
      ['sequential', 1],
      ['combee', traceCount],
    ] as const) {
      const result = await learnSimulated(server.url, traces, { strategy, batchSize: batch, seed: 29 });
      const outcome = resolveConflicts(result, [], () => NO_COUNTS);
      const text = serializePlaybook(result.playbook);
      const f: TargetFigures = {
        strategy,
        batch,
        planted: lessons.length,
        kept: lessons.filter((l) => text.includes(`${l.id}:`)).length,
        mergedAway: outcome.withdrawn.filter((w) => w.reason.startsWith('says what')).length,
      };
      figures.push(f);
      log(
        `targets ${strategy.padEnd(10)} batch=${String(batch).padStart(4)} kept ${f.kept}/${f.planted}  merged away ${f.mergedAway}`,
      );
    }
  } finally {
    await server.close();
  }
  return figures;
}
