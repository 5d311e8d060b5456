import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { BENCH_HELP } from '../../../src/cli/help';
import { shellQuote } from '../../../src/cli/output';
import { prerequisiteTurns, writeClaudeSession } from '../../../testing/claudeSessions';
import { REPO_ROOT } from '../../support/paths';
import { tempDir } from '../../../testing/tmp';
import { capture } from '../../../testing/cliOutput';

describe('combee CLI helps itself', () => {
  it("<command> --help prints that command's usage with exit 0, for every command", async () => {
    for (const command of [
      'import',
      'learn',
      'calibrate',
      'accept',
      'reject',
      'undo',
      'retire',
      'pin',
      'unpin',
      'tree',
      'rules',
      'eval',
      'merge',
      'cache',
      'bench',
    ]) {
      for (const flag of ['--help', '-h']) {
        const out = capture();
        assert.equal(await runCli([command, flag], out), 0, `${command} ${flag}`);
        assert.match(out.stdout.join('\n'), new RegExp(`^combee ${command} `), command);
        assert.deepEqual(out.stderr, []);
      }
    }
  });

  it('--version prints the package version', async () => {
    const out = capture();
    assert.equal(await runCli(['--version'], out), 0);
    assert.equal(out.stdout.join(''), JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version);
  });

  it('a usage error is one clear line and where to find the usage, not the whole usage', async () => {
    const out = capture();
    assert.equal(await runCli(['learn', '--strategy', 'magic'], out), 2);
    assert.deepEqual(out.stderr.join('\n').split('\n'), [
      'warning: --strategy must be one of combee, naive, sequential',
      'Usage: combee learn --help',
    ]);
  });

  it('an unknown rule id is one error line (exit 2)', async () => {
    const root = tempDir('combee-cli-help-');
    const workspace = join(root, 'my repo');
    mkdirSync(workspace);
    writeClaudeSession(join(root, '.claude'), '88888888-aaaa-4bbb-8ccc-000000000001', workspace, prerequisiteTurns());
    const store = join(root, 'the store');
    await runCli(['import', '--from', join(root, '.claude'), '--store', store], capture());
    const learned = capture();
    assert.equal(
      await runCli(['learn', '--store', store, '--workspace', workspace, '--provider', 'offline'], learned),
      0,
    );
    const line = learned.stdout
      .join('\n')
      .split('\n')
      .find((l) => l.includes('combee accept'));
    assert.ok(line, learned.stdout.join('\n'));
    // The printed follow-up carries the store and survives a shell: paste it, get the same words back.
    const command = line.slice(line.indexOf('combee accept'));
    const words = execFileSync('sh', ['-c', `printf '%s\\n' ${command}`], { encoding: 'utf8' })
      .trimEnd()
      .split('\n');
    const id = words[2];
    assert.deepEqual(words, ['combee', 'accept', id, '--workspace', workspace, '--store', store]);
    const out = capture();
    assert.equal(
      await runCli(['accept', id, '--rule', 'nope-00001', '--store', store, '--workspace', workspace], out),
      2,
    );
    assert.equal(out.stderr.length, 1);
    assert.match(
      out.stderr[0],
      /^warning: proposal \S+ has no rule nope-00001 \(it has [^)]+\)\nUsage: combee accept --help$/,
    );
  });

  it('shell quoting leaves plain words alone and quotes the rest', () => {
    assert.equal(shellQuote('/home/dev/repo'), '/home/dev/repo');
    assert.equal(shellQuote("it's here"), "'it'\\''s here'");
  });

  it('bench --help names every benchmark the bench bundle runs', () => {
    const dispatch = readFileSync(join(REPO_ROOT, 'bench', 'learn', 'index.ts'), 'utf8');
    const names = [...dispatch.matchAll(/what === '(\w+)'/g)].map((m) => m[1]);
    assert.ok(names.length >= 9, `found ${names.join(', ')}`);
    for (const name of names) assert.match(BENCH_HELP, new RegExp(`^combee bench ${name} `, 'm'), name);
  });
});
