import type { Counters, LocalCounts } from '../../src/core/learn/rules/confirmedCounters';
import { bullets, type Playbook } from '../../src/core/playbook/model';
import { RuleLedger } from '../../src/core/store/ruleLedger';
import type { WorkspaceState } from '../../src/core/store/workspaceState';

// Counters this machine counted itself: as many sessions as each playbook line says (except the rules named), so a
// test of honest counters has them confirmed as a real run would have.

function written(playbook: Playbook, except: readonly string[]): Map<string, Counters> {
  return new Map(bullets(playbook).flatMap((b) => (except.includes(b.id) ? [] : [[b.id, b] as const])));
}

/** Counts as a ledger that counted every line's counters (but those of `except`) would give them. */
export function countedAsWritten(playbook: Playbook, except: readonly string[] = []): LocalCounts {
  const counts = written(playbook, except);
  return (id) => {
    const c = counts.get(id);
    return { helpful: c?.helpful ?? 0, harmful: c?.harmful ?? 0 };
  };
}

/** Writes the workspace's evidence ledger so that it confirms every line's counters (but those of `except`). */
export async function ledgerConfirming(
  state: WorkspaceState,
  workspace: string,
  playbook: Playbook,
  except: readonly string[] = [],
): Promise<void> {
  const ledger = await RuleLedger.load(state, workspace);
  const entries = [...written(playbook, except)].flatMap(([id, c]) =>
    (['helpful', 'harmful'] as const).flatMap((tag) =>
      Array.from({ length: c[tag] }, (_, i) => ({
        id,
        traceId: `codex:${tag}-${id}-${i}`,
        sessionKey: `codex:${tag}-${id}-${i}`,
        tag,
        counted: true,
      })),
    ),
  );
  await ledger.record('earlier-run', entries);
}
