import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from '../../../src/cli/args';
import { runCli } from '../../../src/cli/main';
import {
  learnRequestFromFlags,
  parseLearnCommandLine,
  type RunLearnCommandLine,
} from '../../../src/cli/commands/learnRequest';
import { DEFAULT_WINDOW_DAYS } from '../../../src/core/learn/window';
import { MIN_AGGREGATION_CAPACITY_TOKENS } from '../../../src/core/learn/capacity/capacity';
import { capture } from '../../../testing/cliOutput';

const cwd = resolve('/home/dev/project');

function run(...argv: string[]): RunLearnCommandLine {
  const request = parseLearnCommandLine(argv, cwd);
  if (request instanceof UsageError) throw request;
  assert.equal(request.kind, 'run');
  return request as RunLearnCommandLine;
}

function refused(argv: string[], message: RegExp): void {
  const request = parseLearnCommandLine(argv, cwd);
  assert.ok(request instanceof UsageError, `${argv.join(' ')} should be bad usage`);
  assert.match(request.message, message);
}

describe('the learn command line read into one request', () => {
  const ws = mkdtempSync(join(tmpdir(), 'combee-learn-request-'));
  after(() => rmSync(ws, { recursive: true, force: true }));

  it('with no flags: learn here, from the working folder, with the defaults', () => {
    const request = run();
    assert.deepEqual(request.mode, { kind: 'local' });
    assert.equal(request.workspace, cwd);
    assert.equal(request.storeDir, undefined);
    assert.equal(request.provider, 'auto');
    assert.equal(request.strategy, 'combee');
    assert.equal(request.batchSize, 'auto');
    assert.equal(request.windowDays, DEFAULT_WINDOW_DAYS);
    assert.deepEqual(request.endpointFlags, { 'allow-insecure-http': false });
    for (const flag of ['noCache', 'noMemories', 'dryRun', 'json', 'apply', 'allWorkspaces'] as const)
      assert.equal(request[flag], false, flag);
    for (const flag of ['seed', 'since', 'agents', 'targets', 'budgetTokens', 'maxTokens', 'prBody'] as const)
      assert.equal(request[flag], undefined, flag);
  });

  it('reads every value flag', () => {
    const request = run(
      ...['--workspace', ws, '--store', '/tmp/store', '--provider', 'openai', '--base-url', 'http://127.0.0.1:9/v1'],
      ...['--model', 'm1', '--strategy', 'naive', '--batch', '4', '--seed', '7', '--window-days', '0'],
      ...['--since', '2026-11-01', '--agent', 'codex,claude-code', '--agent', 'cursor', '--budget', '900'],
      ...['--max-tokens', '5000', '--max-cost', '1.5', '--price-in', '0.1', '--price-out', '0.4', '--timeout', '30'],
      ...['--aggregation-tokens', String(MIN_AGGREGATION_CAPACITY_TOKENS), '--targets', 'agents-md, claude-md'],
      ...['--playbook', 'docs/playbook.md', '--pr-body', 'pr.md'],
      ...['--all-workspaces', '--dry-run', '--json', '--no-cache', '--no-memories', '--apply', '--allow-insecure-http'],
    );
    assert.equal(request.workspace, ws);
    assert.equal(request.storeDir, '/tmp/store');
    assert.equal(request.provider, 'openai');
    assert.deepEqual(request.endpointFlags, {
      'base-url': 'http://127.0.0.1:9/v1',
      model: 'm1',
      'allow-insecure-http': true,
    });
    assert.equal(request.strategy, 'naive');
    assert.equal(request.batchSize, 4);
    assert.equal(request.seed, 7);
    assert.equal(request.windowDays, 0);
    assert.equal(request.since, '2026-11-01');
    assert.deepEqual(request.agents, ['codex', 'claude-code', 'cursor']);
    assert.equal(request.budgetTokens, 900);
    assert.equal(request.maxTokens, 5000);
    assert.equal(request.maxCostUsd, 1.5);
    assert.equal(request.priceIn, 0.1);
    assert.equal(request.priceOut, 0.4);
    assert.equal(request.timeoutSeconds, 30);
    assert.equal(request.aggregationCapacityTokens, MIN_AGGREGATION_CAPACITY_TOKENS);
    assert.deepEqual(request.targets, ['agents-md', 'claude-md']);
    assert.equal(request.playbookPath, 'docs/playbook.md');
    assert.equal(request.playbookFlag, 'docs/playbook.md');
    assert.equal(request.prBody, 'pr.md');
    for (const flag of ['noCache', 'noMemories', 'dryRun', 'json', 'apply', 'allWorkspaces'] as const)
      assert.equal(request[flag], true, flag);
  });

  it('chooses the mode: map, reduce or the Batch API, each reflecting every session in one batch by default', () => {
    assert.deepEqual(run('--shard', '2/3', '--out', 'refl').mode, {
      kind: 'map',
      out: resolve(cwd, 'refl'),
      shard: { index: 2, count: 3 },
    });
    assert.deepEqual(run('--out', 'refl').mode, { kind: 'map', out: resolve(cwd, 'refl') });
    assert.equal(run('--out', 'refl').batchSize, 'all');
    const reduce = run('--reduce', 'a', '--reduce', 'b', '--apply');
    assert.deepEqual(reduce.mode, { kind: 'reduce', folders: [resolve(cwd, 'a'), resolve(cwd, 'b')] });
    assert.equal(reduce.batchSize, 'all');
    assert.equal(run('--reduce', 'a', '--batch', 'auto').batchSize, 'auto');
    const batch = run('--batch-api', '--no-wait', '--poll-seconds', '2.5');
    assert.deepEqual(batch.mode, { kind: 'batch-api', resume: undefined, noWait: true, pollSeconds: 2.5 });
    assert.equal(batch.batchSize, 'all');
    assert.deepEqual(run('--batch-api', '--resume', 'b1').mode, {
      kind: 'batch-api',
      resume: 'b1',
      noWait: false,
      pollSeconds: 30,
    });
  });

  it('--resume alone asks for the saved run and reads nothing else first (the replayed flags are read later)', () => {
    assert.deepEqual(
      parseLearnCommandLine(['--resume', 'b7', '--seed', 'x', '--store', 's', '--workspace', 'w'], cwd),
      {
        kind: 'resume',
        batchId: 'b7',
        workspace: resolve(cwd, 'w'),
        storeDir: resolve(cwd, 's'),
      },
    );
  });

  it('refuses each bad combination of modes', () => {
    refused(['--shard', '1/2'], /--shard needs --out/);
    refused(['--out', 'a', '--reduce', 'b'], /two separate runs/);
    refused(['--batch-api', '--out', 'a'], /--batch-api is its own map phase/);
    refused(['--batch-api', '--reduce', 'a'], /--batch-api is its own map phase/);
    refused(['--resume', 'b1', '--batch-api', '--out', 'a'], /--batch-api is its own map phase/);
    refused(['--out', 'a', '--apply'], /belong to the run that learns/);
    refused(['--out', 'a', '--pr-body', 'pr.md'], /belong to the run that learns/);
  });

  it('refuses each bad value', () => {
    refused(['--nope'], /Unknown option/);
    refused(['--shard', '3/2', '--out', 'a'], /--shard must be <i>\/<n>/);
    refused(['--since', 'last tuesday'], /--since must be a date/);
    refused(['--agent', 'codex,vim'], /--agent must be one of/);
    for (const flag of ['budget', 'max-tokens', 'timeout', 'aggregation-tokens', 'seed', 'window-days', 'batch'])
      refused([`--${flag}`, '1.5'], new RegExp(`--${flag} must be a non-negative integer`));
    for (const flag of ['max-cost', 'price-in', 'price-out'])
      refused([`--${flag}`, 'lots'], new RegExp(`--${flag} must be a non-negative number`));
    refused(['--aggregation-tokens', String(MIN_AGGREGATION_CAPACITY_TOKENS - 1)], /must be at least/);
    refused(['--targets', 'agents-md,emacs'], /unknown target emacs/);
    refused(['--provider', 'carrier-pigeon'], /--provider must be one of/);
    refused(['--strategy', 'greedy'], /--strategy must be one of/);
    refused(['--batch', '0'], /--batch must be at least 1/);
    refused(['--playbook', '../outside.md'], /--playbook: .* is refused/);
    refused(['--batch-api', '--poll-seconds', 'soon'], /--poll-seconds must be a non-negative number/);
  });

  it('reports the first bad flag in the order the command has always read them', () => {
    refused(['--batch', '0', '--strategy', 'greedy'], /--strategy must be one of/);
    refused(['--since', 'never', '--shard', '1/2'], /--shard needs --out/);
  });
});

describe('combee learn on a bad command line', () => {
  it('exits 2 with the reason for each bad combination of modes, before a store is opened', async () => {
    const root = mkdtempSync(join(tmpdir(), 'combee-learn-usage-'));
    try {
      const store = join(root, 'store');
      for (const [argv, message] of [
        [['--shard', '1/2'], /--shard needs --out/],
        [['--out', join(root, 'a'), '--reduce', join(root, 'b')], /two separate runs/],
        [['--batch-api', '--out', join(root, 'a')], /--batch-api is its own map phase/],
        [['--out', join(root, 'a'), '--apply'], /belong to the run that learns/],
        [['--batch-api', '--poll-seconds', 'soon'], /--poll-seconds must be a non-negative number/],
      ] as const) {
        const out = capture();
        assert.equal(await runCli(['learn', '--store', store, ...argv], out), 2, argv.join(' '));
        assert.match(out.stderr.join('\n'), message);
      }
      assert.equal(existsSync(store), false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the learn request the flags make', () => {
  it('is plain data that crosses a worker port unchanged, with what the flags chose', () => {
    const flags = run('--targets', 'playbook,agents-md', '--budget', '3000', '--max-tokens', '5000', '--seed', '7');
    const request = learnRequestFromFlags(flags, ['corp-[0-9]+']);
    assert.deepEqual(structuredClone(request), request);
    assert.deepEqual(request.assets, { targets: ['playbook', 'agents-md'], playbookBudgetTokens: 3000 });
    assert.deepEqual(request.limits, { maxTokens: 5000, maxCostUsd: undefined });
    assert.equal(request.seed, 7);
    assert.deepEqual(request.agentMemories?.extraRedactionPatterns, ['corp-[0-9]+']);
  });

  it("reads no memories for a pull request's run or with --no-memories, and leaves the targets to the sessions", () => {
    assert.equal(learnRequestFromFlags(run('--no-memories'), []).agentMemories, undefined);
    const pr = learnRequestFromFlags(run('--pr-body', 'body.md'), []);
    assert.equal(pr.agentMemories, undefined);
    assert.equal(pr.teamReview, true);
    assert.equal(learnRequestFromFlags(run(), []).assets, undefined);
  });
});
