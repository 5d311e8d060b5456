import { join } from 'node:path';
import { z } from 'zod';
import { atomicWrite, readJsonFile } from '../../util/io';
import type { Measurement } from './controller';

const Profiles = z.object({
  version: z.literal(1),
  /** `<provider>/<model>` → the batch delays its first profiling run measured. */
  profiles: z.record(
    z.string(),
    z.array(z.object({ batchSize: z.number().int().min(1), delayMs: z.number().nonnegative() })),
  ),
});

/**
 * Latency profiles for the dynamic batch-size controller, one per model: measured once, then replayed, so a run's
 * batches never depend on its own clock (the same sessions and seed give the same result).
 */
export class LatencyProfiles {
  constructor(private readonly storeDir: string) {}

  private get file(): string {
    return join(this.storeDir, 'latency-profiles.json');
  }

  private async all(): Promise<z.infer<typeof Profiles>> {
    const parsed = Profiles.safeParse(await readJsonFile(this.file).catch(() => undefined));
    return parsed.success ? parsed.data : { version: 1, profiles: {} };
  }

  async load(provider: string, model: string): Promise<Measurement[] | undefined> {
    return (await this.all()).profiles[`${provider}/${model}`];
  }

  async save(provider: string, model: string, profile: Measurement[]): Promise<void> {
    const state = await this.all();
    state.profiles[`${provider}/${model}`] = profile;
    await atomicWrite(this.file, JSON.stringify(state, null, 1));
  }
}
