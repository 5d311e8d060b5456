// The Sessions view works like the rest of VS Code: a click opens the session's transcript, the tooltip says what the
// session was, and the context menu reveals where it was read from.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activate, captureHome, run, sessionsViewItems } from './combee';
import { ClaudeSession } from './sessions';

describe('Sessions view: a session opens, says what it was, and shows where it came from', () => {
  let id: string;

  before(async () => {
    await activate();
    id = new ClaudeSession('9c000001-0000-4000-8000-000000000000')
      .user('Run the cart tests with pnpm, please.')
      .bash('pnpm cart:test', 'ok', 0)
      .write();
    await run('combee.importSessions', captureHome());
  });

  it('a click on a session opens its transcript beside the view, read-only', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const node = (await sessionsViewItems()).find((n) => n.id === id);
    assert.ok(node, `${id} is listed`);
    assert.equal(node.command?.command, 'combee.openSession', 'clicking the row runs Open Transcript');
    await vscode.commands.executeCommand(node.command.command, ...node.command.arguments);
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.scheme, 'combee-session');
    assert.match(editor.document.getText(), /Run the cart tests with pnpm, please\./);
  });

  it('the tooltip names the session, its agent and time, its steps and whether it was learned', async () => {
    const node = (await sessionsViewItems()).find((n) => n.id === id);
    const tooltip = (node?.tooltip ?? '').replace(/\\(.)/g, '$1');
    assert.ok(tooltip.startsWith(`**${node!.label}**`), tooltip);
    assert.match(tooltip, /claude-code .* · /);
    assert.match(tooltip, /\d+ steps, 0 tool errors/);
    assert.match(tooltip, /not learned yet|learned/);
  });

  it("Reveal Source Log gives the agent's own log file (copied where there is no file manager)", async () => {
    const path = await vscode.commands.executeCommand<string | undefined>('combee.revealSessionSource', id);
    assert.ok(path?.startsWith(captureHome()), `${path} is under the agent's folder`);
    if (vscode.env.uiKind !== vscode.UIKind.Desktop || vscode.env.remoteName !== undefined)
      assert.equal(await vscode.env.clipboard.readText(), path);
  });
});
