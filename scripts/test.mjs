// `npm test`: every test layer in order, then one summary. Later layers still run after a failure
// (more signal per run), except those that need code-server when its setup failed.
// Flags: --unit-only (typecheck + unit), --skip-e2e (everything but the UI end-to-end).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const flags = new Set(process.argv.slice(2));
const unknown = [...flags].filter((f) => !['--unit-only', '--skip-e2e'].includes(f));
if (unknown.length) {
  console.error(`scripts/test: unknown flag(s) ${unknown.join(' ')}; known: --unit-only --skip-e2e`);
  process.exit(64);
}

const layers = [
  { name: 'typecheck', cmd: ['npm', 'run', 'typecheck'] },
  { name: 'lint and format', cmd: ['npm', 'run', 'lint'] },
  { name: 'unit', cmd: ['npm', 'run', 'test:unit'] },
  { name: 'setup code-server', cmd: ['bash', 'test/setup/install-vscode.sh'], vscode: true },
  // the webview bundle in headless Chromium (installed by the setup), on a real run learned from the examples
  { name: 'webview (Chromium)', cmd: ['node', 'test/webview/run.mjs'], vscode: true, needsSetup: true },
  { name: 'extension host', cmd: ['node', 'test/extension/run.mjs'], vscode: true, needsSetup: true },
  {
    // every file sets up what it needs: the suite passes in either order
    name: 'extension host (files in reverse order)',
    cmd: ['node', 'test/extension/run.mjs'],
    env: { COMBEE_TEST_ORDER: 'reverse' },
    vscode: true,
    needsSetup: true,
  },
  {
    name: 'extension host (Restricted Mode)',
    cmd: ['node', 'test/extension/run.mjs', '--restricted'],
    vscode: true,
    needsSetup: true,
  },
  { name: 'e2e (UI)', cmd: ['node', 'test/e2e/run.mjs'], vscode: true, needsSetup: true, e2e: true },
];

/** @type {{ name: string; status: string; secs: number; failed?: boolean }[]} */
const results = [];
let setupFailed = false;
for (const layer of layers) {
  if ((layer.vscode && flags.has('--unit-only')) || (layer.e2e && flags.has('--skip-e2e'))) {
    results.push({ ...layer, status: 'skipped (flag)', secs: 0 });
    continue;
  }
  if (layer.needsSetup && setupFailed) {
    results.push({ ...layer, status: 'skipped (no code-server)', secs: 0, failed: true });
    continue;
  }
  const env = Object.entries(layer.env ?? {}).map(([key, value]) => `${key}=${value} `);
  console.log(`\n=== ${layer.name}: ${env.join('')}${layer.cmd.join(' ')}`);
  const t0 = Date.now();
  const run = spawnSync(layer.cmd[0], layer.cmd.slice(1), {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...layer.env },
  });
  const ok = run.status === 0;
  if (!ok && layer.name.startsWith('setup')) setupFailed = true;
  results.push({
    ...layer,
    status: ok ? 'pass' : `FAIL (${run.status ?? run.signal ?? run.error?.message})`,
    secs: (Date.now() - t0) / 1000,
    failed: !ok,
  });
}

const width = Math.max(...results.map((r) => r.name.length));
console.log('\n=== summary');
for (const r of results)
  console.log(`  ${r.name.padEnd(width)}  ${r.status.padEnd(26)} ${r.secs ? `${r.secs.toFixed(1)} s` : ''}`);
const total = results.reduce((sum, r) => sum + r.secs, 0);
const failed = results.filter((r) => r.failed);
console.log(
  `  ${'total'.padEnd(width)}  ${(failed.length ? `${failed.length} FAILED` : 'all passed').padEnd(26)} ${total.toFixed(1)} s`,
);
process.exit(failed.length ? 1 : 0);
