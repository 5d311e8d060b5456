// Two or more builds' cold imports compared on one corpus, runs interleaved (a, b, a, b, …) so that this VM's drift
// hits them alike; with --instructions, each build's instructions under cachegrind (one worker; deterministic).
//   node bench/import-ab.mjs --corpus <folder> [--runs 8] [--instructions] [--out results.json] <dist> <dist> …
// A <dist> is a build's dist folder (e.g. of `git worktree add /tmp/before <rev> && node esbuild.mjs` there).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : args.splice(i, 2)[1];
};
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 && args.splice(i, 1).length > 0;
};
const corpus = option('--corpus');
const runs = Number(option('--runs', '8'));
const out = option('--out');
const instructions = flag('--instructions');
const dists = args;
if (!corpus || dists.length < 2) {
  console.error(
    'usage: node bench/import-ab.mjs --corpus <folder> [--runs 8] [--instructions] [--out f] <dist> <dist>…',
  );
  process.exit(2);
}

/** One cold import into a fresh store: user + system CPU seconds and wall seconds. */
function importOnce(dist, prefix = []) {
  const store = mkdtempSync(join(tmpdir(), 'combee-ab-'));
  try {
    const started = process.hrtime.bigint();
    const run = spawnSync(
      prefix.length ? prefix[0] : '/usr/bin/time',
      [
        ...(prefix.length ? prefix.slice(1) : ['-f', '%U %S']),
        process.execPath,
        join(dist, 'cli.js'),
        'import',
        '--from',
        corpus,
        '--store',
        store,
        '--json',
        ...(prefix.length ? ['--workers', '1'] : []),
      ],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    if (run.status !== 0) throw new Error(`${dist}: import failed\n${run.stderr.slice(-2000)}`);
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    return { wall, stderr: run.stderr };
  } finally {
    rmSync(store, { recursive: true, force: true });
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** @type {Record<string, { cpu: number[]; wall: number[]; instructions?: number }>} */
const results = Object.fromEntries(dists.map((d) => [d, { cpu: [], wall: [] }]));
for (let r = 0; r < runs; r++)
  for (const dist of dists) {
    const { wall, stderr } = importOnce(dist);
    const [user, system] = /** @type {string} */ (stderr.trim().split('\n').at(-1)).split(' ').map(Number);
    results[dist].cpu.push(user + system);
    results[dist].wall.push(wall);
    process.stderr.write(
      `run ${r + 1}/${runs} ${dist}: ${(user + system).toFixed(2)} s CPU, ${wall.toFixed(2)} s wall\n`,
    );
  }
if (instructions)
  for (const dist of dists) {
    const { stderr } = importOnce(dist, [
      'valgrind',
      '--tool=cachegrind',
      '--cache-sim=no',
      '--cachegrind-out-file=/dev/null',
      '--smc-check=all-non-file',
    ]);
    const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr)?.[1];
    results[dist].instructions = refs ? Number(refs.replaceAll(',', '')) : undefined;
  }
const summary = Object.fromEntries(
  Object.entries(results).map(([dist, r]) => [
    dist,
    {
      cpuBest: Math.min(...r.cpu),
      cpuMedian: median(r.cpu),
      wallBest: Math.min(...r.wall),
      wallMedian: median(r.wall),
      instructions: r.instructions,
      cpu: r.cpu,
      wall: r.wall,
    },
  ]),
);
for (const [dist, s] of Object.entries(summary))
  console.log(
    `${dist}: CPU best ${s.cpuBest.toFixed(2)} s, median ${s.cpuMedian.toFixed(2)} s; wall best ${s.wallBest.toFixed(2)} s${s.instructions ? `; ${(s.instructions / 1e9).toFixed(2)} G instructions` : ''}`,
  );
if (out) writeFileSync(out, `${JSON.stringify({ corpus, runs, builds: summary }, null, 2)}\n`);
