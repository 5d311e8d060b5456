import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { capture } from '../../../testing/cliOutput';
import { startModelServer, type ModelServer } from '../../../testing/modelServer';
import { simulatedModel } from '../../../testing/simulatedModel';
import { learnAgainst, reflectionRequests, teamStore } from '../../support/teamRuns';
import { tempDir } from '../../../testing/tmp';

// The map phase split across CI runners (`--shard i/N --out`) and learned from their artifacts (`--reduce`) proposes
// the same playbook, byte for byte, as one machine learning the same sessions with the same seed.

describe('learning sharded across machines', () => {
  let server: ModelServer;
  before(async () => {
    server = await startModelServer({ responder: simulatedModel });
  });
  after(() => server.close());

  /** One runner's run: each starts from a fresh store holding the same pooled sessions. */
  async function learnOn(workspace: string, extra: string[]) {
    const run = await learnAgainst(server, { workspace, store: await teamStore(workspace) }, extra);
    assert.equal(run.code, 0, run.stderr);
    return run;
  }

  const learnOnce = async (workspace: string, extra: string[]) => (await learnOn(workspace, extra)).json;

  async function learnSharded(workspace: string, shards: number, extra: string[]) {
    const artifacts = tempDir('combee-artifacts-');
    for (let i = 1; i <= shards; i++)
      await learnOn(workspace, ['--shard', `${i}/${shards}`, '--out', join(artifacts, `shard-${i}`), ...extra]);
    const before = reflectionRequests(server).length;
    const reduce = await learnOn(workspace, ['--reduce', artifacts, ...extra]);
    return { result: reduce.json, reducedReflections: reflectionRequests(server).length - before, artifacts };
  }

  it('three shards and a reduce propose what one machine proposes, and the reduce reflects nothing itself', async () => {
    const workspace = tempDir('combee-shard-ws-');
    const one = await learnOnce(workspace, ['--batch', 'all', '--seed', '7']);
    const sharded = await learnSharded(workspace, 3, ['--seed', '7']);
    assert.ok(one.proposal, 'the one-machine run proposes rules');
    assert.ok(one.proposal.rules.length >= 3, JSON.stringify(one.proposal.rules));
    // the failing `pnpm test` was hit by all three developers
    const shared = one.proposal.rules.find((r: { content: string }) => r.content.includes('`pnpm test`'));
    assert.deepEqual(shared?.corroboration, { people: 3, sessions: 6 });
    assert.match(one.proposal.files[0].diff, /^\+corroborated \[[^\]]+\] 6 sessions from 3 people$/m);
    assert.deepEqual(
      sharded.result.proposal.files.map((f: { path: string; diff: string }) => [f.path, f.diff]),
      one.proposal.files.map((f: { path: string; diff: string }) => [f.path, f.diff]),
    );
    assert.deepEqual(sharded.result.proposal.rules, one.proposal.rules);
    assert.equal(sharded.reducedReflections, 0, 'every reflection came from the shards');
    assert.equal(sharded.result.run.batches, 1);
    const files = readdirSync(sharded.artifacts, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.json'))
      .sort();
    assert.deepEqual(files, [
      'shard-1/reflections-1-of-3.json',
      'shard-2/reflections-2-of-3.json',
      'shard-3/reflections-3-of-3.json',
    ]);
  });

  it('with batches of 4, the later batches are reflected in the reduce and the result is still the same', async () => {
    const workspace = tempDir('combee-shard-ws-');
    const one = await learnOnce(workspace, ['--batch', '4', '--seed', '11']);
    const sharded = await learnSharded(workspace, 2, ['--batch', '4', '--seed', '11']);
    assert.deepEqual(
      sharded.result.proposal.files.map((f: { diff: string }) => f.diff),
      one.proposal.files.map((f: { diff: string }) => f.diff),
    );
    assert.ok(sharded.reducedReflections > 0 && sharded.reducedReflections < 12, `${sharded.reducedReflections}`);
    assert.ok(
      sharded.result.warningMessages.some((w: string) => /came from the map phase and \d+ were made here/.test(w)),
    );
  });

  it('a missing shard, a tampered file and a foreign model are said and their sessions reflected here', async () => {
    const workspace = tempDir('combee-shard-ws-');
    const one = await learnOnce(workspace, ['--batch', 'all', '--seed', '3']);
    const artifacts = tempDir('combee-artifacts-');
    for (const i of [1, 3]) await learnOn(workspace, ['--shard', `${i}/3`, '--out', artifacts]);
    // shard 3 edited: a lesson copied onto a step of another session that does not show it is not believed
    const path = join(artifacts, 'reflections-3-of-3.json');
    const set = JSON.parse(readFileSync(path, 'utf8'));
    const moved = set.reflections[0].reflection.lessons[0];
    set.reflections[0].reflection.lessons.push({ ...moved, evidence: { traceId: 'claude-code:alice-0', steps: [1] } });
    writeFileSync(path, JSON.stringify(set));
    mkdirSync(join(artifacts, 'junk'));
    writeFileSync(join(artifacts, 'junk', 'broken.json'), '{"format":"combee-reflections","version":1');
    const reduce = await learnOn(workspace, ['--reduce', artifacts, '--seed', '3']);
    const result = reduce.json;
    assert.match(reduce.stderr, /broken\.json: not JSON/);
    assert.ok(result.warningMessages.some((w: string) => /shard 2\/3 is missing/.test(w)));
    type Rule = { content: string; flags: Array<{ kind: string; reason: string }> };
    const doubted = (result.proposal.rules as Rule[]).find((r) => r.content === moved.content);
    assert.ok(
      doubted?.flags.some(
        (f) =>
          f.kind === 'untrusted-source' &&
          /step\(s\) 1 of session claude-code:alice-0 as stored here show none of/.test(f.reason),
      ),
      JSON.stringify(doubted),
    );
    // the rest is what one machine proposes
    assert.deepEqual(
      (result.proposal.rules as Rule[]).filter((r) => r !== doubted),
      (one.proposal.rules as Rule[]).filter((r) => r.content !== moved.content),
    );
    assert.deepEqual(
      result.proposal.files.filter((f: { path: string }) => !f.path.endsWith('playbook.md')),
      one.proposal.files.filter((f: { path: string }) => !f.path.endsWith('playbook.md')),
    );
  });

  it('refuses --shard without --out and a shard outside its count', async () => {
    for (const args of [
      ['--shard', '1/3'],
      ['--shard', '4/3', '--out', 'x'],
      ['--shard', '0/2', '--out', 'x'],
      ['--out', 'x', '--reduce', 'y'],
    ]) {
      const out = capture();
      assert.equal(await runCli(['learn', ...args], out), 2, args.join(' '));
    }
  });
});
