import type { RunNode, RunRecord } from './record';

/** A run in progress as the tree panel draws it: the nodes of the calls finished so far, without their contents. */
export interface LiveRunSnapshot {
  workspace: string;
  startedAt: string;
  provider: string;
  model: string;
  strategy: RunRecord['strategy'];
  seed: number;
  duplication: number;
  traces: number;
  calls: number;
  costUsd: number;
  nodes: RunNode[];
}

/** How often a run in progress is sent to the panel, at most. */
export const SNAPSHOT_INTERVAL_MS = 1000;

type SnapshotHead = Omit<LiveRunSnapshot, 'nodes' | 'calls' | 'costUsd'>;

/**
 * Sends the run's nodes every `SNAPSHOT_INTERVAL_MS` while new ones have come (for display only: nothing the run
 * decides depends on it). `stop` sends what is left and ends the timer.
 */
export function liveSnapshots(
  head: SnapshotHead,
  ledger: { nodes: readonly RunNode[]; totals: RunRecord['totals'] },
  send: ((snapshot: LiveRunSnapshot) => void) | undefined,
): { flush(): void; stop(): void } {
  if (!send) return { flush() {}, stop() {} };
  let sent = 0;
  const flush = () => {
    if (ledger.nodes.length === sent) return;
    sent = ledger.nodes.length;
    send({
      ...head,
      calls: ledger.totals.calls,
      costUsd: ledger.totals.costUsd,
      nodes: ledger.nodes.map(({ detail: _detail, ...node }) => node),
    });
  };
  const timer = setInterval(flush, SNAPSHOT_INTERVAL_MS);
  timer.unref?.();
  return {
    flush,
    stop() {
      clearInterval(timer);
      flush();
    },
  };
}
