import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { TraceStore } from '../../../src/core/store/traceStore';
import { BundleError, BundleTooLargeError, writeBundle } from '../../../src/core/team/bundle';
import { readBundle } from '../../../src/core/team/bundleReader';
import { exportBundle, importBundle } from '../../../src/core/team/importBundle';
import { fromPortable } from '../../../src/core/team/portable';
import { MAX_BUNDLE_DECOMPRESSED_BYTES, MAX_BUNDLE_SESSIONS } from '../../../src/core/team/teamLimits';
import { createRedactor } from '../../../src/core/trace/redact';
import { sha256 } from '../../../src/core/util/hash';
import { writeLargeBundle } from '../../support/largeBundles';
import { tempDir } from '../../../testing/tmp';
import { assistant, makeTrace, shell, user } from '../../../testing/traces';

// A bundle is read as a stream: its sessions are staged in the store as they come and published only once the trailer
// verifies. What is held at once is one session, whatever the bundle's size; a bundle past the limits is refused as
// soon as it passes them.

/** The gunzip stream's chunk: a refusal comes at most this far past the cap. */
const CHUNK = 64 * 1024;

function setup(prefix: string) {
  const dir = tempDir(prefix);
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  return { dir, workspace, store: new TraceStore(join(dir, 'store')) };
}

/** Files the store holds for traces: published packs and anything still staged. */
const files = (store: TraceStore, sub: 'packs' | 'staging') => {
  const root = join(store.dir, sub);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
};

describe('team bundles, streamed', () => {
  it('refuses a bundle past the decompressed cap as soon as it passes it, and removes the sessions it had staged', async function () {
    this.timeout(60_000);
    const { dir, workspace, store } = setup('combee-bundle-cap-');
    // 8 lines of 33 MiB: 264 MiB decompressed from a file of a few hundred KB
    const bomb = writeLargeBundle(join(dir, 'bomb.combee-bundle'), { small: 3, large: 8, textBytes: 33 * 1024 ** 2 });
    assert.ok(bomb.decompressedBytes > MAX_BUNDLE_DECOMPRESSED_BYTES);
    assert.ok(bomb.bytes < bomb.decompressedBytes / 100, `${bomb.bytes} bytes on disk`);
    await assert.rejects(importBundle({ store, path: bomb.path, workspace }), (error: unknown) => {
      assert.ok(error instanceof BundleError, String(error));
      assert.ok(error.message.includes(bomb.path), 'the message names the bundle');
      assert.match(error.message, /decompresses to more than 256 MiB \(268435456 bytes\), the most a bundle may/);
      assert.ok(error.decompressedBytes! > MAX_BUNDLE_DECOMPRESSED_BYTES);
      assert.ok(error.decompressedBytes! <= MAX_BUNDLE_DECOMPRESSED_BYTES + CHUNK, `${error.decompressedBytes}`);
      assert.equal(error.discardedSessions, 3, 'the sessions before the cap were staged, then removed');
      return true;
    });
    assert.deepEqual(await store.listSummaries(), []);
    assert.deepEqual([files(store, 'packs'), files(store, 'staging')], [[], []]);
  });

  it('a bundle whose trailer does not verify publishes nothing of what it staged', async () => {
    const { dir, workspace, store } = setup('combee-bundle-trailer-');
    for (const trailer of ['bad', 'none'] as const) {
      const bundle = writeLargeBundle(join(dir, `${trailer}.combee-bundle`), {
        small: 4,
        large: 2,
        textBytes: 100_000,
        trailer,
      });
      await assert.rejects(importBundle({ store, path: bundle.path, workspace }), (error: unknown) => {
        assert.ok(error instanceof BundleError, String(error));
        assert.match(error.message, trailer === 'bad' ? /checksum mismatch/ : /truncated \(no trailer\)/);
        assert.equal(error.discardedSessions, 6, 'every session was staged before the trailer was read');
        return true;
      });
      assert.deepEqual(await store.listSummaries(), [], trailer);
      assert.deepEqual([files(store, 'packs'), files(store, 'staging')], [[], []], trailer);
    }
    // the same sessions with a good trailer are all published
    const good = writeLargeBundle(join(dir, 'good.combee-bundle'), { small: 4, large: 2, textBytes: 100_000 });
    const result = await importBundle({ store, path: good.path, workspace });
    assert.equal(result.imported, 6);
    assert.equal((await store.listSummaries()).length, 6);
    assert.deepEqual(files(store, 'staging'), []);
  });

  it('removes what a crashed import left staged, once it is old, and leaves no staging folder behind', async () => {
    const { dir, workspace, store } = setup('combee-bundle-stale-');
    const stale = join(store.dir, 'staging', 'crashed');
    const live = join(store.dir, 'staging', 'another-import');
    mkdirSync(stale, { recursive: true });
    mkdirSync(live);
    writeFileSync(join(stale, 'x.jsonl'), 'half a pack');
    const hoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(stale, hoursAgo, hoursAgo);
    const bundle = writeLargeBundle(join(dir, 'b.combee-bundle'), { small: 2, large: 0, textBytes: 0 });
    await importBundle({ store, path: bundle.path, workspace });
    assert.deepEqual(readdirSync(join(store.dir, 'staging')), ['another-import'], 'a recent one may be in progress');
    rmSync(live, { recursive: true });
    await importBundle({ store: new TraceStore(store.dir), path: bundle.path, workspace });
    assert.equal(existsSync(join(store.dir, 'staging')), false);
  });

  it('a store write that fails midway is thrown as it is (not a refusal) and leaves nothing staged', async () => {
    const { dir, workspace, store } = setup('combee-bundle-fail-');
    const bundle = writeLargeBundle(join(dir, 'b.combee-bundle'), { small: 5, large: 0, textBytes: 0 });
    const staging = store.stageTraces.bind(store);
    let saved = 0;
    store.stageTraces = () => {
      const inner = staging();
      return {
        ...inner,
        get staged() {
          return inner.staged;
        },
        save: async (trace) => {
          if (++saved === 3) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
          await inner.save(trace);
        },
      };
    };
    await assert.rejects(importBundle({ store, path: bundle.path, workspace }), (error: unknown) => {
      assert.ok(!(error instanceof BundleError), String(error));
      assert.match(String(error), /no space left/);
      return true;
    });
    assert.deepEqual([files(store, 'packs'), files(store, 'staging')], [[], []]);
  });

  it('holds more sessions than the header says: refused at the first line too many, without reading on', async () => {
    const { dir, workspace, store } = setup('combee-bundle-count-');
    const bundle = writeLargeBundle(join(dir, 'b.combee-bundle'), { small: 3, large: 0, textBytes: 0 });
    // the same file with a header claiming one session
    const lines = gunzipSync(readFileSync(bundle.path)).toString('utf8').split('\n');
    const header = JSON.parse(lines[0]) as Record<string, unknown>;
    const lying = join(dir, 'lying.combee-bundle');
    writeFileSync(lying, gzipSync([JSON.stringify({ ...header, traces: 1 }), ...lines.slice(1)].join('\n')));
    await assert.rejects(
      importBundle({ store, path: lying, workspace }),
      /counts disagree \(header 1, more session lines/,
    );
    const many = join(dir, 'many.combee-bundle');
    writeFileSync(many, gzipSync([JSON.stringify({ ...header, traces: MAX_BUNDLE_SESSIONS + 1 }), ''].join('\n')));
    await assert.rejects(importBundle({ store, path: many, workspace }), /holds 20001 sessions, more than the 20000/);
    assert.deepEqual(await store.listSummaries(), []);
  });

  it('keeps a few warnings for lines that are no session and counts the rest in one', async () => {
    const { dir, workspace, store } = setup('combee-bundle-warnings-');
    const body = Array.from({ length: 1000 }, () => '');
    const header = { format: 'combee-bundle', version: 1, exportedBy: 'x', exportedAt: '', traces: body.length };
    const path = join(dir, 'empty-lines.combee-bundle');
    const trailer = { end: true, traces: body.length, sha256: sha256(body.join('\n')) };
    writeFileSync(path, gzipSync([JSON.stringify(header), ...body, JSON.stringify(trailer)].join('\n') + '\n'));
    const result = await importBundle({ store, path, workspace });
    assert.equal(result.invalid, 1000);
    assert.equal(result.warnings.length, 21);
    assert.equal(result.warnings[20], '980 more line(s) were no valid session: skipped');
  });

  it('imports a bundle larger than the heap in a process with a 64 MB heap (it was held whole until the trailer)', function () {
    this.timeout(120_000);
    const { dir, workspace, store } = setup('combee-bundle-heap-');
    // 96 sessions of 1 MiB: 96 MiB of text, all of it held at once before
    const bundle = writeLargeBundle(join(dir, 'big.combee-bundle'), { small: 0, large: 96, textBytes: 1024 ** 2 });
    const out = resolve(__dirname, '..', '..', '..');
    const script = `
      const { TraceStore } = require(${JSON.stringify(join(out, 'src/core/store/traceStore.js'))});
      const { importBundle } = require(${JSON.stringify(join(out, 'src/core/team/importBundle.js'))});
      importBundle({ store: new TraceStore(process.argv[1]), path: process.argv[2], workspace: process.argv[3] })
        .then((r) => process.stdout.write(JSON.stringify({ imported: r.imported })));`;
    const child = spawnSync(
      process.execPath,
      ['--max-old-space-size=64', '-e', script, store.dir, bundle.path, workspace],
      { encoding: 'utf8' },
    );
    assert.equal(child.status, 0, child.stderr.slice(-2000));
    assert.deepEqual(JSON.parse(child.stdout), { imported: 96 });
  });

  it('a good bundle imports byte for byte as the in-memory import did: the same pack text and summaries', async () => {
    const { dir, workspace, store } = setup('combee-bundle-same-');
    const source = new TraceStore(join(dir, 'alice-store'));
    const alice = join(dir, 'alice', 'acme-shop');
    mkdirSync(alice, { recursive: true });
    const long = Array.from({ length: 300 }, (_, i) =>
      i % 2 ? assistant(`step ${i} in ${alice}/src`) : user(`ü ${i}`),
    );
    const traces = [
      makeTrace('claude-code:long', long, { cwd: alice, endedAt: '2026-11-02T10:00:00.000Z' }),
      makeTrace('codex:short', [user('run the tests'), ...shell(`cd ${alice}/api && pnpm test`, 'ok')], {
        agent: 'codex',
        cwd: join(alice, 'api'),
        startedAt: '2999-01-01T00:00:00.000Z',
      }),
      makeTrace('claude-code:outside', [user('x')], { cwd: alice, title: 'folder outside' }),
    ];
    for (const trace of traces) await source.saveTrace(trace);
    const path = join(dir, 'alice.combee-bundle');
    await exportBundle({ store: source, workspace: alice, out: path, exportedBy: 'alice' });
    const now = new Date('2026-12-01T00:00:00.000Z');
    await importBundle({ store, path, workspace, now });

    // the import as it was: the whole bundle read, then each session rewritten and written to one pack
    const reference = new TraceStore(join(dir, 'reference'));
    const contents = await readBundle(path);
    const newestAt = Math.min(Date.parse(contents.header.newestSessionAt), now.getTime());
    const redactor = createRedactor({ homePaths: false });
    const writer = reference.openPack();
    for (const trace of contents.traces)
      await writer.save(
        fromPortable(trace, { workspace, contributor: 'alice', redactor, warn: () => {}, notAfter: newestAt }),
      );
    await writer.close();

    const packText = (s: TraceStore) => {
      const [pack] = readdirSync(join(s.dir, 'packs')).filter((n) => n.endsWith('.jsonl'));
      return readFileSync(join(s.dir, 'packs', pack));
    };
    const index = (s: TraceStore) => {
      const [idx] = readdirSync(join(s.dir, 'packs')).filter((n) => n.endsWith('.idx.json'));
      return JSON.parse(readFileSync(join(s.dir, 'packs', idx), 'utf8')) as unknown;
    };
    assert.equal(readdirSync(join(store.dir, 'packs')).length, 2, 'one pack and its index');
    assert.deepEqual(packText(store), packText(reference));
    assert.deepEqual(index(store), index(reference));
  });

  it('export refuses to write a bundle no teammate could import', async () => {
    const dir = tempDir('combee-bundle-export-cap-');
    const out = join(dir, 'too-many.combee-bundle');
    const traces = Array.from({ length: MAX_BUNDLE_SESSIONS + 1 }, (_, i) => makeTrace(`claude-code:s${i}`, []));
    await assert.rejects(
      writeBundle(out, { exportedBy: 'a', newestSessionAt: '', workspaceName: 'w' }, traces),
      (error: unknown) =>
        error instanceof BundleTooLargeError && /20001 sessions, more than the 20000/.test(String(error)),
    );
    assert.equal(existsSync(out), false);
  });
});
