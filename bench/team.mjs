#!/usr/bin/env node
// Team benchmark: what pooling a team's sessions costs, with the built CLI in child processes, on the import
// benchmark's generated corpus (default `mixed`: 2,800 Claude Code and Codex sessions, 443 MB of agent logs with long
// tool outputs and planted secrets), imported once into a store. Measured: `combee export --bundle` of every stored
// session (wall, bytes, bytes per session, ratio to the stored traces), `combee import --bundle` into a fresh store
// (wall, peak RSS, sessions/s) and again into the same store (all duplicates), then the learning map phase on the
// newest --sessions (default 200) of the imported bundle against the loopback OpenAI-compatible server answering as
// the simulated model with log-normal latency (median 800 ms): one machine (`learn --batch all`) next to --shards
// (default 3) `learn --shard i/n` processes in parallel, each on its own copy of the imported store as CI runners
// would, plus `learn --reduce`; the reduce's proposal diff must equal the one machine's (same seed). Then bundles
// far larger decompressed than on disk (test/support/largeBundles.ts): 96 sessions of 1 MiB (a 330 KB file) imported
// by a process with a 64 MB heap, and a 264 MiB decompression bomb, with the peak RSS and what became of each.
// Usage: node esbuild.mjs && node esbuild.mjs --tests && node bench/team.mjs [--runs n] [--size mixed|short|small|…]
//        [--sessions n] [--shards n] [--latency-ms n] [--sigma s] [--cap n] [--seed n] [--cli <path>] [--out <file>]
//        [--no-learn]
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, homedir, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { rngFrom, SECRET_MARKER } from './corpus.mjs';
import { corpusDir, generate } from './generate-corpus.mjs';
import { REPO_ROOT as REPO } from '../testing/fixtureWorkspace.mjs';

const CACHE = process.env.COMBEE_BENCH_DIR
  ? resolve(process.env.COMBEE_BENCH_DIR)
  : join(homedir(), '.cache', 'combee-bench');
const USAGE = 'node esbuild.mjs && node esbuild.mjs --tests && node bench/team.mjs [--runs n]';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: 'mixed' },
    runs: { type: 'string', default: '1' },
    sessions: { type: 'string', default: '200' },
    shards: { type: 'string', default: '3' },
    'latency-ms': { type: 'string', default: '800' },
    sigma: { type: 'string', default: '0.5' },
    cap: { type: 'string', default: '0' },
    seed: { type: 'string', default: '7' },
    cli: { type: 'string' },
    out: { type: 'string' },
    'no-learn': { type: 'boolean' },
  },
});
const learnToo = !values['no-learn'];
const size = values.size;
const runs = Math.max(1, Number(values.runs));
const sessionsWanted = Math.max(1, Number(values.sessions));
const shards = Math.max(2, Number(values.shards));
const latency = { medianMs: Number(values['latency-ms']), sigma: Number(values.sigma), minMs: 100, maxMs: 10_000 };
const cap = Number(values.cap) > 0 ? Number(values.cap) : undefined;
const seed = String(Number(values.seed));
const log = (m) => process.stderr.write(`${m}\n`);

// ---- the CLI and the loopback server, copied / loaded now: a rebuild by someone else mid-run changes nothing ----
const cliSource = values.cli ? resolve(values.cli) : join(REPO, 'dist', 'cli.js');
const serverModule = join(REPO, 'out', 'test', 'support', 'modelServer.js');
const modelModule = join(REPO, 'out', 'test', 'support', 'simulatedModel.js');
const largeBundleModule = join(REPO, 'out', 'test', 'support', 'largeBundles.js');
for (const file of [cliSource, serverModule, modelModule, largeBundleModule])
  if (!existsSync(file)) throw new Error(`${file} is missing: build first (${USAGE})`);
const require = createRequire(import.meta.url);
const { startModelServer } = require(serverModule);
const { simulatedModel } = require(modelModule);
const { writeLargeBundle } = require(largeBundleModule);

const work = mkdtempSync(join(tmpdir(), 'combee-team-bench-'));
const cliDir = join(work, 'cli');
mkdirSync(cliDir);
// the CLI loads its worker, tokenizer and RE2 bundles from its own folder
for (const e of readdirSync(dirname(cliSource), { withFileTypes: true }))
  if (e.isFile() && !e.name.endsWith('.map')) copyFileSync(join(dirname(cliSource), e.name), join(cliDir, e.name));
const cli = join(cliDir, 'cli.js');
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
if (!TIME) log('note: /usr/bin/time not found (apt-get install time); peak RSS is polled from /proc/<pid>/status');

/**
 * Runs the CLI, returns wall seconds, peak RSS (MB), CPU seconds and the parsed --json output. `node`: options for
 * Node itself; `mayFail`: a non-zero exit (or a crash) is returned as `code`, not thrown.
 */
async function combee(args, { node = [], mayFail = false } = {}) {
  const argv = [...node, cli, ...args];
  /** @type {[string, string[]]} */
  const full = TIME ? [TIME, ['-v', process.execPath, ...argv]] : [process.execPath, argv];
  const started = process.hrtime.bigint();
  const child = spawn(full[0], full[1], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  const out = [];
  const err = [];
  child.stdout.on('data', (d) => out.push(d));
  child.stderr.on('data', (d) => err.push(d));
  let polled = 0;
  const poll = TIME
    ? undefined
    : setInterval(() => {
        try {
          const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          if (m) polled = Math.max(polled, Number(m[1]) / 1024);
        } catch {
          /* exited */
        }
      }, 20);
  const code = await new Promise((res) => child.on('close', res));
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (poll) clearInterval(poll);
  const stderr = Buffer.concat(err).toString();
  if (code !== 0 && !mayFail) throw new Error(`combee ${args.join(' ')} exited with ${code}\n${stderr.slice(-2000)}`);
  const rss = TIME ? Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? 0) / 1024 : polled;
  const cpu = TIME
    ? Number(/User time \(seconds\): ([\d.]+)/.exec(stderr)?.[1] ?? NaN) +
      Number(/System time \(seconds\): ([\d.]+)/.exec(stderr)?.[1] ?? NaN)
    : undefined;
  const crashed = TIME ? /Command terminated by signal (\d+)/.exec(stderr)?.[1] : undefined;
  let json;
  try {
    json = JSON.parse(Buffer.concat(out).toString());
  } catch (error) {
    if (!mayFail) throw error;
  }
  return { wall, rss, cpu, json, code: crashed ? `signal ${crashed}` : code, stderr };
}

const median = (xs) => {
  const s = xs.filter((x) => x !== undefined && !Number.isNaN(x)).sort((a, b) => a - b);
  if (s.length === 0) return undefined;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const pick = (list, key) => list.map((r) => r[key]);
/** Median wall and CPU over the runs, highest peak RSS of any. */
const summarize = (list) => ({
  wall: median(pick(list, 'wall')),
  cpu: median(pick(list, 'cpu')),
  rss: Math.max(...pick(list, 'rss')),
  walls: pick(list, 'wall'),
});
const dirBytes = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce(
    (n, e) => n + (e.isDirectory() ? dirBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size),
    0,
  );
const fresh = (name) => join(work, `${name}-${Math.random().toString(36).slice(2, 8)}`);

/** Files under `dir` holding the planted secrets' marker (must be 0). */
function countMarker(dir) {
  let hits = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) hits += countMarker(p);
    else if (readFileSync(p, 'latin1').includes(SECRET_MARKER)) hits++;
  }
  return hits;
}

/** The bundle's trace lines, decompressed: their total bytes, the end times, and whether a planted secret is in it. */
function readBundleLines(path) {
  const data = gunzipSync(readFileSync(path));
  const ends = [];
  let start = data.indexOf(0x0a) + 1; // after the header
  for (let nl = data.indexOf(0x0a, start); nl >= 0; start = nl + 1, nl = data.indexOf(0x0a, start)) {
    const line = JSON.parse(data.subarray(start, nl).toString('utf8'));
    if (line.end === true) break; // the trailer
    ends.push(line.endedAt ?? line.startedAt);
  }
  return { bytes: data.length, ends, leaked: data.includes(SECRET_MARKER) };
}

const results = {
  size,
  usage: USAGE,
  machine: {
    cpus: cpus().length,
    model: cpus()[0]?.model,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    loadAverageBefore: loadavg(),
  },
  settings: {
    runs,
    seed: Number(seed),
    shards,
    sessionsWanted,
    latency: { distribution: 'log-normal', ...latency },
    concurrencyCap: cap ?? null,
    model: 'testing/simulatedModel.ts (deterministic stand-in) via testing/modelServer.ts on 127.0.0.1',
    learnFlags:
      '--provider openai --base-url <loopback> --window-days 0 --all-workspaces --workspace <ws> --seed <seed> --since <the newest sessions> --json',
    cli: cliSource,
  },
};

/** @type {any} the loopback model server, started by the learning phase */
let server;
let exitCode = 0;
/** What the learning phase takes from the export and import phases. */
const phase = {};
try {
  // ---- corpus and the team member's store ----
  const root = corpusDir(size, join(CACHE, 'corpus'));
  const manifest = generate(size, root, log);
  const source = join(work, 'source-store');
  log(`importing the ${size} corpus (${(manifest.totalBytes / 1e6).toFixed(0)} MB, ${manifest.files.length} files) …`);
  const sourceImport = await combee(['import', '--from', root, '--store', source, '--json']);
  const stored = { packs: dirBytes(join(source, 'packs')), store: dirBytes(source) };
  results.corpus = {
    path: root,
    bytes: manifest.totalBytes,
    files: manifest.files.length,
    claudeFiles: manifest.claudeFiles,
    codexFiles: manifest.codexFiles,
    secretsPlanted: manifest.secretsPlanted,
    sessions: sourceImport.json.sessions,
    steps: sourceImport.json.steps,
    storedTraceBytes: stored.packs,
    storeBytes: stored.store,
    importFromWall: sourceImport.wall,
  };
  log(
    `  ${sourceImport.json.sessions} sessions, ${(stored.packs / 1e6).toFixed(1)} MB of stored traces (${sourceImport.wall.toFixed(1)} s)`,
  );
  const ws = join(work, 'workspace');
  mkdirSync(ws);

  // ---- 1. export ----
  const exports = [];
  const digests = new Set();
  let bundle;
  for (let r = 0; r < runs; r++) {
    spawnSync('sync');
    bundle = join(work, `team-${r}.combee-bundle`);
    const e = await combee([
      'export',
      '--bundle',
      bundle,
      '--workspace',
      ws,
      '--store',
      source,
      '--author',
      'bench',
      '--all-workspaces',
      '--json',
    ]);
    digests.add(createHash('sha256').update(readFileSync(bundle)).digest('hex'));
    exports.push({ ...e, bytes: e.json.bytes, traces: e.json.traces, redactions: e.json.redactions });
    log(`  export ${r + 1}/${runs}: ${e.wall.toFixed(2)} s, ${(e.json.bytes / 1e6).toFixed(1)} MB`);
  }
  const lines = readBundleLines(bundle);
  const exported = exports[0];
  results.export = {
    ...summarize(exports),
    sessions: exported.traces,
    bundleBytes: exported.bytes,
    bytesPerSession: exported.bytes / exported.traces,
    decompressedBytes: lines.bytes,
    ratioToStoredTraces: exported.bytes / stored.packs,
    decompressedRatioToStoredTraces: lines.bytes / stored.packs,
    redactions: exported.redactions,
    sameBytesEveryRun: digests.size === 1,
    plantedSecretsInBundle: lines.leaked,
  };

  // ---- 2. import into a fresh store, then again (all duplicates) ----
  const imports = [];
  const again = [];
  let imported;
  for (let r = 0; r < runs; r++) {
    spawnSync('sync');
    const store = fresh('imported');
    const first = await combee(['import', '--bundle', bundle, '--workspace', ws, '--store', store, '--json']);
    const b1 = first.json.bundles[0];
    if (b1.imported !== exported.traces) throw new Error(`import: ${b1.imported} of ${exported.traces} sessions`);
    imports.push({ ...first, imported: b1.imported, warnings: b1.warnings, redactions: b1.redactions });
    spawnSync('sync');
    const second = await combee(['import', '--bundle', bundle, '--workspace', ws, '--store', store, '--json']);
    const b2 = second.json.bundles[0];
    if (b2.duplicates !== exported.traces || b2.imported !== 0)
      throw new Error(`re-import: ${b2.imported} imported, ${b2.duplicates} duplicates`);
    again.push({ ...second, duplicates: b2.duplicates });
    log(`  import ${r + 1}/${runs}: ${first.wall.toFixed(2)} s, again ${second.wall.toFixed(2)} s`);
    if (imported) rmSync(store, { recursive: true, force: true });
    else imported = store; // kept: every learner below starts from a copy of it
  }
  const importSummary = summarize(imports);
  results.import = {
    ...importSummary,
    sessions: imports[0].imported,
    sessionsPerSecond: imports[0].imported / importSummary.wall,
    warnings: imports[0].warnings,
    redactions: imports[0].redactions,
    storeBytes: dirBytes(imported),
    plantedSecretsInStore: countMarker(imported),
  };
  results.reimport = { ...summarize(again), duplicates: again[0].duplicates };

  // ---- 2b. bundles far larger decompressed than on disk ----
  const large = writeLargeBundle(join(work, 'large.combee-bundle'), { large: 96, textBytes: 1024 ** 2 });
  const bomb = writeLargeBundle(join(work, 'bomb.combee-bundle'), { small: 3, large: 8, textBytes: 33 * 1024 ** 2 });
  const outcomeOf = (run) => {
    const b = run.json?.bundles?.[0];
    if (b && 'imported' in b) return `${b.imported} imported`;
    if (b?.error) return b.error.replace(/^bundle \S+ is refused: /, 'refused: ').slice(0, 80);
    return /heap out of memory/i.test(run.stderr)
      ? `crashed (${run.code}): JavaScript heap out of memory`
      : `exit ${run.code}`;
  };
  const largeRuns = [];
  for (const [name, file, node] of [
    ['96 × 1 MiB sessions, 64 MB heap', large, ['--max-old-space-size=64']],
    ['a decompression bomb', bomb, []],
  ]) {
    spawnSync('sync');
    const store = fresh('large');
    const r = await combee(['import', '--bundle', file.path, '--workspace', ws, '--store', store, '--json'], {
      node,
      mayFail: true,
    });
    const staged = existsSync(join(store, 'staging')) ? dirBytes(join(store, 'staging')) : 0;
    largeRuns.push({
      name,
      fileBytes: file.bytes,
      decompressedBytes: file.decompressedBytes,
      node,
      wall: r.wall,
      cpu: r.cpu,
      rss: r.rss,
      outcome: outcomeOf(r),
      stagedBytesLeft: staged,
    });
    log(`  ${name}: ${outcomeOf(r)}, peak RSS ${r.rss.toFixed(0)} MB`);
    rmSync(store, { recursive: true, force: true });
  }
  results.largeBundles = largeRuns;

  Object.assign(phase, { ws, lines, imported });
  if (learnToo) await learnPhase();
} finally {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
}

async function learnPhase() {
  const { ws, lines, imported } = phase;
  // ---- 3. the map phase: one machine against shards in parallel plus the reduce ----
  const ends = lines.ends
    .filter((t) => t && Number.isFinite(Date.parse(t)))
    .sort((a, b) => Date.parse(a) - Date.parse(b));
  const since = ends[Math.max(0, ends.length - sessionsWanted)];
  const selected = ends.filter((t) => Date.parse(t) >= Date.parse(since)).length;
  results.settings.since = since;
  results.settings.sessionsSelected = selected;
  const rng = rngFrom(`team-latency-${seed}`);
  server = await startModelServer({
    responder: (request) => simulatedModel(request),
    latencyMs: () => rng.logNormal(latency.medianMs, latency.sigma, latency.minMs, latency.maxMs),
    concurrencyCap: cap,
  });
  const learnArgs = (store) => [
    'learn',
    '--workspace',
    ws,
    '--store',
    store,
    '--provider',
    'openai',
    '--base-url',
    server.url,
    '--window-days',
    '0',
    '--all-workspaces',
    '--since',
    since,
    '--seed',
    seed,
    '--json',
  ];
  /** Calls the server answered during `fn`, its most in flight and its 429s. */
  const counted = async (fn) => {
    const before = { completed: server.stats.completed, rejected: server.stats.rejected429 };
    server.stats.maxInFlight = 0;
    const value = await fn();
    return {
      value,
      calls: server.stats.completed - before.completed,
      rejected429: server.stats.rejected429 - before.rejected,
      maxInFlight: server.stats.maxInFlight,
    };
  };
  const diffOf = (json) => JSON.stringify(json.proposal?.files.map((f) => ({ path: f.path, diff: f.diff })) ?? null);
  const learnRuns = [];
  log(`map phase on the ${selected} newest sessions (ended at or after ${since}), ${shards} shards`);
  for (let r = 0; r < runs; r++) {
    const copy = (name) => {
      const dir = fresh(name);
      cpSync(imported, dir, { recursive: true });
      return dir;
    };
    const oneStore = copy('one');
    const shardStores = Array.from({ length: shards }, (_, i) => copy(`shard${i + 1}`));
    const reduceStore = copy('reduce');
    const outRoot = fresh('reflections');
    spawnSync('sync');

    const one = await counted(() => combee([...learnArgs(oneStore), '--batch', 'all']));
    log(`  run ${r + 1}/${runs}: one machine ${one.value.wall.toFixed(1)} s (${one.calls} calls)`);

    const mapStarted = process.hrtime.bigint();
    const map = await counted(() =>
      Promise.all(
        shardStores.map((store, i) =>
          combee([...learnArgs(store), '--shard', `${i + 1}/${shards}`, '--out', join(outRoot, `shard-${i + 1}`)]),
        ),
      ),
    );
    const mapWall = Number(process.hrtime.bigint() - mapStarted) / 1e9;
    const reduce = await counted(() => combee([...learnArgs(reduceStore), '--reduce', outRoot]));
    log(
      `  run ${r + 1}/${runs}: ${shards} shards ${mapWall.toFixed(1)} s (${map.calls} calls) + reduce ${reduce.value.wall.toFixed(1)} s (${reduce.calls} calls)`,
    );

    const oneJson = one.value.json;
    const reduceJson = reduce.value.json;
    const shardSessions = map.value.map((s) => s.json.sessions);
    const equal =
      oneJson.sessions === reduceJson.sessions && diffOf(oneJson) === diffOf(reduceJson) && oneJson.proposal !== null;
    learnRuns.push({
      one: {
        wall: one.value.wall,
        cpu: one.value.cpu,
        rss: one.value.rss,
        sessions: oneJson.sessions,
        calls: one.calls,
        maxInFlight: one.maxInFlight,
        rejected429: one.rejected429,
        runWallMs: oneJson.run?.totals.wallMs,
        outsideRunSeconds: one.value.wall - (oneJson.run?.totals.wallMs ?? 0) / 1000,
        reflections: oneJson.run?.totals.reflections,
        rulesProposed: oneJson.run?.totals.applied,
        failedSessions: oneJson.failedSessions.length,
      },
      map: {
        wall: mapWall,
        calls: map.calls,
        maxInFlight: map.maxInFlight,
        rejected429: map.rejected429,
        shards: map.value.map((s) => ({
          wall: s.wall,
          cpu: s.cpu,
          rss: s.rss,
          sessions: s.json.sessions,
          reflected: s.json.reflected,
          failed: s.json.failed.length,
        })),
      },
      reduce: {
        wall: reduce.value.wall,
        cpu: reduce.value.cpu,
        rss: reduce.value.rss,
        sessions: reduceJson.sessions,
        calls: reduce.calls,
        runWallMs: reduceJson.run?.totals.wallMs,
        outsideRunSeconds: reduce.value.wall - (reduceJson.run?.totals.wallMs ?? 0) / 1000,
        warnings: reduceJson.warningMessages,
      },
      shardSessions,
      shardedWall: mapWall + reduce.value.wall,
      speedup: one.value.wall / (mapWall + reduce.value.wall),
      proposalDiffEqual: equal,
    });
    if (!equal) {
      exitCode = 1;
      log(`  run ${r + 1}: the reduce's proposal differs from the one machine's`);
      writeFileSync(join(work, '..', `combee-team-bench-mismatch-${r}.json`), JSON.stringify({ oneJson, reduceJson }));
    }
    for (const dir of [oneStore, ...shardStores, reduceStore, outRoot]) rmSync(dir, { recursive: true, force: true });
  }
  const m = (f) => median(learnRuns.map(f));
  const first = learnRuns[0];
  results.learn = {
    sessions: first.one.sessions,
    shardSessions: first.shardSessions,
    oneMachine: {
      wall: m((r) => r.one.wall),
      cpu: m((r) => r.one.cpu),
      rss: Math.max(...learnRuns.map((r) => r.one.rss)),
      calls: first.one.calls,
      maxInFlight: first.one.maxInFlight,
      outsideRunSeconds: m((r) => r.one.outsideRunSeconds),
      reflections: first.one.reflections,
      rulesProposed: first.one.rulesProposed,
      failedSessions: first.one.failedSessions,
    },
    map: {
      wall: m((r) => r.map.wall),
      slowestShardCpu: m((r) => Math.max(...r.map.shards.map((s) => s.cpu))),
      cpu: m((r) => r.map.shards.reduce((n, s) => n + s.cpu, 0)),
      rss: Math.max(...learnRuns.flatMap((r) => r.map.shards.map((s) => s.rss))),
      calls: first.map.calls,
      maxInFlight: first.map.maxInFlight,
      rejected429: first.map.rejected429,
    },
    reduce: {
      wall: m((r) => r.reduce.wall),
      cpu: m((r) => r.reduce.cpu),
      rss: Math.max(...learnRuns.map((r) => r.reduce.rss)),
      calls: first.reduce.calls,
      outsideRunSeconds: m((r) => r.reduce.outsideRunSeconds),
      warnings: first.reduce.warnings,
    },
    shardedWall: m((r) => r.shardedWall),
    speedup: m((r) => r.speedup),
    proposalDiffEqualEveryRun: learnRuns.every((r) => r.proposalDiffEqual),
    // a CI runner imports the bundle before it learns (the import's median wall, measured alone above)
    endToEnd: {
      oneMachine: results.import.wall + m((r) => r.one.wall),
      sharded: results.import.wall + m((r) => r.map.wall) + results.import.wall + m((r) => r.reduce.wall),
    },
    runs: learnRuns,
  };
  results.learn.endToEnd.speedup = results.learn.endToEnd.oneMachine / results.learn.endToEnd.sharded;
}

// ---- report ----
const f = (x, d = 2) => (x === undefined || Number.isNaN(x) ? '–' : x.toFixed(d));
const c = results.corpus;
const e = results.export;
const i = results.import;
const L = results.learn;
const table = [
  `| step (${size} corpus: ${c.sessions} sessions, ${(c.storedTraceBytes / 1e6).toFixed(0)} MB stored; ${results.machine.cpus} CPUs, ${results.machine.node}; median of ${runs}) | sessions | wall s | CPU s | peak RSS MB | figures |`,
  '|---|--:|--:|--:|--:|---|',
  `| export --bundle (--all-workspaces) | ${e.sessions} | ${f(e.wall)} | ${f(e.cpu, 1)} | ${f(e.rss, 0)} | ${(e.bundleBytes / 1e6).toFixed(1)} MB bundle, ${(e.bytesPerSession / 1024).toFixed(1)} KiB/session, ${(e.ratioToStoredTraces * 100).toFixed(1)} % of the stored traces (${(e.decompressedBytes / 1e6).toFixed(0)} MB decompressed) |`,
  `| import --bundle into a fresh store | ${i.sessions} | ${f(i.wall)} | ${f(i.cpu, 1)} | ${f(i.rss, 0)} | ${f(i.sessionsPerSecond, 0)} sessions/s |`,
  `| import --bundle again (all duplicates) | ${results.reimport.duplicates} | ${f(results.reimport.wall)} | ${f(results.reimport.cpu, 1)} | ${f(results.reimport.rss, 0)} | ${f((results.reimport.wall / i.wall) * 100, 0)} % of the first import |`,
  ...(results.largeBundles ?? []).map(
    (b) =>
      `| import --bundle: ${b.name}${b.node.length ? ` (\`${b.node.join(' ')}\`)` : ''} | | ${f(b.wall)} | ${f(b.cpu, 1)} | ${f(b.rss, 0)} | ${(b.fileBytes / 1e3).toFixed(0)} KB file, ${(b.decompressedBytes / 1024 ** 2).toFixed(0)} MiB decompressed: ${b.outcome}${b.stagedBytesLeft ? `; ${b.stagedBytesLeft} bytes left staged` : ''} |`,
  ),
  ...(L ? learnRows(L) : []),
].join('\n');

function learnRows(L) {
  return [
    `| learn --batch all, one machine | ${L.sessions} | ${f(L.oneMachine.wall, 1)} | ${f(L.oneMachine.cpu, 1)} | ${f(L.oneMachine.rss, 0)} | ${L.oneMachine.calls} calls, ≤ ${L.oneMachine.maxInFlight} in flight; ${f(L.oneMachine.outsideRunSeconds, 1)} s outside the run |`,
    `| learn --shard i/${shards}, ${shards} processes in parallel | ${L.shardSessions.join(' + ')} | ${f(L.map.wall, 1)} | ${f(L.map.cpu, 1)} | ${f(L.map.rss, 0)} | ${L.map.calls} calls, ≤ ${L.map.maxInFlight} in flight; CPU s: all shards |`,
    `| learn --reduce | ${L.sessions} | ${f(L.reduce.wall, 1)} | ${f(L.reduce.cpu, 1)} | ${f(L.reduce.rss, 0)} | ${L.reduce.calls} calls; ${f(L.reduce.outsideRunSeconds, 1)} s outside the run |`,
    `| shards + reduce | ${L.sessions} | ${f(L.shardedWall, 1)} | | | **${f(L.speedup)}×** the one machine; proposal diff equal: ${L.proposalDiffEqualEveryRun ? 'yes' : '**no**'} |`,
    `| with each runner's bundle import (derived) | ${L.sessions} | ${f(L.endToEnd.sharded, 1)} | | | one machine ${f(L.endToEnd.oneMachine, 1)} s: ${f(L.endToEnd.speedup)}× |`,
  ];
}
results.loadAverageAfter = loadavg();
results.table = table;
const outFile = values.out ? resolve(values.out) : join(REPO, 'bench', 'results', 'team.json');
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`${table}\n\n`);
process.stdout.write(
  `${L ? `latency log-normal, median ${latency.medianMs} ms, σ ${latency.sigma}${cap ? `, concurrency cap ${cap}` : ''}; the ${L.sessions} newest sessions (ended at or after ${results.settings.since}); ` : ''}bundle bytes identical every run: ${e.sameBytesEveryRun}; planted secrets in the bundle: ${e.plantedSecretsInBundle ? 'FOUND' : 'none'}, in the imported store: ${i.plantedSecretsInStore}; import warnings: ${i.warnings}\n` +
    `load average before ${results.machine.loadAverageBefore.map((l) => l.toFixed(2)).join(' ')}, after ${results.loadAverageAfter.map((l) => l.toFixed(2)).join(' ')}\nwritten ${outFile}\n`,
);
if (L && !L.proposalDiffEqualEveryRun) log("FAIL: the reduce's proposal diff differs from the one machine's");
if (e.plantedSecretsInBundle || i.plantedSecretsInStore > 0) {
  log('FAIL: a planted secret reached the bundle or the imported store');
  exitCode = 1;
}
process.exitCode = exitCode;
