import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { TraceStore } from '../../../src/core/store/traceStore';
import { BundleError } from '../../../src/core/team/bundle';
import { readBundle } from '../../../src/core/team/bundleReader';
import { exportBundle, importBundle } from '../../../src/core/team/importBundle';
import { WORKSPACE_TOKEN } from '../../../src/core/team/portable';
import type { Trace } from '../../../src/core/trace/model';
import { sha256 } from '../../../src/core/util/hash';
import { tempDir } from '../../../testing/tmp';
import { assistant, makeTrace, shell, user } from '../../../testing/traces';

// split so the test file itself holds no secret shape
const AWS_KEY = 'AKIA' + 'Q3ZKJX7TBN4WLPMR';
const GITHUB_TOKEN = 'ghp_' + 'aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789';

/** Alice's machine: a store with two sessions of her workspace (one in a subfolder) and one of another repository. */
async function alice() {
  const root = tempDir('combee-bundle-');
  const workspace = join(root, 'alice', 'acme-shop');
  mkdirSync(join(workspace, 'packages', 'api'), { recursive: true });
  const store = new TraceStore(join(root, 'alice-store'));
  const traces = [
    makeTrace(
      'claude-code:b-session',
      [user(`fix ${workspace}/src/a.ts`), ...shell(`cat ${workspace}/src/a.ts`, `${workspace}/src/a.ts: ok`)],
      { cwd: workspace, endedAt: '2026-11-02T10:00:00.000Z', source: { path: `${workspace}/.log`, bytes: 3 } },
    ),
    makeTrace('codex:a-session', [user('run the api tests'), assistant(`in ${workspace}/packages/api`)], {
      agent: 'codex',
      cwd: join(workspace, 'packages', 'api'),
      endedAt: '2026-11-03T09:00:00.000Z',
    }),
    // a sibling whose name starts with the workspace's: neither exported nor rewritten
    makeTrace('claude-code:c-other', [user(`see ${workspace}-old/x`)], { cwd: `${workspace}-old` }),
  ];
  for (const trace of traces) await store.saveTrace(trace);
  return { root, workspace, store, traces };
}

/** Bob's machine: an empty store and his checkout of the same repository somewhere else. */
function bob(root: string) {
  const workspace = join(root, 'bob', 'work', 'shop');
  mkdirSync(workspace, { recursive: true });
  return { workspace, store: new TraceStore(join(root, 'bob-store')) };
}

/** A bundle written by hand: `lines` are traces (or raw text), with a correct checksum unless overridden. */
function craft(
  path: string,
  lines: Array<Trace | string>,
  header: Record<string, unknown> = {},
  trailer: Record<string, unknown> = {},
): string {
  const body = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l)));
  const text = [
    JSON.stringify({
      format: 'combee-bundle',
      version: 1,
      exportedBy: 'mallory',
      newestSessionAt: '2026-11-20T00:00:00.000Z',
      workspaceName: 'acme-shop',
      traces: body.length,
      ...header,
    }),
    ...body,
    JSON.stringify({ end: true, traces: body.length, sha256: sha256(body.join('\n')), ...trailer }),
  ].join('\n');
  writeFileSync(path, gzipSync(`${text}\n`));
  return path;
}

async function refused(path: string, message: RegExp) {
  await assert.rejects(readBundle(path), (error: unknown) => {
    assert.ok(error instanceof BundleError, String(error));
    assert.match(error.message, message);
    assert.ok(error.message.includes(path), 'the message names the file');
    return true;
  });
}

describe('team bundles', () => {
  it("round trip: Bob gets Alice's sessions with paths in his checkout and Alice as contributor", async () => {
    const a = await alice();
    const out = join(a.root, 'team.combee.gz');
    const exported = await exportBundle({ store: a.store, workspace: a.workspace, out, exportedBy: 'alice' });
    assert.equal(exported.traces, 2);
    assert.equal(exported.bytes, readFileSync(out).length);

    const text = gunzipSync(readFileSync(out)).toString('utf8');
    assert.ok(!text.includes(a.workspace), "the bundle never names Alice's folder");
    const lines = text.trimEnd().split('\n');
    assert.equal(lines.length, 4);
    assert.deepEqual(JSON.parse(lines[0]), {
      format: 'combee-bundle',
      version: 1,
      exportedBy: 'alice',
      newestSessionAt: '2026-11-03T09:00:00.000Z',
      workspaceName: 'acme-shop',
      traces: 2,
    });
    const [first, second] = [JSON.parse(lines[1]) as Trace, JSON.parse(lines[2]) as Trace];
    assert.deepEqual([first.id, second.id], ['claude-code:b-session', 'codex:a-session'], 'sorted by id');
    assert.deepEqual([first.cwd, second.cwd], ['.', 'packages/api']);
    assert.equal(first.steps[0].kind === 'user' && first.steps[0].text, `fix ${WORKSPACE_TOKEN}/src/a.ts`);
    assert.equal(first.source.path, '.log', 'only the log file name: its folder can name its owner');
    assert.deepEqual(JSON.parse(lines[3]), { end: true, traces: 2, sha256: sha256(`${lines[1]}\n${lines[2]}`) });

    const b = bob(a.root);
    const result = await importBundle({ store: b.store, path: out, workspace: b.workspace });
    assert.deepEqual(
      { imported: result.imported, duplicates: result.duplicates, invalid: result.invalid, warnings: result.warnings },
      { imported: 2, duplicates: 0, invalid: 0, warnings: [] },
    );
    assert.equal(result.bundle.exportedBy, 'alice');
    const back = await b.store.listTraces();
    const expected = a.traces.slice(0, 2).map((t) => {
      const moved = JSON.parse(JSON.stringify(t).split(a.workspace).join(b.workspace)) as Trace;
      return { ...moved, contributor: 'alice', source: { ...moved.source, path: basename(t.source.path) } };
    });
    assert.deepEqual(
      back.map((t) => ({ ...t })),
      expected.sort((x, y) => (x.id < y.id ? -1 : 1)),
    );
    assert.equal(back[1].cwd, join(b.workspace, 'packages', 'api'));
  });

  it("the exporter's home-folder spellings of the workspace become the placeholder; other home paths show as ~", async () => {
    const dir = tempDir('combee-bundle-home-');
    const store = new TraceStore(join(dir, 'store'));
    // a stored trace shows home folders as ~ already; its cwd and source path are as the agent recorded them
    await store.saveTrace(
      makeTrace(
        'claude-code:home',
        [user('edit ~/acme-shop/src/a.ts and /home/alice/acme-shop/src/b.ts, not ~/acme-shop-old'), user(AWS_KEY)],
        { cwd: '/home/alice/acme-shop/web', source: { path: '/home/alice/.claude/projects/x.jsonl', bytes: 1 } },
      ),
    );
    const out = join(dir, 'home.gz');
    const result = await exportBundle({ store, workspace: '/home/alice/acme-shop', out, exportedBy: 'alice' });
    assert.deepEqual([result.traces, result.redactions], [1, 1]);
    const [trace] = (await readBundle(out)).traces;
    assert.equal(trace.cwd, 'web');
    assert.equal(trace.source.path, 'x.jsonl');
    assert.equal(
      trace.steps[0].kind === 'user' && trace.steps[0].text,
      'edit <workspace>/src/a.ts and <workspace>/src/b.ts, not ~/acme-shop-old',
    );
    assert.ok(!JSON.stringify(trace).includes(AWS_KEY));
    assert.equal(trace.redactions, 1);
  });

  it('the same store exports the same bytes (sorted, fixed gzip level, no gzip time or OS)', async () => {
    const a = await alice();
    const [one, two] = [join(a.root, 'one.gz'), join(a.root, 'two.gz')];
    await exportBundle({ store: a.store, workspace: a.workspace, out: one, exportedBy: 'alice' });
    await exportBundle({ store: a.store, workspace: a.workspace, out: two, exportedBy: 'alice' });
    const bytes = readFileSync(one);
    assert.deepEqual(bytes, readFileSync(two));
    assert.deepEqual([...bytes.subarray(4, 8)], [0, 0, 0, 0], 'mtime 0');
    assert.equal(bytes[9], 0xff, 'OS unknown');
  });

  it('a second import finds every session a duplicate and overwrites none', async () => {
    const a = await alice();
    const out = join(a.root, 'team.gz');
    await exportBundle({ store: a.store, workspace: a.workspace, out, exportedBy: 'alice' });
    const b = bob(a.root);
    const local = makeTrace('codex:a-session', [user('my own copy')], { cwd: b.workspace });
    await b.store.saveTrace(local);
    const first = await importBundle({ store: b.store, path: out, workspace: b.workspace });
    assert.deepEqual([first.imported, first.duplicates], [1, 1]);
    const again = await importBundle({ store: b.store, path: out, workspace: b.workspace });
    assert.deepEqual([again.imported, again.duplicates], [0, 2]);
    assert.deepEqual(await b.store.loadTrace('codex:a-session'), local);
    assert.equal((await b.store.listTraces()).length, 2);
  });

  it('--since keeps the sessions that ended at or after the date', async () => {
    const a = await alice();
    const out = join(a.root, 'since.gz');
    const result = await exportBundle({
      store: a.store,
      workspace: a.workspace,
      out,
      exportedBy: 'alice',
      since: '2026-11-03',
    });
    assert.equal(result.traces, 1);
    assert.deepEqual(
      (await readBundle(out)).traces.map((t) => t.id),
      ['codex:a-session'],
    );
  });

  it('a truncated file is refused', async () => {
    const a = await alice();
    const out = join(a.root, 'team.gz');
    await exportBundle({ store: a.store, workspace: a.workspace, out, exportedBy: 'alice' });
    const bytes = readFileSync(out);
    const cut = join(a.root, 'cut.gz');
    writeFileSync(cut, bytes.subarray(0, bytes.length - 30));
    await refused(cut, /truncated/);
    // a clean gzip stream that stops before the trailer
    const text = gunzipSync(bytes).toString('utf8').trimEnd().split('\n');
    const noTrailer = join(a.root, 'no-trailer.gz');
    writeFileSync(noTrailer, gzipSync(`${text.slice(0, -1).join('\n')}\n`));
    await refused(noTrailer, /truncated \(no trailer\)/);
    const halfLine = join(a.root, 'half-line.gz');
    writeFileSync(halfLine, gzipSync(text.join('\n').slice(0, -10)));
    await refused(halfLine, /truncated/);
  });

  it('a byte changed in the body is refused: checksum mismatch', async () => {
    const a = await alice();
    const out = join(a.root, 'team.gz');
    await exportBundle({ store: a.store, workspace: a.workspace, out, exportedBy: 'alice' });
    const body = gunzipSync(readFileSync(out));
    // a letter for a letter in the middle line: still valid JSON and a valid trace, only the checksum tells
    const at = body.indexOf('run the api tests');
    assert.ok(at > 0);
    body[at] = 'R'.charCodeAt(0);
    const tampered = join(a.root, 'tampered.gz');
    writeFileSync(tampered, gzipSync(body));
    await refused(tampered, /tampered or corrupted: checksum mismatch/);
    const b = bob(a.root);
    await assert.rejects(importBundle({ store: b.store, path: tampered, workspace: b.workspace }), BundleError);
    assert.deepEqual(await b.store.listTraces(), [], 'nothing of a refused bundle is imported');
  });

  it('a newer or unknown version, another format, or no bundle at all is refused', async () => {
    const dir = tempDir('combee-bundle-bad-');
    const trace = makeTrace('claude-code:x', [user('hi')]);
    await refused(craft(join(dir, 'v2.gz'), [trace], { version: 2 }), /newer Combee \(bundle version 2/);
    await refused(craft(join(dir, 'v0.gz'), [trace], { version: 0 }), /unknown bundle version 0/);
    await refused(craft(join(dir, 'fmt.gz'), [trace], { format: 'other' }), /not a Combee bundle/);
    const plain = join(dir, 'plain.txt');
    writeFileSync(plain, 'hello, not gzip\n');
    await refused(plain, /not a Combee bundle \(not gzip data\)/);
    const empty = join(dir, 'empty.gz');
    writeFileSync(empty, '');
    await refused(empty, /not a Combee bundle/);
    const json = join(dir, 'json.gz');
    writeFileSync(json, gzipSync('{"some":"json"}\n'));
    await refused(json, /not a Combee bundle/);
    const longLine = join(dir, 'long.gz');
    writeFileSync(longLine, gzipSync('x'.repeat(200_000)));
    await refused(longLine, /not a Combee bundle \(no header line\)/);
  });

  it('counts that disagree with the lines are refused', async () => {
    const dir = tempDir('combee-bundle-count-');
    const trace = makeTrace('claude-code:x', [user('hi')]);
    await refused(craft(join(dir, 'trailer.gz'), [trace], {}, { traces: 2 }), /counts disagree/);
    await refused(craft(join(dir, 'header.gz'), [trace], { traces: 3 }), /counts disagree/);
  });

  it('a bundle that decompresses past the limit is refused (zip bomb)', async () => {
    const dir = tempDir('combee-bundle-bomb-');
    const big = makeTrace('claude-code:big', [user('a'.repeat(1_000_000))]);
    const path = craft(join(dir, 'bomb.gz'), [big]);
    assert.ok(readFileSync(path).length < 10_000);
    await assert.rejects(
      readBundle(path, { maxBytes: 100_000 }),
      /decompresses to more than 0\.1 MiB \(100000 bytes\)/,
    );
    assert.equal((await readBundle(path)).traces.length, 1);
    const long = await readBundle(path, { maxSessionBytes: 1000 });
    assert.deepEqual([long.traces.length, long.invalid], [0, 1]);
    assert.match(long.warnings[0], /^line 2: a session of more than 1000 bytes: skipped$/);
  });

  it('an invalid trace line is counted and skipped, the others imported', async () => {
    const dir = tempDir('combee-bundle-invalid-');
    const good = makeTrace('claude-code:good', [user('hi')], { cwd: '.' });
    const bad = { ...makeTrace('claude-code:bad', [user('x')]), agent: 'not-an-agent' } as unknown as Trace;
    const path = craft(join(dir, 'mixed.gz'), [good, bad, 'not json at all', '']);
    const workspace = join(dir, 'ws');
    mkdirSync(workspace);
    const store = new TraceStore(join(dir, 'store'));
    const result = await importBundle({ store, path, workspace });
    assert.deepEqual([result.imported, result.invalid], [1, 3]);
    assert.equal(result.warnings.length, 3);
    assert.match(result.warnings[0], /^line 3: not a valid session \(.*agent.*\): skipped$/);
    assert.match(result.warnings[1], /^line 4: not JSON: skipped$/);
    assert.deepEqual(
      (await store.listTraces()).map((t) => t.id),
      ['claude-code:good'],
    );
  });

  it('secrets planted in a bundle are redacted on import and counted', async () => {
    const dir = tempDir('combee-bundle-secret-');
    const planted = makeTrace(
      'claude-code:planted',
      [user(`my key is ${AWS_KEY}`), ...shell(`git push https://${GITHUB_TOKEN}@github.com/x`, 'ok')],
      { cwd: '.', title: `token ${GITHUB_TOKEN}` },
    );
    const path = craft(join(dir, 'secret.gz'), [planted]);
    const workspace = join(dir, 'ws');
    mkdirSync(workspace);
    const store = new TraceStore(join(dir, 'store'));
    const result = await importBundle({ store, path, workspace });
    assert.equal(result.imported, 1);
    assert.ok(result.redactions >= 4, String(result.redactions));
    const stored = JSON.stringify(await store.loadTrace('claude-code:planted'));
    assert.ok(!stored.includes(AWS_KEY) && !stored.includes(GITHUB_TOKEN), stored);
    assert.equal((await store.loadTrace('claude-code:planted'))?.redactions, result.redactions);
  });

  it('dates no session after the bundle was exported, nor after the import', async () => {
    const dir = tempDir('combee-bundle-time-');
    const at = (id: string, startedAt: string, endedAt: string) =>
      makeTrace(`claude-code:${id}`, [user(id)], { startedAt, endedAt });
    const traces = [
      at('honest', '2026-10-31T09:00:00.000Z', '2026-10-31T10:00:00.000Z'),
      at('future', '2999-01-01T00:00:00.000Z', '2999-01-01T01:00:00.000Z'),
      at('ends-late', '2026-10-31T23:00:00.000Z', '2026-11-02T00:00:00.000Z'),
    ];
    const workspace = join(dir, 'ws');
    mkdirSync(workspace);
    const store = new TraceStore(join(dir, 'store'));
    const now = new Date('2026-12-01T00:00:00.000Z');
    const path = craft(join(dir, 'b.gz'), traces, { newestSessionAt: '2026-11-01T00:00:00.000Z' });
    const result = await importBundle({ store, path, workspace, now });
    const byId = new Map((await store.listTraces()).map((t) => [t.id, t]));
    assert.equal(byId.get('claude-code:honest')?.endedAt, '2026-10-31T10:00:00.000Z');
    assert.equal(byId.get('claude-code:future')?.startedAt, '2026-11-01T00:00:00.000Z');
    assert.equal(byId.get('claude-code:future')?.endedAt, '2026-11-01T00:00:00.000Z');
    assert.equal(byId.get('claude-code:ends-late')?.startedAt, '2026-10-31T23:00:00.000Z');
    assert.equal(byId.get('claude-code:ends-late')?.endedAt, '2026-11-01T00:00:00.000Z');
    assert.match(
      result.warnings.join('\n'),
      /2 session\(s\) dated after the newest session its bundle's header states: their times were set/,
    );
    // a bundle whose newest session is said to end in the future is bounded by the import; a bundle written before
    // the field was renamed names it exportedAt, read the same
    const store2 = new TraceStore(join(dir, 'store2'));
    const ahead = craft(join(dir, 'ahead.gz'), traces, {
      newestSessionAt: undefined,
      exportedAt: '3000-01-01T00:00:00.000Z',
    });
    const second = await importBundle({ store: store2, path: ahead, workspace, now });
    assert.equal((await store2.loadTrace('claude-code:future'))?.endedAt, now.toISOString());
    assert.match(
      second.warnings.join('\n'),
      /1 session\(s\) dated after the newest session its bundle's header states \(or after now\)/,
    );
  });

  it("a folder that leaves the workspace is clamped to its root; the exporter's name is cleaned and names every session", async () => {
    const dir = tempDir('combee-bundle-cwd-');
    const traces = [
      makeTrace('claude-code:climb', [user('a')], { cwd: '../../etc' }),
      makeTrace('claude-code:absolute', [user('b')], { cwd: '/etc' }),
      makeTrace('claude-code:home', [user('c')], { cwd: '~/elsewhere' }),
      makeTrace('claude-code:inside', [user('d')], { cwd: 'a/../b', contributor: 'carol' }),
    ];
    const path = craft(join(dir, 'climb.gz'), traces, { exportedBy: `\u001b[31mmal\u0007lory${'x'.repeat(300)}` });
    const workspace = join(dir, 'ws');
    mkdirSync(workspace);
    const store = new TraceStore(join(dir, 'store'));
    const result = await importBundle({ store, path, workspace });
    assert.equal(result.imported, 4);
    assert.equal(result.warnings.length, 3, result.warnings.join('\n'));
    assert.match(result.warnings.join('\n'), /"\.\.\/\.\.\/etc" leaves the workspace: set to the workspace root/);
    const byId = new Map((await store.listTraces()).map((t) => [t.id, t]));
    for (const id of ['climb', 'absolute', 'home']) assert.equal(byId.get(`claude-code:${id}`)?.cwd, workspace, id);
    assert.equal(byId.get('claude-code:inside')?.cwd, join(workspace, 'b'));
    const exporter = byId.get('claude-code:climb')?.contributor ?? '';
    // the exporter vouches for every session: a session naming its own contributor is not believed
    assert.equal(byId.get('claude-code:inside')?.contributor, exporter);
    assert.equal(exporter, `[31mmallory${'x'.repeat(89)}`);
    assert.equal(result.bundle.exportedBy, exporter);
  });
});
