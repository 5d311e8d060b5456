// Live capture: with background capture on, a session an agent writes is imported without any command.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { CombeeApi } from '../../../src/extension/extension';
import { activate, run, workspaceFolder } from './combee';
import { ClaudeSession } from './sessions';

const waitFor = async (check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe('live capture', () => {
  let api: CombeeApi;
  const config = () => vscode.workspace.getConfiguration('combee');

  before(async () => {
    api = await activate();
  });

  after(async () => {
    await config().update('capture.background', undefined, vscode.ConfigurationTarget.Global);
  });

  it('imports a new session and its growth as the agent writes them', async function () {
    this.timeout(90_000);
    await config().update('capture.background', true, vscode.ConfigurationTarget.Global);
    const sessionId = '7c000001-0000-4000-8000-000000000001';
    const session = new ClaudeSession(sessionId, workspaceFolder().uri.fsPath, 'now').user('live capture check');
    session.write();
    await waitFor(
      async () => (await api.sessionIds()).includes(`claude-code:${sessionId}`),
      60_000,
      'the new session to be imported',
    );
    session.user('and it grows').append();
    await waitFor(
      async () => (await api.sessionSteps(`claude-code:${sessionId}`)) === 2,
      60_000,
      'the appended step to be imported',
    );
    assert.ok(true);
  });

  it("Import Sessions… imports a chosen folder of another agent's sessions (Codex) and counts them", async () => {
    const cwd = workspaceFolder().uri.fsPath;
    const folder = join(tmpdir(), `combee-codex-${Date.now()}`);
    mkdirSync(join(folder, 'sessions', '2026', '11', '20'), { recursive: true });
    const id = '01a1d000-0000-7000-8000-000000000001';
    const lines = [
      {
        timestamp: '2026-11-20T10:00:00.000Z',
        type: 'session_meta',
        payload: { id, timestamp: '2026-11-20T10:00:00.000Z', cwd, originator: 'codex_cli_rs', cli_version: '0.148.0' },
      },
      {
        timestamp: '2026-11-20T10:00:01.000Z',
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix the flaky test' }] },
      },
      {
        timestamp: '2026-11-20T10:00:02.000Z',
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'shell',
          arguments: JSON.stringify({ command: ['bash', '-lc', 'pnpm test'] }),
          call_id: 'c1',
        },
      },
      {
        timestamp: '2026-11-20T10:00:03.000Z',
        type: 'response_item',
        payload: {
          type: 'function_call_output',
          call_id: 'c1',
          output: JSON.stringify({ output: 'ok', metadata: { exit_code: 0 } }),
        },
      },
    ];
    writeFileSync(
      join(folder, 'sessions', '2026', '11', '20', `rollout-2026-11-20T10-00-00-${id}.jsonl`),
      lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
    );
    const imported = await run('combee.importSessions', folder);
    assert.equal(imported, 1);
    assert.ok((await api.sessionIds()).includes(`codex:${id}`));
  });
});
