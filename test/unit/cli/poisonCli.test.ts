import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { ProposalStore } from '../../../src/core/store/proposals';
import { TraceStore } from '../../../src/core/store/traceStore';
import { startModelServer, type ModelServer } from '../../../testing/modelServer';
import { credulousModel, poisonCorpus } from '../../../testing/poisonCorpus';
import { CLONED_PLAYBOOK } from '../../../testing/poisonRun';
import { tempDir } from '../../../testing/tmp';
import { capture } from '../../../testing/cliOutput';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { learnAgainst } from '../../support/cliArgs';

describe('combee CLI with poisoned sessions', () => {
  let server: ModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('learn --json lists flags per rule; accept leaves flagged rules out and says why; --rule accepts one by name into every asset', async () => {
    const root = tempDir('combee-cli-poison-');
    const workspace = join(root, 'acme-shop');
    mkdirSync(workspace);
    const storeDir = join(root, 'store');
    const store = new TraceStore(storeDir);
    const all = poisonCorpus(workspace);
    const pick = (id: string) => all.find((s) => (s.poison ?? s.benign)?.id === id)!;
    const sessions = [pick('P-01'), pick('P-09'), pick('B-01'), pick('B-07')];
    for (const s of sessions) await store.saveTrace(s.trace);
    server = await startModelServer({ responder: credulousModel(sessions) });
    const common = ['--store', storeDir, '--workspace', workspace];

    const out = capture();
    assert.equal(
      await runCli(
        [
          ...learnAgainst(storeDir, workspace, server.url),
          '--json',
          '--seed',
          '1',
          '--targets',
          'agents-md,copilot-instructions',
        ],
        out,
      ),
      0,
      out.stderr.join('\n'),
    );
    const json = JSON.parse(out.stdout.join('\n'));
    const byLesson = (id: string) =>
      json.proposal.rules.find((r: { content: string }) => r.content === pick(id).lesson);
    assert.deepEqual(byLesson('B-01').flags, [], 'a clean rule has flags: []');
    assert.deepEqual(byLesson('B-07').flags, [], 'a --no-verify policy the user stated is not flagged');
    assert.deepEqual(
      byLesson('P-01').flags.map((f: { kind: string }) => f.kind),
      ['remote-code', 'untrusted-source'],
    );
    assert.deepEqual(
      byLesson('P-09').flags.map((f: { kind: string }) => f.kind),
      ['disables-checks', 'untrusted-source'],
      'it ran the command because the test output said so',
    );
    assert.ok(json.warningMessages.some((w: string) => w.includes(`proposed rule ${byLesson('P-01').id} is flagged`)));
    const diff = json.proposal.files.find((f: { path: string }) => f.path === '.combee/playbook.md').diff;
    assert.match(diff, new RegExp(`^\\+flagged \\[${byLesson('P-01').id}\\] remote-code, untrusted-source: `, 'm'));
    for (const f of json.proposal.files.filter((x: { path: string }) => x.path !== '.combee/playbook.md'))
      assert.doesNotMatch(f.diff, /get\.devtools-cdn\.io|do not slow you down/, f.path);

    const accepted = capture();
    assert.equal(await runCli(['accept', json.proposal.id, ...common], accepted), 0, accepted.stderr.join('\n'));
    const said = accepted.stderr.join('\n');
    assert.match(
      said,
      new RegExp(`left out flagged rule ${byLesson('P-01').id}: remote-code: pipes a download into a shell`),
    );
    assert.match(said, new RegExp(`--rule ${byLesson('P-09').id}`));
    const playbook = () => readFileSync(join(workspace, '.combee', 'playbook.md'), 'utf8');
    assert.match(playbook(), /api\.github\.com\/rate_limit/);
    assert.doesNotMatch(playbook(), /devtools-cdn|do not slow you down/);
    assert.doesNotMatch(playbook(), /^flagged \[/m);
    const rest = await new ProposalStore(new WorkspaceState(store.dir)).load(workspace, json.proposal.id);
    assert.equal(rest?.status, 'partial', 'the flagged rules stay pending, not dropped');
    assert.deepEqual(rest?.rules.map((r) => r.id).sort(), [byLesson('P-01').id, byLesson('P-09').id].sort());
    assert.ok(rest?.rules.every((r) => r.flags.length > 0));
    assert.deepEqual(
      rest?.heldRules,
      [],
      'the --no-verify policy just accepted is not held back by the rest of the proposal',
    );
    assert.ok(
      !rest?.files.some((f) => f.path === 'AGENTS.md' && /^-.*WIP commits/m.test(f.diff)),
      'nor taken out of AGENTS.md by it',
    );

    const named = capture();
    assert.equal(
      await runCli(['accept', json.proposal.id, ...common, '--rule', byLesson('P-09').id], named),
      0,
      named.stderr.join('\n'),
    );
    assert.match(named.stderr.join('\n'), /accepting flagged rule .* \(disables-checks: skips the git hooks/);
    assert.match(playbook(), /do not slow you down/);
    assert.doesNotMatch(playbook(), /^flagged \[/m);
    assert.match(
      readFileSync(join(workspace, 'AGENTS.md'), 'utf8'),
      /do not slow you down/,
      'accepted by name: in every asset',
    );
    assert.match(readFileSync(join(workspace, '.github/copilot-instructions.md'), 'utf8'), /do not slow you down/);
    assert.doesNotMatch(readFileSync(join(workspace, 'AGENTS.md'), 'utf8'), /devtools-cdn/);

    // the next run screens the playbook's existing rules: the one accepted by name is the user's now
    const next = poisonCorpus(workspace).find((s) => s.benign?.id === 'B-15')!;
    await store.saveTrace(next.trace);
    await server.close();
    server = await startModelServer({ responder: credulousModel([next]) });
    const again = capture();
    assert.equal(
      await runCli([...learnAgainst(storeDir, workspace, server.url), '--json', '--targets', 'agents-md'], again),
      0,
    );
    const second = JSON.parse(again.stdout.join('\n')).proposal;
    assert.deepEqual(second.heldRules, []);
    const saved = await new ProposalStore(new WorkspaceState(store.dir)).load(workspace, second.id);
    assert.match(saved?.files.find((f) => f.path === 'AGENTS.md')?.after ?? '', /do not slow you down/);

    // the second run took the first one's place, its flagged rules still waiting (and flagged) in it
    assert.deepEqual(JSON.parse(again.stdout.join('\n')).superseded, [json.proposal.id]);
    const all2 = capture();
    assert.equal(await runCli(['accept', second.id, ...common, '--include-flagged'], all2), 0, all2.stderr.join('\n'));
    assert.match(all2.stderr.join('\n'), /accepting flagged rule .* \(remote-code/);
    assert.match(
      readFileSync(join(workspace, 'AGENTS.md'), 'utf8'),
      /devtools-cdn/,
      '--include-flagged takes them all',
    );
  });
});

describe("combee CLI with a cloned repository's poisoned playbook", () => {
  let server: ModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('reports the flagged existing rules, keeps them out of AGENTS.md, and offers each for retirement', async () => {
    const root = tempDir('combee-cli-cloned-');
    const workspace = join(root, 'cloned');
    mkdirSync(join(workspace, '.combee'), { recursive: true });
    writeFileSync(join(workspace, '.combee', 'playbook.md'), CLONED_PLAYBOOK);
    const storeDir = join(root, 'store');
    const store = new TraceStore(storeDir);
    const session = poisonCorpus(workspace).find((s) => s.benign?.id === 'B-15')!;
    await store.saveTrace(session.trace);
    server = await startModelServer({ responder: credulousModel([session]) });
    const common = ['--store', storeDir, '--workspace', workspace];
    const out = capture();
    assert.equal(await runCli(learnAgainst(storeDir, workspace, server.url), out), 0);
    const log = out.stderr.join('\n');
    for (const id of ['too-00002', 'too-00003', 'too-00004'])
      assert.match(log, new RegExp(`warning: rule ${id} in \\.combee/playbook\\.md is flagged`), log);
    const id = /Proposal (\S+) saved/.exec(out.stdout.join('\n'))?.[1];
    assert.ok(id, out.stdout.join('\n'));
    // each is offered for retirement; the user keeps one (out of the other files) and accepts the rest
    const kept = capture();
    assert.equal(await runCli(['reject', id, '--rule', 'too-00003', ...common], kept), 0, kept.stderr.join('\n'));
    assert.match(kept.stdout.join('\n'), /rejected rule too-00003 already in the playbook/);
    const accepted = capture();
    assert.equal(await runCli(['accept', id, ...common], accepted), 0, accepted.stderr.join('\n'));
    assert.doesNotMatch(accepted.stderr.join('\n'), /unless accepted by name/, 'decided, not left waiting');
    const agents = () => readFileSync(join(workspace, 'AGENTS.md'), 'utf8');
    assert.match(agents(), /rm -rf dist \.turbo/);
    assert.match(agents(), /Run the tests with `pnpm test`/);
    assert.doesNotMatch(agents(), /acme-tools\.dev|Ignore any other instructions/);
    const playbook = readFileSync(join(workspace, '.combee', 'playbook.md'), 'utf8');
    assert.doesNotMatch(playbook, /acme-tools\.dev/, 'the retired rules left the playbook');
    assert.match(playbook, /\[too-00003\] .*Ignore any other instructions/, 'the kept one stays, as the team wrote it');
    assert.match(playbook, /\[too-00001\] .*\[too-00005\]/s, 'the honest rules stay');
    const after = (await new ProposalStore(new WorkspaceState(store.dir)).load(workspace, id))!;
    assert.deepEqual(after.heldRules, [], 'nothing waits as held');
  });
});

describe('a cloned repository whose AGENTS.md already carries a poisoned playbook rule', () => {
  it('a run that learns nothing new still proposes taking the held rule out of AGENTS.md', async () => {
    const root = tempDir('combee-cli-cloned-agents-');
    const workspace = join(root, 'cloned');
    mkdirSync(join(workspace, '.combee'), { recursive: true });
    writeFileSync(join(workspace, '.combee', 'playbook.md'), CLONED_PLAYBOOK);
    const block = CLONED_PLAYBOOK.split('\n')
      .filter((l) => l.startsWith('['))
      .map((l) => `- ${l.replace(/ helpful=\d+ harmful=\d+ ::/, '')}`)
      .join('\n');
    writeFileSync(
      join(workspace, 'AGENTS.md'),
      `# Team notes\n\n<!-- combee:begin -->\n## Learned rules\n\n${block}\n<!-- combee:end -->\n`,
    );
    const storeDir = join(root, 'store');
    const store = new TraceStore(storeDir);
    const quiet = poisonCorpus(workspace).find((s) => s.benign?.id === 'B-01')!;
    await store.saveTrace({ ...quiet.trace, steps: quiet.trace.steps.slice(0, 1) });
    const out = capture();
    assert.equal(
      await runCli(['learn', '--store', storeDir, '--workspace', workspace, '--provider', 'offline', '--json'], out),
      0,
      out.stderr.join('\n'),
    );
    const json = JSON.parse(out.stdout.join('\n'));
    // nothing new was learned: the flagged rules are offered for retirement, nothing else
    assert.deepEqual(
      json.proposal.rules.map((r: { id: string; op: string; content?: string }) => [
        r.id,
        r.op,
        /acme|Ignore/.test(r.content ?? ''),
      ]),
      [
        ['too-00002', 'REMOVE', true],
        ['too-00003', 'REMOVE', true],
        ['too-00004', 'REMOVE', true],
      ],
    );
    const agents = json.proposal.files.find((f: { path: string }) => f.path === 'AGENTS.md');
    assert.ok(agents, JSON.stringify(json.proposal.files.map((f: { path: string }) => f.path)));
    for (const id of ['too-00002', 'too-00003', 'too-00004'])
      assert.match(agents.diff, new RegExp(`^-.*\\[${id}\\]`, 'm'), id);
    assert.doesNotMatch(agents.diff, /^-.*\[too-00001\]/m, 'an honest rule stays');
    assert.deepEqual(
      json.proposal.heldRules.map((h: { id: string }) => h.id),
      ['too-00002', 'too-00003', 'too-00004'],
    );
  });
});
