import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { prerequisiteTurns, writeClaudeSession } from '../../../testing/claudeSessions';
import { capture } from '../../../testing/cliOutput';
import { tempDir } from '../../../testing/tmp';

describe('combee learn says what Combee’s text costs each agent', () => {
  it('per agent of the workspace, before and after, in the summary and in --json', async () => {
    const root = tempDir('combee-cli-cost-');
    const workspace = join(root, 'shop');
    mkdirSync(workspace);
    const home = join(root, '.claude');
    writeClaudeSession(
      home,
      '12121212-aaaa-4bbb-8ccc-000000000001',
      workspace,
      prerequisiteTurns(),
      '2026-11-02T09:00:00.000Z',
    );
    writeClaudeSession(
      home,
      '12121212-aaaa-4bbb-8ccc-000000000002',
      workspace,
      prerequisiteTurns(),
      '2026-11-03T09:00:00.000Z',
    );
    const store = join(root, 'store');
    assert.equal(await runCli(['import', '--from', home, '--store', store], capture()), 0);
    const common = ['learn', '--store', store, '--workspace', workspace, '--provider', 'offline', '--dry-run'];
    const json = capture();
    assert.equal(await runCli([...common, '--json'], json), 0, json.stderr.join('\n'));
    const cost = JSON.parse(json.stdout.join('\n')).proposal.contextCost;
    assert.equal(cost.length, 1);
    assert.equal(cost[0].agent, 'claude-code');
    assert.equal(cost[0].before, 0);
    assert.ok(cost[0].after > 0, JSON.stringify(cost));
    const text = capture();
    assert.equal(await runCli(common, text), 0);
    assert.ok(
      text.stdout
        .join('\n')
        .includes(`Context cost: Claude Code 0 → ${cost[0].after} tokens of Combee's text at session start.`),
      text.stdout.join('\n'),
    );
  });
});
