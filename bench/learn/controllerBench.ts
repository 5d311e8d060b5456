import type { Measurement } from '../../src/core/learn/capacity/controller';
import type { ControllerRecord } from '../../src/core/learn/record/record';
import { DEFAULTS } from '../../src/core/learn/run';
import { serializePlaybook } from '../../src/core/playbook/markdown';
import { learningCorpus, plantedLessons } from './corpus';
import { learnSimulated } from './simulatedRun';

export interface ControllerFigures {
  sessions: number;
  /** Epoch wall time of every fixed batch size of the sweep (the controller's bounds). */
  fixed: Array<{ batch: number; wallMs: number }>;
  best: { batch: number; wallMs: number };
  /** What the first `auto` run measured (it learns at the default size meanwhile). */
  profile: Measurement[];
  decision: ControllerRecord;
  /** The epoch at the chosen size: an `auto` run that replays the recorded profile. */
  chosenWallMs: number;
  /** chosenWallMs / best.wallMs. */
  ratio: number;
  /** A second replay chose the same size and produced the same playbook, byte for byte. */
  reproducible: boolean;
}

/**
 * The dynamic batch-size controller on the simulated delay curve: the epoch at the size it picks against every fixed
 * size within its bounds, measured on the same sessions and seed. The first `auto` run profiles (as a first run with
 * a new model does), the next two replay that profile: the decision comes from it, never from their own clock.
 */
export async function controllerBench(
  url: string,
  sessions: number,
  seed: number,
  sizes: readonly number[],
  log: (line: string) => void,
): Promise<ControllerFigures> {
  const traces = learningCorpus(sessions, plantedLessons(sessions / 2), 2, seed);
  const fixed: ControllerFigures['fixed'] = [];
  for (const batch of sizes) {
    const result = await learnSimulated(url, traces, { batchSize: batch, seed });
    fixed.push({ batch, wallMs: result.record.totals.wallMs });
    log(
      `controller fixed batch=${String(batch).padStart(3)} epoch ${(result.record.totals.wallMs / 1000).toFixed(2)} s`,
    );
  }
  const best = fixed.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
  const profiling = await learnSimulated(url, traces, { batchSize: 'auto', seed });
  const profile = profiling.measuredProfile;
  const replay = () => learnSimulated(url, traces, { batchSize: 'auto', seed, latencyProfile: profile });
  const first = await replay();
  const second = await replay();
  const decision = first.record.controller;
  if (!decision) throw new Error('the auto run recorded no controller decision');
  const reproducible =
    second.record.controller?.chosen === decision.chosen &&
    serializePlaybook(second.playbook) === serializePlaybook(first.playbook);
  const figures: ControllerFigures = {
    sessions,
    fixed,
    best,
    profile,
    decision,
    chosenWallMs: first.record.totals.wallMs,
    ratio: first.record.totals.wallMs / best.wallMs,
    reproducible,
  };
  log(
    `controller profiled ${profile.map((m) => `${m.batchSize}: ${Math.round(m.delayMs)} ms`).join(', ')} → chose ${decision.chosen} (bounds ${DEFAULTS.batchBounds.bMin}–${DEFAULTS.batchBounds.bMax}); epoch ${(figures.chosenWallMs / 1000).toFixed(2)} s against the best fixed ${best.batch}: ${(best.wallMs / 1000).toFixed(2)} s (${figures.ratio.toFixed(2)}×); replayed twice: ${reproducible ? 'same size, same playbook' : 'DIFFERENT'}`,
  );
  return figures;
}
