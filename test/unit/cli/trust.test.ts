import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { ProposalStore } from '../../../src/core/store/proposals';
import { prerequisiteTurns, writeClaudeSession } from '../../../testing/claudeSessions';
import { startModelServer } from '../../../testing/modelServer';
import { tempDir } from '../../../testing/tmp';
import { withApiKey } from '../../support/apiKeyEnv';
import { capture } from '../../../testing/cliOutput';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { learnAgainst } from '../../support/cliArgs';

async function imported() {
  const root = tempDir('combee-cli-trust-');
  const workspace = join(root, 'repo');
  mkdirSync(workspace);
  const home = join(root, '.claude');
  writeClaudeSession(home, '77777777-aaaa-4bbb-8ccc-000000000001', workspace, prerequisiteTurns());
  const store = join(root, 'store');
  assert.equal(await runCli(['import', '--from', home, '--store', store], capture()), 0);
  return { root, workspace, store };
}

describe('combee CLI: paths and endpoints it is given', () => {
  it('learn --playbook outside the workspace is bad usage (exit 2) and writes nothing', async () => {
    const { root, workspace, store } = await imported();
    mkdirSync(join(root, 'elsewhere'));
    symlinkSync(join(root, 'elsewhere'), join(workspace, 'link-out'));
    for (const path of ['../playbook.md', '/tmp/playbook.md', 'link-out/playbook.md']) {
      const out = capture();
      assert.equal(
        await runCli(
          ['learn', '--store', store, '--workspace', workspace, '--provider', 'offline', '--playbook', path],
          out,
        ),
        2,
        path,
      );
      assert.match(out.stderr.join('\n'), /--playbook: .* is refused/, path);
    }
    assert.deepEqual(await new ProposalStore(new WorkspaceState(store)).list(workspace), []);
  });

  it('learn --playbook inside the workspace is where the playbook is proposed, and accept --playbook writes it there', async () => {
    const { workspace, store } = await imported();
    const out = capture();
    assert.equal(
      await runCli(
        [
          'learn',
          '--store',
          store,
          '--workspace',
          workspace,
          '--provider',
          'offline',
          '--playbook',
          'docs/agents/playbook.md',
          '--json',
          '--seed',
          '3',
        ],
        out,
      ),
      0,
    );
    const proposal = JSON.parse(out.stdout.join('\n')).proposal;
    assert.ok(
      proposal.files.some((f: { path: string }) => f.path === 'docs/agents/playbook.md'),
      JSON.stringify(proposal.files.map((f: { path: string }) => f.path)),
    );
    assert.equal(
      await runCli(
        ['accept', proposal.id, '--store', store, '--workspace', workspace, '--playbook', 'docs/agents/playbook.md'],
        capture(),
      ),
      0,
    );
    assert.match(readFileSync(join(workspace, 'docs', 'agents', 'playbook.md'), 'utf8'), /^## /m);
    assert.ok(!existsSync(join(workspace, '.combee', 'playbook.md')));
  });

  it('accept never writes a proposal file whose path leads outside the workspace (exit 1)', async () => {
    const { root, workspace, store } = await imported();
    const out = capture();
    await runCli(['learn', '--store', store, '--workspace', workspace, '--provider', 'offline', '--json'], out);
    const id = JSON.parse(out.stdout.join('\n')).proposal.id;
    // A store written by someone else: a tampered proposal names a path outside.
    const proposals = new ProposalStore(new WorkspaceState(store));
    const proposal = await proposals.load(workspace, id);
    assert.ok(proposal);
    await proposals.save({
      ...proposal,
      files: proposal.files.map((f, i) => (i === 0 ? { ...f, path: '../pwned.md' } : f)),
    });
    const accept = capture();
    assert.equal(await runCli(['accept', id, '--store', store, '--workspace', workspace], accept), 1);
    assert.match(accept.stderr.join('\n'), /"\.\.\/pwned\.md" is refused/);
    assert.ok(!existsSync(join(root, 'pwned.md')));
  });

  it('plain http to another machine is refused (exit 2) before any request; loopback http is fine', async () => {
    const { workspace, store } = await imported();
    const server = await startModelServer({ script: [{ content: '{"lessons":[],"bullet_tags":[]}' }] });
    try {
      const refused = capture();
      assert.equal(
        await withApiKey('sk-test-key-for-the-refusal-check', () =>
          runCli(
            [
              'learn',
              '--store',
              store,
              '--workspace',
              workspace,
              '--provider',
              'openai',
              '--base-url',
              'http://models.example.invalid/v1',
              '--dry-run',
            ],
            refused,
          ),
        ),
        2,
      );
      assert.match(refused.stderr.join('\n'), /plain http to another machine/);
      assert.equal(
        await runCli([...learnAgainst(store, workspace, server.url), '--dry-run', '--no-cache'], capture()),
        0,
      );
      assert.ok(server.requests.length > 0, 'the loopback endpoint was used');
    } finally {
      await server.close();
    }
  });
});
