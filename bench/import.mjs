#!/usr/bin/env node
// Import benchmark: the built CLI (`node dist/cli.js import --json`) in a child process on the generated corpus —
// cold import, re-import with nothing new, re-import after appending ~1 % — and, on the corpus' Claude Code part,
// ccusage 18 (JavaScript) and ccusage 20 (native binary), installed into a cache folder outside the repository.
// Usage: node bench/import.mjs [--size small|full|short|mixed|many] [--workers n] [--runs n] [--no-ccusage] [--no-build] [--cli <path>]
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { cpus, homedir, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { appendTurns, rngFrom, SECRET_MARKER } from './corpus.mjs';
import { corpusDir, generate } from './generate-corpus.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = process.env.COMBEE_BENCH_DIR
  ? resolve(process.env.COMBEE_BENCH_DIR)
  : join(homedir(), '.cache', 'combee-bench');
const CCUSAGE = { 18: '18.0.11', 20: '20.0.24' };

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: 'small' },
    workers: { type: 'string' },
    runs: { type: 'string', default: '1' },
    'no-ccusage': { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    cli: { type: 'string' },
    out: { type: 'string' },
  },
});
const size = values.size;
const runs = Math.max(1, Number(values.runs));
const log = (m) => process.stderr.write(`${m}\n`);

// ---- corpus ----
const root = corpusDir(size, join(CACHE, 'corpus'));
const manifest = generate(size, root, log);
restoreAppended(manifest);
const claudeDir = join(root, '.claude');
const claudeBytes = manifest.claudeBytes;

// ---- CLI ----
if (!values['no-build'] && !values.cli) {
  log('building dist/ …');
  const built = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('build failed');
}
const cli = values.cli ? resolve(values.cli) : join(REPO, 'dist', 'cli.js');
const workerArgs = values.workers !== undefined ? ['--workers', values.workers] : [];
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
if (!TIME) log('note: /usr/bin/time not found (apt-get install time); peak RSS is polled from /proc/<pid>/status');

/** Runs a command, returns wall seconds, peak RSS (MB) and stdout. */
async function measure(command, args, env = {}) {
  const full = TIME ? [TIME, ['-v', command, ...args]] : [command, args];
  const started = process.hrtime.bigint();
  const child = spawn(full[0], full[1], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}\n${stderr.slice(-2000)}`);
  const rss = TIME ? Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? 0) / 1024 : polled;
  // CPU seconds (user + system, all threads): what the run costs whatever else the machine is doing
  const cpu = TIME
    ? Number(/User time \(seconds\): ([\d.]+)/.exec(stderr)?.[1] ?? NaN) +
      Number(/System time \(seconds\): ([\d.]+)/.exec(stderr)?.[1] ?? NaN)
    : undefined;
  return { wall, rss, cpu, stdout: Buffer.concat(out).toString() };
}

/** The fastest of `runs` runs (other load on the machine only slows a run down), with the highest peak RSS of all. */
async function best(label, fn) {
  let result;
  let rss = 0;
  for (let i = 0; i < runs; i++) {
    // the previous run's stored traces are written back now, not during this run
    spawnSync('sync');
    const r = await fn();
    rss = Math.max(rss, r.rss);
    if (!result || r.wall < result.wall) result = r;
  }
  result = { ...result, rss };
  log(
    `  ${label}: ${result.wall.toFixed(2)} s (${result.cpu?.toFixed(1) ?? '?'} s CPU), ${result.rss.toFixed(0)} MB peak RSS`,
  );
  return result;
}

const combee = (from, store) =>
  measure(process.execPath, [cli, 'import', '--from', from, '--store', store, '--json', ...workerArgs]);

// Warm the page cache so the first measured tool is not the one paying for the disk.
log('warming the page cache …');
for (const file of manifest.files) readFileSync(join(root, file.path));

const work = mkdtempSync(join(tmpdir(), 'combee-bench-'));
const rows = [];
const results = {
  size,
  machine: machine(),
  corpus: {
    path: root,
    bytes: manifest.totalBytes,
    files: manifest.files.length,
    claudeBytes,
    claudeFiles: manifest.claudeFiles,
    largestFile: manifest.largestFile,
    secretsPlanted: manifest.secretsPlanted,
  },
  runs: {},
};
/** `bytes`: what the run read; MB/s only for full reads (a re-import's time is mostly fixed costs). */
const row = (name, files, bytes, r, extra = {}, throughput = true) => {
  const mbps = throughput ? bytes / 1e6 / r.wall : undefined;
  rows.push({ name, files, bytes, wall: r.wall, cpu: r.cpu, mbps, rss: r.rss });
  results.runs[name] = { files, bytes, wall: r.wall, cpuSeconds: r.cpu, mbPerS: mbps, peakRssMb: r.rss, ...extra };
};

try {
  log(`combee import (${cli}) on ${(manifest.totalBytes / 1e6).toFixed(0)} MB, ${manifest.files.length} files`);
  let store;
  const cold = await best('cold import', async () => {
    store = join(work, `store-${Math.random().toString(36).slice(2)}`);
    return combee(root, store);
  });
  const coldSummary = JSON.parse(cold.stdout);
  const leaked = countMarker(store);
  row('combee: cold import', coldSummary.files, coldSummary.bytes, cold, {
    sessions: coldSummary.sessions,
    steps: coldSummary.steps,
    redactions: coldSummary.redactions,
    warnings: coldSummary.warnings,
    secretsLeaked: leaked,
  });

  const again = await best('re-import, nothing new', () => combee(root, store));
  const againSummary = JSON.parse(again.stdout);
  row(
    'combee: re-import, nothing new',
    againSummary.files - againSummary.unchangedFiles,
    againSummary.bytesRead,
    again,
    { unchangedFiles: againSummary.unchangedFiles, bytesRead: againSummary.bytesRead },
    false,
  );

  const appended = appendOnePercent(manifest);
  log(`  appended ${(appended.bytes / 1e6).toFixed(1)} MB to ${appended.files} files`);
  let grown;
  try {
    grown = await best('re-import after +1 %', async () => {
      if (runs === 1) return combee(root, store);
      // every run starts from the store as it was before the append
      const copy = join(work, `store-${Math.random().toString(36).slice(2)}`);
      spawnSync('cp', ['-r', store, copy]);
      return combee(root, copy);
    });
  } finally {
    restoreAppended(manifest);
  }
  const grownSummary = JSON.parse(grown.stdout);
  row(
    'combee: re-import after +1 % appended',
    grownSummary.files - grownSummary.unchangedFiles,
    grownSummary.bytesRead,
    grown,
    {
      appendedBytes: appended.bytes,
      appendedFiles: appended.files,
      resumedFiles: grownSummary.resumedFiles,
      bytesRead: grownSummary.bytesRead,
    },
    false,
  );

  const claudeOnly = await best('cold import, Claude Code part', () =>
    combee(claudeDir, join(work, `store-${Math.random().toString(36).slice(2)}`)),
  );
  const claudeSummary = JSON.parse(claudeOnly.stdout);
  row('combee: cold import, Claude Code part', claudeSummary.files, claudeSummary.bytes, claudeOnly, {
    sessions: claudeSummary.sessions,
  });

  if (!values['no-ccusage']) {
    const home = mkdtempSync(join(work, 'home-'));
    // an empty home: ccusage sees only the corpus, through CLAUDE_CONFIG_DIR
    const env = {
      CLAUDE_CONFIG_DIR: claudeDir,
      HOME: home,
      CODEX_HOME: join(home, '.codex'),
      XDG_CONFIG_HOME: join(home, '.config'),
    };
    for (const major of [18, 20]) {
      const bin = ccusage(major);
      const args = major === 18 ? [bin, 'daily', '--json', '--offline'] : ['daily', '--json', '--offline'];
      const r = await best(`ccusage ${CCUSAGE[major]}`, () =>
        major === 18 ? measure(process.execPath, args, env) : measure(bin, args, env),
      );
      const days = JSON.parse(r.stdout).daily?.length ?? 0;
      row(
        `ccusage ${CCUSAGE[major]} daily --offline (${major === 18 ? 'JavaScript' : 'native'}), Claude Code part`,
        manifest.claudeFiles,
        claudeBytes,
        r,
        { days },
      );
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const table = [
  `| run (${size} corpus: ${(manifest.totalBytes / 1e6).toFixed(0)} MB, ${manifest.files.length} files; ${results.machine.cpus} CPUs, ${results.machine.node}) | files read | MB read | wall s | CPU s | MB/s | peak RSS MB |`,
  '|---|--:|--:|--:|--:|--:|--:|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.files} | ${(r.bytes / 1e6).toFixed(1)} | ${r.wall.toFixed(2)} | ${r.cpu !== undefined ? r.cpu.toFixed(1) : '–'} | ${r.mbps !== undefined ? r.mbps.toFixed(0) : '–'} | ${r.rss.toFixed(0)} |`,
  ),
].join('\n');
const get = (name) => results.runs[name];
const c = get('combee: cold import, Claude Code part');
const grownRun = get('combee: re-import after +1 % appended');
const c18 = Object.entries(results.runs).find(([k]) => k.startsWith('ccusage 18'))?.[1];
const c20 = Object.entries(results.runs).find(([k]) => k.startsWith('ccusage 20'))?.[1];
results.targets = {
  coldMbPerS: { value: get('combee: cold import').mbPerS, target: 100 },
  vsCcusage18: c18 ? { value: c.mbPerS / c18.mbPerS, target: 6 } : undefined,
  vsCcusage20: c20 ? { value: c.wall / c20.wall, target: '≤ 10× its wall time' } : undefined,
  noChangeSeconds: { value: get('combee: re-import, nothing new').wall, target: 1 },
  appendedReadOnlyNewBytes: grownRun.bytesRead === grownRun.appendedBytes,
  peakRssMb: {
    value: Math.max(
      ...Object.entries(results.runs)
        .filter(([k]) => k.startsWith('combee'))
        .map(([, v]) => v.peakRssMb),
    ),
    target: 300,
  },
  secretsLeaked: get('combee: cold import').secretsLeaked,
};
results.loadAverageAfter = loadavg();
results.table = table;
const outFile = values.out
  ? resolve(values.out)
  : join(REPO, 'bench', 'results', size === 'full' ? 'import.json' : `import-${size}.json`);
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`${table}\n\n`);
const t = results.targets;
process.stdout.write(
  `cold ${t.coldMbPerS.value.toFixed(0)} MB/s (target ≥ 100)` +
    (t.vsCcusage18 ? `; ${t.vsCcusage18.value.toFixed(1)}× ccusage 18 (target ≥ 6×)` : '') +
    (t.vsCcusage20 ? `; ${t.vsCcusage20.value.toFixed(1)}× ccusage 20's wall time (target ≤ 10×)` : '') +
    `; no-change re-import ${t.noChangeSeconds.value.toFixed(2)} s (target < 1 s); +1 % re-import read ${t.appendedReadOnlyNewBytes ? 'only the appended bytes' : `${(grownRun.bytesRead / 1e6).toFixed(1)} MB for ${(grownRun.appendedBytes / 1e6).toFixed(1)} MB appended (readers without resume read whole files)`}; peak RSS ${t.peakRssMb.value.toFixed(0)} MB (target < 300); planted secrets found in the store: ${t.secretsLeaked}\n` +
    `load average before ${results.machine.loadAverageBefore.map((l) => l.toFixed(2)).join(' ')}, after ${results.loadAverageAfter.map((l) => l.toFixed(2)).join(' ')}\nwritten ${outFile}\n`,
);

// ---- helpers ----

function machine() {
  const cpu = cpus();
  return {
    cpus: cpu.length,
    model: cpu[0]?.model,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    loadAverageBefore: loadavg(),
  };
}

/** ~1 % of the corpus bytes appended as new turns, to 1 % of the files (the largest session among them). */
function appendOnePercent(m) {
  const rng = rngFrom(`append-${m.size}`);
  const candidates = m.files.filter((f) => !f.subagent);
  const count = Math.max(1, Math.round(m.files.length / 100));
  const chosen = [candidates.reduce((a, b) => (b.bytes > a.bytes ? b : a))];
  while (chosen.length < count) {
    const f = rng.pick(candidates);
    if (!chosen.includes(f)) chosen.push(f);
  }
  const total = m.totalBytes / 100;
  const weight = chosen.reduce((n, f) => n + Math.sqrt(f.bytes), 0);
  let bytes = 0;
  for (const f of chosen)
    bytes += appendTurns(root, f, Math.max(2000, Math.round((total * Math.sqrt(f.bytes)) / weight)), 1).bytes;
  return { files: chosen.length, bytes };
}

/** Files longer than the manifest says (an append run) are cut back to their generated size. */
function restoreAppended(m) {
  let restored = 0;
  for (const f of m.files) {
    const path = join(root, f.path);
    if (statSync(path).size > f.bytes) {
      truncateSync(path, f.bytes);
      restored++;
    }
  }
  if (restored) log(`restored ${restored} appended file(s) to their generated size`);
}

/** Planted secrets that made it into the store (must be 0). */
function countMarker(dir) {
  let hits = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (readFileSync(p, 'latin1').includes(SECRET_MARKER)) hits++;
    }
  };
  walk(dir);
  return hits;
}

/** ccusage installed under the bench cache (never a project dependency); the native binary for 20. */
function ccusage(major) {
  const prefix = join(CACHE, `ccusage-${major}`);
  const pkg = join(prefix, 'node_modules', 'ccusage');
  if (!existsSync(pkg)) {
    log(`installing ccusage@${CCUSAGE[major]} into ${prefix} …`);
    const r = spawnSync(
      'npm',
      ['install', '--prefix', prefix, '--no-audit', '--no-fund', `ccusage@${CCUSAGE[major]}`],
      { stdio: 'inherit' },
    );
    if (r.status !== 0) throw new Error(`npm install ccusage@${CCUSAGE[major]} failed`);
  }
  if (major === 18) return join(pkg, JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).bin.ccusage);
  // 20 ships its binary in a per-platform optional package; its bin script only spawns it
  const native = join(
    prefix,
    'node_modules',
    '@ccusage',
    `ccusage-${process.platform}-${process.arch}`,
    'bin',
    process.platform === 'win32' ? 'ccusage.exe' : 'ccusage',
  );
  if (!existsSync(native))
    throw new Error(`ccusage ${CCUSAGE[major]}: no native binary for ${process.platform}-${process.arch} at ${native}`);
  chmodSync(native, 0o755);
  return native;
}
