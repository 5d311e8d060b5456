import assert from 'node:assert/strict';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import type { HostApi, WorkerApi } from '../../../src/core/pool/learnProtocol';
import { PortRpc } from '../../../src/core/util/portRpc';
import { runLearnTask } from '../../../src/core/pool/learnTask';
import { importSessions } from '../../../src/core/import/importer';
import { TraceStore } from '../../../src/core/store/traceStore';
import { EXAMPLES } from '../../support/paths';
import { simulatedModel } from '../../../testing/simulatedModel';
import { tempDir } from '../../../testing/tmp';

async function exampleStore(): Promise<string> {
  const dir = join(tempDir('combee-task-'), 'store');
  const store = new TraceStore(dir);
  for (const agent of ['claude-code', 'codex'])
    await importSessions({ from: join(EXAMPLES, 'sessions', agent), store });
  return dir;
}

describe('a learning run as a worker task (over a message port)', () => {
  it('runs offline, relays progress and saves the proposal', async () => {
    const storeDir = await exampleStore();
    const { port1, port2 } = new MessageChannel();
    const progress: string[] = [];
    new PortRpc<WorkerApi, HostApi>(port2, { progress: ({ message }) => void progress.push(message) });
    const result = await runLearnTask({
      storeDir,
      workspace: tempDir('combee-ws-'),
      provider: { kind: 'offline' },
      options: { allWorkspaces: true, seed: 7 },
      port: port1,
    });
    port2.close();
    assert.equal(result.sessions, 5);
    assert.equal(result.run?.status, 'completed');
    // three of the sessions are Claude Code's: CLAUDE.md is a target without a setting, and imports AGENTS.md (the
    // folder's own CLAUDE.md its folder's AGENTS.md, which Claude Code loads when it works there)
    assert.deepEqual(result.proposal?.files, [
      '.combee/playbook.md',
      'AGENTS.md',
      'src/generated/AGENTS.md',
      'CLAUDE.md',
      'src/generated/CLAUDE.md',
    ]);
    assert.ok(progress.some((p) => /reflecting on 5 session/.test(p)));
  });

  it("proxies model calls to the host (how VS Code's language models are reached) and asks before a run", async () => {
    const storeDir = await exampleStore();
    const { port1, port2 } = new MessageChannel();
    const asked: number[] = [];
    new PortRpc<WorkerApi, HostApi>(port2, {
      confirm: (estimate) => {
        asked.push(estimate.sessions);
        return true;
      },
      chat: (messages) => ({
        content: simulatedModel({ model: 'host', messages }).content ?? '',
        finishReason: 'stop',
        inputTokens: 10,
        outputTokens: 5,
      }),
    });
    const result = await runLearnTask({
      storeDir,
      workspace: tempDir('combee-ws-'),
      provider: { kind: 'proxy', info: { provider: 'vscode', model: 'copilot/test' } },
      options: { allWorkspaces: true, confirm: true, seed: 3 },
      port: port1,
    });
    port2.close();
    assert.deepEqual(asked, [5]);
    assert.equal(result.run?.status, 'completed');
    assert.equal(result.run?.calls, 5 + 3);
    assert.equal(result.run?.tokens, (5 + 3) * 15);
    assert.ok(result.proposal);
  });

  it('a cancel from the host stops the run cooperatively; declining the estimate runs nothing', async () => {
    const storeDir = await exampleStore();
    const { port1, port2 } = new MessageChannel();
    new PortRpc<WorkerApi, HostApi>(port2, { confirm: () => false });
    const declined = await runLearnTask({
      storeDir,
      workspace: tempDir('combee-ws-'),
      provider: { kind: 'proxy', info: { provider: 'vscode', model: 'x' } },
      options: { allWorkspaces: true, confirm: true },
      port: port1,
    });
    port2.close();
    assert.equal(declined.declined, true);
    assert.equal(declined.run, undefined);

    const channel = new MessageChannel();
    // the host cancels at the first model call and never answers it
    const worker: PortRpc<WorkerApi, HostApi> = new PortRpc<WorkerApi, HostApi>(channel.port2, {
      chat: () => {
        worker.notify('cancel', 'test');
        return new Promise(() => undefined);
      },
    });
    const cancelled = await runLearnTask({
      storeDir,
      workspace: tempDir('combee-ws-'),
      provider: { kind: 'proxy', info: { provider: 'vscode', model: 'x' } },
      options: { allWorkspaces: true },
      port: channel.port1,
    });
    channel.port2.close();
    assert.equal(cancelled.run?.status, 'cancelled');
    assert.equal(cancelled.proposal, undefined);
  });
});
