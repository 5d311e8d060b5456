import type { CalibrationResult } from '../learn/capacity/calibrate';
import { plannedCapacity } from '../learn/capacity/capacityLearning';
import { CapacityProfiles } from '../learn/capacity/capacityProfiles';
import type { ProviderInfo } from '../learn/types';

/**
 * Keeps a calibration's calls in the model's capacity profile (after forgetting the old ones, with `reset`) and
 * says what the profile now gives the next run's plan (the capacity shown, or a probe above it: plannedCapacity).
 */
export async function saveCalibration(
  storeDir: string,
  provider: ProviderInfo,
  result: CalibrationResult,
  reset: boolean,
): Promise<{ file: string; profileTokens?: number; profileCalls: number }> {
  const profiles = new CapacityProfiles(storeDir);
  if (reset) await profiles.clear(provider.provider, provider.model);
  await profiles.append(provider.provider, provider.model, result.observations);
  const calls = await profiles.load(provider.provider, provider.model);
  const learned = plannedCapacity(calls);
  return {
    file: profiles.file,
    profileCalls: calls.length,
    ...(learned !== undefined ? { profileTokens: learned } : {}),
  };
}
