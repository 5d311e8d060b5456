import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../support/paths';
import { tempDir } from '../../../testing/tmp';
import { loadWorkflow } from '../../support/workflowRunner';

// The shipped workflow holds the model key and a write token: it runs only what the repository pinned.

const WORKFLOW = join(REPO_ROOT, 'resources', 'github', 'combee-learn.yml');
const workflow = loadWorkflow(WORKFLOW);
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);

describe('the learning workflow installs and runs only what the repository pinned', () => {
  it('pins every action by commit and keeps no credentials in a checkout', () => {
    for (const step of steps.filter((s) => s.uses))
      assert.match(step.uses ?? '', /^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/, `${step.uses} is not pinned by commit`);
    const checkouts = steps.filter((s) => s.uses?.startsWith('actions/checkout@'));
    assert.ok(checkouts.length >= 2);
    for (const step of checkouts) assert.equal(String(step.with?.['persist-credentials']), 'false');
  });

  it('gives the model key and the token to the steps that use them, never to a whole job', () => {
    const text = (env: Record<string, string> | undefined) => JSON.stringify(env ?? {});
    assert.doesNotMatch(text(workflow.env), /secrets\.|github\.token/);
    for (const [name, job] of Object.entries(workflow.jobs))
      assert.doesNotMatch(text(job.env), /secrets\.|github\.token/, `job ${name}`);
    const withKey = steps.filter((s) => /secrets\.OPENAI_API_KEY/.test(text(s.env))).map((s) => s.name);
    assert.deepEqual(withKey, [
      "Reflect on this shard's sessions",
      'Learn from the shards and write the accepted-by-default changes',
    ]);
    const withToken = steps.filter((s) => /github\.token/.test(text(s.env))).map((s) => s.name);
    assert.deepEqual(withToken, ['Open a pull request']);
  });

  it('fetches nothing from a package registry', () => {
    for (const step of steps.filter((s) => s.run))
      assert.doesNotMatch(
        step.run ?? '',
        /\bnpm\s+(?:install|i|exec)\b|\bnpx\b|\byarn\s+(?:add|dlx)\b|\bpnpm\s+dlx\b/,
        step.name,
      );
  });

  it("runs the committed tarball's CLI only when its SHA-256 is the one pinned", () => {
    const install = steps.find((s) => s.id === 'install-combee');
    assert.ok(install?.run);
    const dir = tempDir('combee-install-');
    const pkg = join(dir, 'src', 'package', 'dist');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'cli.js'), 'console.log("combee " + process.argv.slice(2).join(" "));\n');
    mkdirSync(join(dir, 'repo', '.combee'), { recursive: true });
    const tarball = join(dir, 'repo', '.combee', 'combee.tgz');
    assert.equal(spawnSync('tar', ['-czf', tarball, '-C', join(dir, 'src'), 'package']).status, 0);
    const sha = createHash('sha256').update(readFileSync(tarball)).digest('hex');
    const run = (pinned: string, temp: string) => {
      mkdirSync(temp, { recursive: true });
      const githubPath = join(temp, 'github-path');
      const result = spawnSync('bash', ['-e', '-c', install.run ?? ''], {
        cwd: join(dir, 'repo'),
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH ?? '',
          RUNNER_TEMP: temp,
          GITHUB_PATH: githubPath,
          COMBEE_TARBALL: '.combee/combee.tgz',
          COMBEE_TARBALL_SHA256: pinned,
        },
      });
      return { result, githubPath };
    };
    const good = run(sha, join(dir, 'ok'));
    assert.equal(good.result.status, 0, good.result.stderr);
    const bin = readFileSync(good.githubPath, 'utf8').trim();
    const cli = spawnSync(join(bin, 'combee'), ['learn', '--help'], { encoding: 'utf8' });
    assert.equal(cli.stdout.trim(), 'combee learn --help');
    const bad = run('0'.repeat(64), join(dir, 'bad'));
    assert.notEqual(bad.result.status, 0);
    const unset = run('', join(dir, 'unset'));
    assert.notEqual(unset.result.status, 0);
    assert.match(unset.result.stdout, /set the COMBEE_TARBALL_SHA256 variable/);
  });
});
