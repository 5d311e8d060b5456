import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { prerequisiteTurns, writeClaudeSession } from '../../../testing/claudeSessions';
import { tempDir } from '../../../testing/tmp';
import { capture } from '../../../testing/cliOutput';

describe('accepting one rule writes only what follows from it', () => {
  it('no Skill built from a rule that was not accepted; the Skill of an accepted procedure cites only ids in the playbook', async () => {
    const root = tempDir('combee-accept-skill-');
    const workspace = join(root, 'repo');
    mkdirSync(workspace);
    const home = join(root, '.claude');
    // Two sessions show the same procedure of two steps (a Skill: the client generated before the tests and before
    // the build), one shows a user correction (a plain rule).
    const procedure = [
      ...prerequisiteTurns(),
      // the build fails on another error than the tests (the stale client's types), so it is a step of its own
      {
        bash: {
          command: 'pnpm build',
          output: "Type error: Property 'discount' does not exist on type 'Cart'",
          exitCode: 1,
        },
      },
      { bash: { command: 'pnpm db:generate', output: '✔ Generated Prisma Client' } },
      { bash: { command: 'pnpm build', output: 'Build complete.' } },
    ];
    writeClaudeSession(home, 'cdcdcdcd-aaaa-4bbb-8ccc-000000000001', workspace, procedure, '2026-11-02T09:00:00.000Z');
    writeClaudeSession(home, 'cdcdcdcd-aaaa-4bbb-8ccc-000000000002', workspace, procedure, '2026-11-03T09:00:00.000Z');
    writeClaudeSession(
      home,
      'cdcdcdcd-aaaa-4bbb-8ccc-000000000003',
      workspace,
      [
        { user: 'Add a discount field to the cart.' },
        { bash: { command: 'npm install', output: 'npm ERR! Unsupported protocol "workspace:"', exitCode: 1 } },
        { user: 'No, this repo uses pnpm, never npm.' },
        { bash: { command: 'pnpm install', output: 'Done in 2.1s' } },
      ],
      '2026-11-04T09:00:00.000Z',
    );
    const store = join(root, 'store');
    await runCli(['import', '--from', home, '--store', store], capture());
    const out = capture();
    assert.equal(
      await runCli(['learn', '--store', store, '--workspace', workspace, '--provider', 'offline', '--json'], out),
      0,
    );
    const proposal = JSON.parse(out.stdout.join('\n')).proposal;
    const skillFiles = proposal.files.filter((f: { path: string }) => f.path.endsWith('SKILL.md'));
    assert.ok(
      skillFiles.length > 0,
      `the full proposal has a Skill: ${proposal.files.map((f: { path: string }) => f.path).join(', ')}`,
    );
    const procedureIds = proposal.rules
      .filter((r: { content?: string }) => /db:generate/.test(r.content ?? ''))
      .map((r: { id: string }) => r.id);
    const other = proposal.rules.find(
      (r: { id: string; content?: string; flags: unknown[] }) => !procedureIds.includes(r.id) && r.flags.length === 0,
    );
    assert.ok(other, JSON.stringify(proposal.rules));
    assert.equal(
      await runCli(['accept', proposal.id, '--rule', other.id, '--store', store, '--workspace', workspace], capture()),
      0,
    );
    assert.ok(
      !existsSync(join(workspace, '.claude', 'skills')),
      `no Skill from the rule that was not accepted: ${existsSync(join(workspace, '.claude', 'skills')) ? readdirSync(join(workspace, '.claude', 'skills')).join(', ') : ''}`,
    );
  });
});
