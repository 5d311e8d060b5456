import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { findManagedBlocks } from '../../../src/core/assets/managedBlock';
import { capture } from '../../../testing/cliOutput';
import {
  AGENT_FILES,
  correctedSession,
  fileProblems,
  overlappingFixture,
  type OverlappingFixture,
} from '../../support/overlappingLearns';

// `combee learn; combee learn; combee accept A; combee accept B` once left two Combee blocks in AGENTS.md and
// the Copilot instructions and a rule twice in the playbook. Now the second learn supersedes A and says so, accepting A is refused
// with the id to decide on, and accepting B leaves one block per file.

async function learn(fx: OverlappingFixture): Promise<{ id: string; stdout: string; json: Record<string, unknown> }> {
  const common = ['--workspace', fx.workspace, '--store', fx.storeDir, '--targets', 'agents-md,copilot-instructions'];
  const text = capture();
  assert.equal(await runCli(['learn', ...common, '--dry-run'], text), 0, text.stderr.join('\n'));
  const out = capture();
  assert.equal(await runCli(['learn', ...common, '--json'], out), 0, out.stderr.join('\n'));
  const json = JSON.parse(out.stdout.join('\n'));
  return { id: json.proposal.id, stdout: text.stdout.join('\n'), json };
}

describe('combee learn twice, then accept both', () => {
  it('the second learn supersedes the first proposal; accept A is refused naming B; accept B leaves one block per file', async function () {
    this.timeout(60_000);
    const fx = overlappingFixture();
    const common = ['--workspace', fx.workspace, '--store', fx.storeDir];
    await fx.store.saveTrace(correctedSession(fx.workspace, 'tests', 0));
    const a = await learn(fx);
    assert.ok(!/supersede/i.test(a.stdout), a.stdout);
    await fx.store.saveTrace(correctedSession(fx.workspace, 'lint', 1));
    const b = await learn(fx);
    assert.match(b.stdout, new RegExp(`Would supersede proposal ${a.id}: its undecided rules are in this one`));
    assert.deepEqual(b.json.superseded, [a.id]);

    const acceptA = capture();
    assert.equal(await runCli(['accept', a.id, ...common], acceptA), 1);
    assert.match(acceptA.stderr.join('\n'), new RegExp(`superseded by ${b.id}`));
    const acceptB = capture();
    assert.equal(await runCli(['accept', b.id, ...common], acceptB), 0, acceptB.stderr.join('\n'));
    for (const path of AGENT_FILES) assert.equal(findManagedBlocks(fx.read(path) ?? '', path).length, 1, path);
    assert.deepEqual(fileProblems(fx), []);
    // both runs' rules are in, once each
    const playbook = fx.read('.combee/playbook.md') ?? '';
    assert.match(playbook, /npm run test:unit/);
    assert.match(playbook, /pnpm biome check src/);
  });

  it('a file that holds two blocks already is merged into one on the next accept, with a warning', async function () {
    this.timeout(60_000);
    const fx = overlappingFixture();
    const common = ['--workspace', fx.workspace, '--store', fx.storeDir];
    await fx.store.saveTrace(correctedSession(fx.workspace, 'tests', 0));
    const a = await learn(fx);
    assert.equal(await runCli(['accept', a.id, ...common], capture()), 0);
    // as an older version left it: the block written twice, the team's text between
    const agents = fx.read('AGENTS.md') ?? '';
    const [block] = findManagedBlocks(agents);
    const doubled = `${agents}\nTeam text after.\n\n${agents.slice(block.start, block.end)}\n`;
    writeFileSync(join(fx.workspace, 'AGENTS.md'), doubled);
    await fx.store.saveTrace(correctedSession(fx.workspace, 'lint', 1));
    const out = capture();
    assert.equal(
      await runCli(['learn', ...common, '--targets', 'agents-md,copilot-instructions', '--json'], out),
      0,
      out.stderr.join('\n'),
    );
    const json = JSON.parse(out.stdout.join('\n'));
    assert.match(json.warningMessages.join('\n'), /AGENTS\.md: held 2 Combee blocks; merged into one/);
    const b = json.proposal.id as string;
    assert.equal(await runCli(['accept', b, ...common], capture()), 0);
    const after = fx.read('AGENTS.md') ?? '';
    assert.equal(findManagedBlocks(after).length, 1);
    assert.match(after, /Team text after\./);
    assert.deepEqual(fileProblems(fx), []);
  });
});
