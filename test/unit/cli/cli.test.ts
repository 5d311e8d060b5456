import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { TraceStore } from '../../../src/core/store/traceStore';
import { prerequisiteTurns, writeClaudeSession } from '../../../testing/claudeSessions';
import { tempDir } from '../../../testing/tmp';
import { capture } from '../../../testing/cliOutput';

function setup() {
  const root = tempDir('combee-cli-');
  const workspace = join(root, 'acme-shop');
  mkdirSync(workspace);
  const home = join(root, '.claude');
  writeClaudeSession(home, '11111111-aaaa-4bbb-8ccc-000000000001', workspace, prerequisiteTurns());
  writeClaudeSession(home, '11111111-aaaa-4bbb-8ccc-000000000002', workspace, [
    { user: 'deploy' },
    {
      bash: {
        command: 'echo OPENAI_API_KEY=sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX0123456789',
        output: 'OPENAI_API_KEY=sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX0123456789',
      },
    },
  ]);
  writeClaudeSession(home, '11111111-aaaa-4bbb-8ccc-000000000003', join(root, 'other-repo'), prerequisiteTurns());
  return { root, workspace, home, store: join(root, 'store') };
}

describe('combee CLI', () => {
  it('exit code 2 on bad usage: no command, unknown command or flag, missing or wrong --from', async () => {
    const { store, home } = setup();
    for (const argv of [
      [],
      ['frobnicate'],
      ['import', '--bogus'],
      ['import'],
      ['import', '--from', '/definitely/not/here'],
      ['learn', '--strategy', 'magic'],
      ['learn', '--batch', '0', '--store', store],
      ['import', '--from', home, '--max-output-chars', '10'],
    ]) {
      assert.equal(await runCli(argv, capture()), 2, argv.join(' '));
    }
  });

  it('import --json prints the contract fields and a re-import skips unchanged files', async () => {
    const { home, store } = setup();
    const out = capture();
    assert.equal(await runCli(['import', '--from', home, '--store', store, '--json'], out), 0);
    const summary = JSON.parse(out.stdout.join('\n'));
    for (const key of ['sessions', 'steps', 'toolCalls', 'warnings', 'redactions', 'byAgent'])
      assert.ok(key in summary, key);
    assert.equal(summary.sessions, 3);
    assert.equal(summary.toolCalls, 7);
    assert.equal(summary.byAgent['claude-code'].sessions, 3);
    assert.equal(summary.redactions, 3, 'the key in the command, its output and the toolUseResult copy');
    const again = capture();
    await runCli(['import', '--from', home, '--store', store, '--json'], again);
    assert.equal(JSON.parse(again.stdout.join('\n')).unchangedFiles, 3);
  });

  it('import --max-output-chars stores long tool outputs cut to that length, head and tail kept', async () => {
    const root = tempDir('combee-cli-max-');
    const home = join(root, '.claude');
    const output = `START ${'x'.repeat(5_000)} END`;
    writeClaudeSession(home, '55555555-aaaa-4bbb-8ccc-000000000001', '/home/dev/shop', [
      { user: 'build' },
      { bash: { command: 'pnpm build', output } },
    ]);
    const store = join(root, 'store');
    assert.equal(
      await runCli(['import', '--from', home, '--store', store, '--max-output-chars', '1000'], capture()),
      0,
    );
    const trace = await new TraceStore(store).loadTrace('claude-code:55555555-aaaa-4bbb-8ccc-000000000001');
    const result = trace?.steps.find((s) => s.kind === 'tool_result');
    assert.ok(result && result.kind === 'tool_result');
    assert.ok(result.output.length <= 1000 && result.output.startsWith('START') && result.output.endsWith('END'));
    assert.equal(result.truncatedFrom, output.length);
  });

  it('stores no secret: the imported traces hold only the redaction marker', async () => {
    const { home, store } = setup();
    await runCli(['import', '--from', home, '--store', store], capture());
    const { execSync } = await import('node:child_process');
    const hits = execSync(`grep -rl "sk-proj-ABCDEF" ${JSON.stringify(store)} || true`)
      .toString()
      .trim();
    assert.equal(hits, '');
  });

  it('learn --dry-run prints the diff of this workspace only and writes nothing', async () => {
    const { home, store, workspace } = setup();
    await runCli(['import', '--from', home, '--store', store], capture());
    const out = capture();
    assert.equal(
      await runCli(
        ['learn', '--store', store, '--workspace', workspace, '--provider', 'offline', '--dry-run', '--seed', '1'],
        out,
      ),
      0,
    );
    const text = out.stdout.join('\n');
    assert.match(text, /\+\+\+ b\/\.combee\/playbook\.md/);
    assert.match(text, /^\+\[test-\d{5}\] helpful=0 harmful=0 :: Run `pnpm db:generate` before `pnpm test`/m);
    assert.match(text, /Learned from 2 session\(s\)/);
    assert.ok(!existsSync(join(workspace, '.combee')));
    assert.ok(
      !existsSync(join(store, 'workspaces')) || !readFileSync(join(store, 'imports.json'), 'utf8').includes('learned'),
    );
  });

  it('learn saves a proposal, accept writes it, and a second learn finds nothing new', async () => {
    const { home, store, workspace } = setup();
    await runCli(['import', '--from', home, '--store', store], capture());
    const out = capture();
    assert.equal(await runCli(['learn', '--store', store, '--workspace', workspace, '--json', '--seed', '2'], out), 0);
    const result = JSON.parse(out.stdout.join('\n'));
    assert.equal(result.provider, 'offline');
    assert.equal(result.run.strategy, 'combee');
    const id = result.proposal.id as string;
    assert.equal(await runCli(['accept', id, '--store', store, '--workspace', workspace], capture()), 0);
    assert.match(readFileSync(join(workspace, '.combee', 'playbook.md'), 'utf8'), /pnpm db:generate/);
    const again = capture();
    assert.equal(await runCli(['learn', '--store', store, '--workspace', workspace], again), 0);
    assert.match(again.stdout.join('\n'), /No new sessions/);
  });

  it('accept refuses to overwrite a file changed since the proposal (exit 1, file untouched)', async () => {
    const { home, store, workspace } = setup();
    await runCli(['import', '--from', home, '--store', store], capture());
    const out = capture();
    await runCli(['learn', '--store', store, '--workspace', workspace, '--json'], out);
    const id = JSON.parse(out.stdout.join('\n')).proposal.id as string;
    mkdirSync(join(workspace, '.combee'));
    writeFileSync(join(workspace, '.combee', 'playbook.md'), 'mine\n');
    const accept = capture();
    assert.equal(await runCli(['accept', id, '--store', store, '--workspace', workspace], accept), 1);
    assert.match(accept.stderr.join('\n'), /since the proposal was made; it was not overwritten/);
    assert.equal(readFileSync(join(workspace, '.combee', 'playbook.md'), 'utf8'), 'mine\n');
  });

  it('--all-workspaces learns from sessions recorded elsewhere too', async () => {
    const { home, store, workspace } = setup();
    await runCli(['import', '--from', home, '--store', store], capture());
    const out = capture();
    await runCli(['learn', '--store', store, '--workspace', workspace, '--all-workspaces', '--dry-run', '--json'], out);
    assert.equal(JSON.parse(out.stdout.join('\n')).sessions, 3);
  });

  it('tree shows the recorded aggregation tree of the last run, down to the sessions', async () => {
    const { home, store, workspace } = setup();
    await runCli(['import', '--from', home, '--store', store], capture());
    const none = capture();
    assert.equal(await runCli(['tree', '--store', store, '--workspace', workspace], none), 0, 'no run yet: a state');
    assert.match(none.stdout.join('\n'), /no learning run recorded/);
    await runCli(['learn', '--store', store, '--workspace', workspace, '--seed', '4'], capture());
    const out = capture();
    assert.equal(await runCli(['tree', '--store', store, '--workspace', workspace], out), 0);
    const text = out.stdout.join('\n');
    assert.match(text, /strategy combee · seed 4 · p = 2/);
    assert.match(text, /batch 1: 2 session\(s\), single_call/);
    assert.match(text, /change\(s\) applied/);
    assert.match(text, /• Please fix the failing cart total test\./);
    const json = capture();
    await runCli(['tree', '--store', store, '--workspace', workspace, '--json'], json);
    assert.equal(JSON.parse(json.stdout.join('\n')).version, 1);
  });

  it('rules lists the accepted playbook with the numbers of the file, its stage and its trend; --json the same', async () => {
    const { home, store, workspace } = setup();
    await runCli(['import', '--from', home, '--store', store], capture());
    // no playbook yet is a state, not an error (test/unit/cli/emptyStates.test.ts)
    const none = capture();
    assert.equal(await runCli(['rules', '--store', store, '--workspace', workspace], none), 0);
    assert.match(none.stdout.join('\n'), /^no playbook at \.combee\/playbook\.md in .* yet/);
    const learned = capture();
    await runCli(['learn', '--store', store, '--workspace', workspace, '--json'], learned);
    const id = JSON.parse(learned.stdout.join('\n')).proposal.id;
    await runCli(['accept', id, '--store', store, '--workspace', workspace], capture());
    const playbook = readFileSync(join(workspace, '.combee', 'playbook.md'), 'utf8');
    const out = capture();
    assert.equal(await runCli(['rules', '--store', store, '--workspace', workspace, '--json'], out), 0);
    const listed = JSON.parse(out.stdout.join('\n'));
    assert.equal(listed.runs, 1);
    const inFile = [...playbook.matchAll(/^\[([^\]]+)\] helpful=(\d+) harmful=(\d+) :: /gm)].map((m) => [
      m[1],
      +m[2],
      +m[3],
    ]);
    assert.ok(inFile.length > 0);
    assert.deepEqual(
      listed.rules.map((r: { id: string; helpful: number; harmful: number }) => [r.id, r.helpful, r.harmful]),
      inFile,
      'the same rules and counts as the playbook file',
    );
    assert.ok(listed.rules.every((r: { stage: string; chips: string[] }) => r.stage === 'new' && r.chips[0] === 'new'));
    const text = capture();
    assert.equal(await runCli(['rules', '--store', store, '--workspace', workspace], text), 0);
    assert.match(text.stdout.join('\n'), new RegExp(`^\\[${inFile[0][0]}\\] \\+0 −0 new · `, 'm'));
    assert.equal(await runCli(['rules', '--workspace', workspace, '--playbook', '../outside.md'], capture()), 2);
  });

  it('accept --rule writes one rule into every asset; reject --rule remembers it, and only new evidence brings it back, saying so', async () => {
    const { home, store, workspace } = setup();
    writeClaudeSession(
      home,
      '11111111-aaaa-4bbb-8ccc-000000000009',
      workspace,
      [
        { user: 'update the api' },
        { bash: { command: 'pnpm api:test', output: 'Error: proto stubs are missing', exitCode: 1 } },
        { bash: { command: 'pnpm proto:gen', output: 'ok' } },
        { bash: { command: 'pnpm api:test', output: 'ok' } },
      ],
      '2026-11-03T09:00:00.000Z',
    );
    await runCli(['import', '--from', home, '--store', store], capture());
    const out = capture();
    await runCli(['learn', '--store', store, '--workspace', workspace, '--json', '--seed', '1'], out);
    const proposal = JSON.parse(out.stdout.join('\n')).proposal;
    const proto = proposal.rules.find((r: { content: string }) => r.content.includes('pnpm proto:gen'));
    const dbgen = proposal.rules.find((r: { content: string }) => r.content.includes('pnpm db:generate'));
    const accepted = capture();
    assert.equal(
      await runCli(['accept', proposal.id, '--rule', proto.id, '--store', store, '--workspace', workspace], accepted),
      0,
      accepted.stderr.join('\n'),
    );
    const playbook = readFileSync(join(workspace, '.combee', 'playbook.md'), 'utf8');
    assert.match(playbook, /pnpm proto:gen/);
    assert.doesNotMatch(playbook, /pnpm db:generate/);
    assert.match(readFileSync(join(workspace, 'AGENTS.md'), 'utf8'), /pnpm proto:gen/);
    assert.equal(
      await runCli(['reject', proposal.id, '--rule', dbgen.id, '--store', store, '--workspace', workspace], capture()),
      0,
    );
    assert.equal(
      await runCli(
        ['accept', proposal.id, '--rule', 'nope-00001', '--store', store, '--workspace', workspace],
        capture(),
      ),
      2,
    );
    // a new session with the rejected lesson: new evidence brings the rule back, with a note of the rejection
    writeClaudeSession(
      home,
      '11111111-aaaa-4bbb-8ccc-000000000010',
      workspace,
      prerequisiteTurns(),
      '2026-11-04T09:00:00.000Z',
    );
    await runCli(['import', '--from', home, '--store', store], capture());
    const again = capture();
    await runCli(['learn', '--store', store, '--workspace', workspace, '--json'], again);
    const next = JSON.parse(again.stdout.join('\n'));
    assert.equal(next.sessions, 1);
    const back = next.proposal?.rules.find((r: { content: string }) => r.content.includes('pnpm db:generate'));
    assert.ok(back, JSON.stringify(next.proposal?.rules));
    assert.ok(
      back.notes.some((n: string) =>
        /^rejected in review on \d{4}-\d\d-\d\d; proposed again from 1 new session$/.test(n),
      ),
      JSON.stringify(back.notes),
    );
  });
});
