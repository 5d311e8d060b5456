import type { Playbook } from '../../playbook/model';
import type { Trace } from '../../trace/model';
import type { Reflection, Reflector, RoleResult } from '../../learn/types';
import { mineLessons } from './miner';

export class OfflineReflector implements Reflector {
  async reflect(trace: Trace, playbook: Playbook): Promise<RoleResult<Reflection>> {
    const started = Date.now();
    const value = mineLessons(trace, playbook);
    return { value, usage: { inputTokens: 0, outputTokens: 0, latencyMs: Date.now() - started }, warnings: [] };
  }
}
