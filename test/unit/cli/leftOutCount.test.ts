import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { TraceStore } from '../../../src/core/store/traceStore';
import { capture } from '../../../testing/cliOutput';
import { tempDir } from '../../../testing/tmp';
import { assistant, makeTrace, shell, user } from '../../../testing/traces';

// The learn summary's "left out" counts every rule a warning says was left out: the two never disagree.

describe('combee learn: the summary counts what the warnings left out', () => {
  it('a new rule withdrawn for a better-evidenced one is in the "left out" figure', async () => {
    const root = tempDir('combee-left-out-');
    const workspace = join(root, 'ws');
    mkdirSync(workspace, { recursive: true });
    const store = new TraceStore(join(root, 'store'));
    // npm overruled by the user in one session, `npm test` run in another: the second rule loses and is withdrawn
    await store.saveTrace(
      makeTrace(
        'claude-code:u1',
        [
          user('add lodash to the cart module'),
          ...shell('npm install lodash-es', 'added 1 package'),
          user('No — this repo uses pnpm, never npm. Use pnpm add.'),
          assistant('Switching to pnpm.'),
          ...shell('pnpm add lodash-es', 'done'),
        ],
        { cwd: workspace },
      ),
    );
    await store.saveTrace(
      makeTrace(
        'claude-code:t1',
        [
          user('run the tests'),
          // a wrong way first, so the session names the way that worked
          ...shell('npm run tests', 'npm ERR! Missing script: "tests"', 1),
          ...shell('npm test', 'Tests 12 passed'),
        ],
        { cwd: workspace },
      ),
    );
    const out = capture();
    const args = ['learn', '--store', store.dir, '--workspace', workspace, '--provider', 'offline', '--dry-run'];
    assert.equal(await runCli([...args, '--seed', '1'], out), 0, out.stderr.join('\n'));
    const warned = out.stderr.filter((w) => /^warning: rule \S+ left out/.test(w)).length;
    assert.ok(warned > 0, `the scenario leaves a rule out: ${out.stderr.join('\n')}`);
    const figure = /, (\d+) left out \(/.exec(out.stdout.join('\n'));
    assert.ok(figure, out.stdout.join('\n'));
    assert.ok(Number(figure[1]) >= warned, `${figure[1]} left out, ${warned} warned of: ${out.stderr.join('\n')}`);
  });
});
