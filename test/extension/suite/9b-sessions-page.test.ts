// The Sessions view lists the newest sessions first, a page at a time, from the pack indexes' summaries: past the
// first page a node offers the older ones, and Show Older Sessions adds them.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { captureHome, run } from './combee';
import { writeSession } from './sessions';
import type { TreeSnapshot } from '../../../src/extension/views/treeSnapshot';
import { activate, api, sessionsViewItems } from './combee';

const isSession = (node: TreeSnapshot) => node.contextValue?.startsWith('combee.session');
const PAGE = 200;

describe('Sessions view: the newest sessions first, the older ones on demand', () => {
  before(async () => {
    await activate();
  });

  it('shows a first page and a node for the rest; Show Older Sessions adds them', async function () {
    this.timeout(120_000);
    const already = (await api().sessionIds()).length;
    for (let i = already; i < PAGE + 7; i++)
      writeSession('Use pnpm here, not npm.', ['npm test', 'npm error: this repository uses pnpm'], ['pnpm test']);
    await run('combee.importSessions', captureHome());
    const total = (await api().sessionIds()).length;
    assert.ok(total >= PAGE + 7, `${total} sessions`);

    const first = await sessionsViewItems();
    assert.equal(first.filter(isSession).length, PAGE);
    const more = first.at(-1);
    assert.equal(more!.id, 'combee.sessions.more');
    assert.equal(more!.label, `Show ${Math.min(PAGE, total - PAGE)} older sessions`);
    assert.equal(more!.description, `${PAGE} of ${total} shown`);
    const starts = first.filter(isSession).map((n) => n.description!.split(' · ')[1]);
    assert.ok(
      starts.every((s) => s !== 'unknown time'),
      'every summary has its start',
    );

    await vscode.commands.executeCommand('combee.showMoreSessions');
    const all = await sessionsViewItems();
    assert.equal(all.filter(isSession).length, Math.min(total, 2 * PAGE));
    assert.equal(
      all.some((n) => n.id === 'combee.sessions.more'),
      total > 2 * PAGE,
    );
  });
});
