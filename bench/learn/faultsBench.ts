import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { faultRun, SCALED_HEDGE, type FaultRunFigures } from './faultRun';
import { FAULTS } from './faults';

const SESSIONS = 200;
const BATCH = 40;

/** `combee bench faults`: the same 200-session run fault-free and on a bad day at the endpoint, side by side. */
export async function runFaultsBench(argv: string[]): Promise<number> {
  const out = argv.includes('--out') ? argv[argv.indexOf('--out') + 1] : join(process.cwd(), 'bench', 'results');
  const runs = Number(argv[argv.indexOf('--runs') + 1]) || 3;
  const log = (line: string) => process.stdout.write(`${line}\n`);
  log(
    `SIMULATION: ${SESSIONS} sessions, batch ${BATCH}, combee; faults ${JSON.stringify(FAULTS)}; hedging after max(${SCALED_HEDGE.floorMs} ms, ${SCALED_HEDGE.multiple}× median)`,
  );
  const pairs: Array<{ clean: FaultRunFigures; faulty: FaultRunFigures }> = [];
  for (let i = 0; i < runs; i++) {
    const clean = await faultRun({ sessions: SESSIONS, batch: BATCH, seed: 17, faults: false });
    const faulty = await faultRun({ sessions: SESSIONS, batch: BATCH, seed: 17, faults: true });
    pairs.push({ clean, faulty });
    log(
      `run ${i + 1}: fault-free ${(clean.wallMs / 1000).toFixed(2)} s, ${clean.requests} requests; faulty ${(faulty.wallMs / 1000).toFixed(2)} s, ${faulty.requests} requests, ${faulty.retries} retries, ${faulty.hedges} hedges, ${faulty.reflections}/${SESSIONS} reflected, same playbook: ${faulty.playbook === clean.playbook}`,
    );
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const cleanMs = median(pairs.map((p) => p.clean.wallMs));
  const faultyMs = median(pairs.map((p) => p.faulty.wallMs));
  const summary = {
    simulation: { sessions: SESSIONS, batch: BATCH, faults: FAULTS, hedge: SCALED_HEDGE, runs },
    runs: pairs.map(({ clean, faulty }) => ({
      clean: { ...clean, playbook: undefined },
      faulty: { ...faulty, playbook: undefined },
      samePlaybook: clean.playbook === faulty.playbook,
    })),
    medianCleanMs: cleanMs,
    medianFaultyMs: faultyMs,
    target: {
      value: faultyMs / (3 * cleanMs + SCALED_HEDGE.floorMs),
      meaning: 'faulty wall time ÷ (3 × fault-free + hedging floor); ≤ 1 meets the target',
    },
    everySessionReflected: pairs.every((p) => p.faulty.reflections === SESSIONS && p.faulty.failedSessions === 0),
    samePlaybook: pairs.every((p) => p.faulty.playbook === p.clean.playbook),
  };
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'faults.json'), `${JSON.stringify(summary, null, 2)}\n`);
  log(
    `median: fault-free ${(cleanMs / 1000).toFixed(2)} s, faulty ${(faultyMs / 1000).toFixed(2)} s (${(faultyMs / cleanMs).toFixed(2)}×; target ≤ 3× + ${SCALED_HEDGE.floorMs} ms); every session reflected: ${summary.everySessionReflected}; same playbook: ${summary.samePlaybook}`,
  );
  log(`wrote ${join(out, 'faults.json')}`);
  return summary.everySessionReflected && summary.samePlaybook ? 0 : 1;
}
