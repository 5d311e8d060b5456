import { join } from 'node:path';
import { z } from 'zod';
import { atomicWrite, readJsonFile } from '../../util/io';
import type { LoadObservation } from './capacityLearning';

/** A profile keeps the latest calls: enough to say where a model starts to drop, bounded in size. */
export const PROFILE_CALLS = 400;

const Observation = z.object({
  load: z.number().int().nonnegative(),
  items: z.number().int().positive(),
  dropped: z.number().int().nonnegative(),
  redo: z.boolean().optional(),
});

const Profiles = z.object({
  version: z.literal(1),
  /** `<provider>/<model>` → its recorded aggregation calls, oldest first. */
  profiles: z.record(z.string(), z.object({ calls: z.array(Observation) })),
});

/**
 * Capacity profiles, one per model, beside the latency profiles: the aggregation calls recorded for it (load,
 * items, drops), from learning runs and calibrations. The capacity is derived from them when a run plans
 * (capacityLearning.ts), so the same profile always gives the same plan.
 */
export class CapacityProfiles {
  constructor(private readonly storeDir: string) {}

  get file(): string {
    return join(this.storeDir, 'capacity-profiles.json');
  }

  private async all(): Promise<z.infer<typeof Profiles>> {
    const parsed = Profiles.safeParse(await readJsonFile(this.file).catch(() => undefined));
    return parsed.success ? parsed.data : { version: 1, profiles: {} };
  }

  async load(provider: string, model: string): Promise<LoadObservation[]> {
    return (await this.all()).profiles[`${provider}/${model}`]?.calls ?? [];
  }

  /** Adds a run's (or a calibration's) calls to the model's profile, keeping the latest. */
  async append(provider: string, model: string, calls: readonly LoadObservation[]): Promise<void> {
    if (calls.length === 0) return;
    const state = await this.all();
    const key = `${provider}/${model}`;
    const kept = [...(state.profiles[key]?.calls ?? []), ...calls].slice(-PROFILE_CALLS);
    state.profiles[key] = { calls: kept };
    await atomicWrite(this.file, JSON.stringify(state, null, 1));
  }

  /** Forgets a model's calls (a new calibration, or a model that changed behind the same name). */
  async clear(provider: string, model: string): Promise<void> {
    const state = await this.all();
    delete state.profiles[`${provider}/${model}`];
    await atomicWrite(this.file, JSON.stringify(state, null, 1));
  }
}
