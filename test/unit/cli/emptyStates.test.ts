import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { capture } from '../../../testing/cliOutput';
import { tempDir } from '../../../testing/tmp';

describe('the CLI with nothing yet to show', () => {
  it('tree: no run yet is a state, not an error — null under --json, a clear line without it, exit 0', async () => {
    const root = tempDir('combee-empty-');
    const argv = ['tree', '--workspace', join(root, 'shop'), '--store', join(root, 'store')];
    const json = capture();
    assert.equal(await runCli([...argv, '--json'], json), 0, json.stderr.join('\n'));
    assert.equal(JSON.parse(json.stdout.join('')), null);
    assert.match(json.stderr.join('\n'), /no learning run recorded for .*shop yet/);
    const text = capture();
    assert.equal(await runCli(argv, text), 0);
    assert.match(text.stdout.join('\n'), /^no learning run recorded for .*shop yet \(combee learn records one\)$/);
    assert.deepEqual(text.stderr, [], 'nothing is labelled a warning');
  });

  it('rules: no playbook yet is a state, not an error — null under --json, a clear line without it, exit 0', async () => {
    const root = tempDir('combee-empty-');
    const argv = ['rules', '--workspace', join(root, 'shop'), '--store', join(root, 'store')];
    const json = capture();
    assert.equal(await runCli([...argv, '--json'], json), 0, json.stderr.join('\n'));
    assert.equal(JSON.parse(json.stdout.join('')), null);
    assert.match(json.stderr.join('\n'), /no playbook at \.combee\/playbook\.md in .*shop yet/);
    const text = capture();
    assert.equal(await runCli(argv, text), 0);
    assert.match(
      text.stdout.join('\n'),
      /^no playbook at \.combee\/playbook\.md in .*shop yet \(combee learn proposes one\)$/,
    );
    assert.deepEqual(text.stderr, [], 'nothing is labelled a warning');
  });

  it('tree --run names a run that does not exist: an error (exit 1)', async () => {
    const root = tempDir('combee-empty-');
    const out = capture();
    const argv = ['tree', '--run', 'run-x', '--workspace', join(root, 'shop'), '--store', join(root, 'store')];
    assert.equal(await runCli(argv, out), 1);
    assert.match(out.stderr.join('\n'), /^warning: no run run-x for /);
  });
});
