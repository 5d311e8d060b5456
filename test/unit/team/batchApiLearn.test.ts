import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli/main';
import { BatchRuns } from '../../../src/core/store/batchRuns';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { capture } from '../../../testing/cliOutput';
import { startModelServer, type ModelServer, type ModelServerOptions } from '../../../testing/modelServer';
import { simulatedModel } from '../../../testing/simulatedModel';
import { learnAgainst, reflectionRequests, teamFixture, type Where } from '../../support/teamRuns';
import { tempDir } from '../../../testing/tmp';

// `combee learn --batch-api`: the reflections go through the loopback server's files and batches endpoints, the
// aggregation levels run when the answers are in, and the playbook is the one a direct run proposes. A run can be
// left and resumed, and a batch with failed lines still learns every session.

/** A direct or batch run of the team fixture, seed 5. */
const learn = (server: ModelServer, where: Where, extra: string[], signal?: AbortSignal) =>
  learnAgainst(server, where, ['--seed', '5', ...extra], signal);

describe('learn --batch-api', () => {
  const servers: ModelServer[] = [];
  const serve = async (options: ModelServerOptions = {}) => {
    const server = await startModelServer({ responder: simulatedModel, ...options });
    servers.push(server);
    return server;
  };
  after(() => Promise.all(servers.map((s) => s.close())));

  let direct: { proposal: { files: Array<{ diff: string }> } };
  before(async () => {
    const server = await serve();
    direct = (await learn(server, await teamFixture(), ['--batch', 'all'])).json;
    assert.ok(direct.proposal.files.length > 0);
  });

  it('submits every reflection as one batch, waits, aggregates, and proposes what a direct run proposes', async () => {
    const server = await serve({ batch: { pollsUntilDone: 2 } });
    const run = await learn(server, await teamFixture(), ['--batch-api', '--poll-seconds', '0.01']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      run.json.proposal.files.map((f: { diff: string }) => f.diff),
      direct.proposal.files.map((f) => f.diff),
    );
    assert.equal(server.batches.uploads.length, 1);
    assert.equal(server.batches.uploads[0].lines.length, 12, 'one request per session');
    const syncReflections = reflectionRequests(server).length - 12;
    assert.equal(syncReflections, 0, 'no reflection was made directly');
  });

  it('is left with --no-wait and resumed by its batch id; a second resume says it is learned', async () => {
    const server = await serve({ batch: { pollsUntilDone: 3 } });
    const where = await teamFixture();
    const submitted = await learn(server, where, ['--batch-api', '--no-wait']);
    assert.equal(submitted.code, 0, submitted.stderr);
    assert.equal(submitted.json.status, 'submitted');
    const id: string = submitted.json.batchId;
    // a fresh process: the store, the id, and the endpoint (never taken from the store)
    const resume = (extra: string[]) => [
      ...['learn', '--resume', id, '--workspace', where.workspace, '--store', where.store],
      ...['--poll-seconds', '0.01', '--json', ...extra],
    ];
    const refused = capture();
    assert.equal(await runCli(resume([]), refused), 2);
    assert.match(refused.stderr.join('\n'), new RegExp(`submitted to ${server.url}: resume it with --base-url`));
    const out = capture();
    const code = await runCli(resume(['--base-url', server.url]), out);
    assert.equal(code, 0, out.stderr.join('\n'));
    const resumed = JSON.parse(out.stdout.join('\n'));
    assert.deepEqual(
      resumed.proposal.files.map((f: { diff: string }) => f.diff),
      direct.proposal.files.map((f) => f.diff),
    );
    const again = capture();
    assert.equal(
      await runCli(
        ['learn', '--resume', id, '--workspace', where.workspace, '--store', where.store, '--base-url', server.url],
        again,
      ),
      0,
    );
    assert.match(
      again.stdout.join('\n'),
      new RegExp(`Batch ${id} is already learned \\(proposal ${resumed.proposal.id}\\)`),
    );
  });

  it('a batch state edited to name another endpoint sends nothing there: the resume is refused', async () => {
    const server = await serve({ batch: { pollsUntilDone: 3 } });
    const elsewhere = await serve();
    const where = await teamFixture();
    const submitted = await learn(server, where, ['--batch-api', '--no-wait']);
    assert.equal(submitted.code, 0, submitted.stderr);
    const id: string = submitted.json.batchId;
    // the store's record of the run, edited: its command line names no endpoint, its own field another one
    const runs = new BatchRuns(new WorkspaceState(where.store), where.workspace);
    const saved = await runs.load(id);
    assert.ok(saved);
    const at = saved.argv.indexOf('--base-url');
    assert.ok(at >= 0, saved.argv.join(' '));
    await runs.save({
      ...saved,
      baseUrl: elsewhere.url,
      argv: saved.argv.filter((_, i) => i !== at && i !== at + 1),
    });
    const polls = server.batches.polls;
    const out = capture();
    const code = await runCli(
      ['learn', '--resume', id, '--workspace', where.workspace, '--store', where.store, '--base-url', server.url],
      out,
    );
    assert.equal(code, 2, out.stderr.join('\n'));
    assert.match(out.stderr.join('\n'), new RegExp(`was sent to ${elsewhere.url}, not ${server.url}`));
    assert.equal(elsewhere.requests.length + elsewhere.batches.polls + elsewhere.batches.created, 0);
    assert.equal(server.batches.polls, polls, 'nothing was asked of the endpoint either');
  });

  it('a wait that is interrupted leaves the batch running and says how to resume', async () => {
    const server = await serve({ batch: { pollsUntilDone: 1_000_000 } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const run = await learn(server, await teamFixture(), ['--batch-api', '--poll-seconds', '0.01'], controller.signal);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /left batch \S+ running at the provider; resume with: combee learn --resume /);
  });

  it('sessions whose lines failed, or whose answers are invalid, are reflected directly, and the playbook is the same', async () => {
    let mangled = 0;
    const server = await serve({
      batch: {
        failLine: (id) =>
          id === 'claude-code:bob-1' ? { code: 'server_error', message: 'the model crashed' } : undefined,
        mangleOutput: (line, id) =>
          id === 'claude-code:carol-0' && ++mangled ? line.replace(/"content":"/, '"content":"{ not json ') : line,
      },
    });
    const run = await learn(server, await teamFixture(), ['--batch-api', '--poll-seconds', '0.01']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /2 of 12 reflection\(s\) of batch \S+ have no usable answer .*they are made directly/);
    assert.deepEqual(
      run.json.proposal.files.map((f: { diff: string }) => f.diff),
      direct.proposal.files.map((f) => f.diff),
    );
    // the server answered 11 lines (the failed one never reached the model), then the two came directly
    assert.equal(reflectionRequests(server).length, 11 + 2, 'the two were reflected directly');
  });

  it('a failed batch learns nothing and says so (exit 1)', async () => {
    const server = await serve({
      batch: { end: { status: 'failed', errors: [{ code: 'invalid_request', message: 'bad model' }] } },
    });
    const where = await teamFixture();
    const run = await learn(server, where, ['--batch-api', '--poll-seconds', '0.01']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /batch \S+ failed .*bad model.*nothing was learned/);
  });

  it('needs an endpoint: the offline provider is bad usage', async () => {
    const out = capture();
    assert.equal(
      await runCli(
        ['learn', '--batch-api', '--provider', 'offline', '--workspace', tempDir('ws-'), '--store', tempDir('st-')],
        out,
      ),
      2,
    );
  });
});
