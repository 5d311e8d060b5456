import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { missingFolders, removeEmptyFolders } from '../../../src/core/service/review/createdFolders';
import { capture } from '../../../testing/cliOutput';
import { tempDir } from '../../../testing/tmp';
import { reviewFixture } from '../../support/reviewProposal';

// Undo takes back the folders a decision created for its new files, once they are empty again; never a folder that
// was there before, nor one that holds someone's file.

describe('undo and the folders a decision created', () => {
  it('combee undo removes the folders the accept created, and keeps those that were there', async () => {
    const fx = await reviewFixture({
      playbookPath: 'docs/agents/playbook.md',
      targets: ['playbook', 'agents-md', 'cursor-rules'],
    });
    const common = ['--workspace', fx.workspace, '--store', fx.storeDir];
    assert.ok(!existsSync(join(fx.workspace, '.cursor')) && existsSync(join(fx.workspace, 'docs/agents/playbook.md')));
    const accept = capture();
    assert.equal(await runCli(['accept', fx.proposal.id, '--include-flagged', ...common], accept), 0);
    assert.ok(existsSync(join(fx.workspace, '.cursor/rules/combee.mdc')), accept.stderr.join('\n'));
    const undo = capture();
    assert.equal(await runCli(['undo', ...common], undo), 0, undo.stderr.join('\n'));
    assert.ok(!existsSync(join(fx.workspace, '.cursor')), '.cursor and .cursor/rules are gone');
    assert.ok(existsSync(join(fx.workspace, 'docs/agents/playbook.md')), 'the folders that were there stay');
  });

  it('a created folder holding a file put there since stays, with the folders above it', () => {
    const workspace = tempDir('combee-undo-folders-');
    mkdirSync(join(workspace, 'docs'));
    const created = missingFolders(workspace, 'docs/agents/deep/playbook.md');
    assert.deepEqual(created, ['docs/agents', 'docs/agents/deep']);
    mkdirSync(join(workspace, 'docs/agents/deep'), { recursive: true });
    writeFileSync(join(workspace, 'docs/agents/notes.md'), 'mine\n');
    assert.deepEqual(removeEmptyFolders(workspace, created), ['docs/agents/deep']);
    assert.ok(existsSync(join(workspace, 'docs/agents/notes.md')));
    assert.deepEqual(missingFolders(workspace, 'AGENTS.md'), []);
    assert.deepEqual(missingFolders(workspace, '../outside/x.md'), []);
  });
});
