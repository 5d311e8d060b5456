// `npm run demo`: learn from the example sessions that ship with the project, with the offline provider (no key,
// nothing leaves the machine), and print the proposed playbook diff and a summary. Writes only under .combee-demo/.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const demo = join(root, '.combee-demo');
const store = join(demo, 'store');
const workspace = join(demo, 'acme-shop');
rmSync(demo, { recursive: true, force: true });
mkdirSync(workspace, { recursive: true });

const cli = (...args) => {
  const result = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), ...args], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

console.log('\n== combee import: the example Claude Code and Codex sessions (examples/sessions) ==');
for (const agentHome of ['claude-code', 'codex'])
  cli('import', '--from', join(root, 'examples', 'sessions', agentHome), '--store', store);

// The examples were recorded in /home/dev/acme-shop, not here: --all-workspaces learns from them anyway.
console.log('\n== combee learn --provider offline --dry-run: the proposed playbook ==');
cli(
  'learn',
  '--store',
  store,
  '--workspace',
  workspace,
  '--provider',
  'offline',
  '--all-workspaces',
  '--window-days',
  '0',
  '--seed',
  '7',
  '--dry-run',
  // the example sessions only: not the memories this machine's agents keep, so every machine shows the same demo
  '--no-memories',
);
console.log(`\nNothing was written to any workspace. The demo store is ${store}.`);
