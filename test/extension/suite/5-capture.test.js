// Live capture: with background capture on, a session an agent writes is imported without any command.
const assert = require('node:assert/strict');
const { mkdirSync, writeFileSync, appendFileSync } = require('node:fs');
const { join } = require('node:path');
const vscode = require('vscode');

const waitFor = async (check, timeoutMs, what) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe('live capture', () => {
  let api;
  const config = () => vscode.workspace.getConfiguration('combee');

  before(async () => {
    api = await vscode.extensions.getExtension('combee.combee').activate();
  });

  after(async () => {
    await config().update('capture.background', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('imports a new session and its growth as the agent writes them', async function () {
    this.timeout(90_000);
    await config().update('capture.background', true, vscode.ConfigurationTarget.Workspace);
    const home = config().get('sources.extraFolders')[0];
    const cwd = vscode.workspace.workspaceFolders[0].uri.fsPath;
    const dir = join(home, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(dir, { recursive: true });
    const sessionId = '7c000001-0000-4000-8000-000000000001';
    const line = (n, text) => JSON.stringify({ type: 'user', sessionId, cwd, version: '2.1.50', uuid: `${sessionId}-${n}`, timestamp: new Date().toISOString(), message: { role: 'user', content: text } });
    writeFileSync(join(dir, `${sessionId}.jsonl`), `${line(1, 'live capture check')}\n`);
    await waitFor(async () => (await api.sessionIds()).includes(`claude-code:${sessionId}`), 60_000, 'the new session to be imported');
    appendFileSync(join(dir, `${sessionId}.jsonl`), `${line(2, 'and it grows')}\n`);
    await waitFor(async () => (await api.sessionSteps(`claude-code:${sessionId}`)) === 2, 60_000, 'the appended step to be imported');
    assert.ok(true);
  });
});
