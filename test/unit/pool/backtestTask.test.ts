import assert from 'node:assert/strict';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import type { HostApi, WorkerApi } from '../../../src/core/pool/learnProtocol';
import { runBacktestTask } from '../../../src/core/pool/backtestTask';
import { TraceStore } from '../../../src/core/store/traceStore';
import { PortRpc } from '../../../src/core/util/portRpc';
import { makeTrace, shell, user } from '../../../testing/traces';
import { tempDir } from '../../../testing/tmp';

async function storeWith(workspace: string): Promise<string> {
  const dir = join(tempDir('combee-backtest-task-'), 'store');
  const store = new TraceStore(dir);
  for (const [i, id] of ['claude-code:a', 'claude-code:b'].entries())
    await store.saveTrace(
      makeTrace(
        id,
        [
          user('fix the cart total'),
          ...shell('pnpm test', "Error: Cannot find module '.prisma/client/default'", 1),
          ...shell('pnpm db:generate', 'Generated Prisma Client'),
          ...shell('pnpm test', 'Tests 12 passed'),
        ],
        { cwd: workspace, startedAt: `2026-11-0${i + 1}T09:00:00Z`, endedAt: `2026-11-0${i + 1}T10:00:00Z` },
      ),
    );
  return dir;
}

describe('a backtest as a worker task (over a message port)', () => {
  it('runs offline, relays progress and hands back the report', async () => {
    const workspace = tempDir('combee-ws-');
    const storeDir = await storeWith(workspace);
    const { port1, port2 } = new MessageChannel();
    const progress: string[] = [];
    // notifications cross the port on their own: the last one says the task is done
    let done: () => void = () => {};
    const delivered = new Promise<void>((resolve) => (done = resolve));
    new PortRpc<WorkerApi, HostApi>(port2, {
      progress: ({ message }) => {
        progress.push(message);
        if (message === 'done') done();
      },
    });
    const { report } = await runBacktestTask({
      storeDir,
      workspace,
      provider: { kind: 'offline' },
      options: { seed: 3 },
      port: port1,
    });
    await delivered;
    port2.close();
    assert.equal(report.earlier.sessions, 1);
    assert.equal(report.later.sessions, 1);
    assert.equal(report.totals.prevented, 1);
    assert.equal(report.seed, 3);
    assert.ok(progress.some((p) => /^learning: batch 1/.test(p)));
    assert.ok(
      progress.some((p) => /^replaying \d+ rules? over 1 later session$/.test(p)),
      progress.join('\n'),
    );
  });

  it('a cancel from the host stops it', async () => {
    const workspace = tempDir('combee-ws-');
    const storeDir = await storeWith(workspace);
    const { port1, port2 } = new MessageChannel();
    const host = new PortRpc<WorkerApi, HostApi>(port2, {});
    host.notify('cancel', 'cancelled by the user');
    await assert.rejects(
      runBacktestTask({ storeDir, workspace, provider: { kind: 'offline' }, options: {}, port: port1 }),
      (error: Error) => error.name === 'AbortError' || /abort|cancel/i.test(error.message),
    );
    port2.close();
  });
});
