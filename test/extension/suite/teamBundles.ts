// Team bundles as a teammate makes them: sessions recorded in their own checkout, imported and exported by the CLI
// (`combee import`, `combee export --bundle`) from the extension's own dist/cli.js.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import * as vscode from 'vscode';
import { ClaudeSession } from './sessions';

function cli(args: string[]): string {
  const extension = vscode.extensions.getExtension('combee.combee');
  if (!extension) throw new Error('the combee.combee extension is not installed');
  // in desktop VS Code the host's executable is Electron: run it as Node
  return execFileSync(process.execPath, [join(extension.extensionPath, 'dist', 'cli.js'), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
}

/**
 * Writes `dev`'s bundle of one session per task to `out`, made on their machine (a checkout elsewhere) and exported
 * under `author` (their name unless given); returns the session ids as the store names them.
 */
export function writeTeamBundle(out: string, dev: string, sessionIds: string[], author = dev): string[] {
  const machine = mkdtempSync(join(tmpdir(), `combee-${dev}-`));
  const checkout = join(machine, 'src', 'acme-shop');
  mkdirSync(checkout, { recursive: true });
  const home = join(machine, '.claude');
  const ids = sessionIds.map((id, i) =>
    new ClaudeSession(id, checkout).user(`${dev}: what does the cart module export? (question ${i + 1})`).write(home),
  );
  const store = join(machine, 'store');
  cli(['import', '--from', home, '--store', store]);
  cli(['export', '--bundle', out, '--workspace', checkout, '--store', store, '--author', author]);
  return ids;
}

/** A copy of a bundle with its sessions' text changed after it was written (its checksum no longer matches). */
export function writeTamperedCopy(from: string, to: string, find: string, replace: string): void {
  const text = gunzipSync(readFileSync(from)).toString('utf8');
  if (!text.includes(find)) throw new Error(`${find} is not in ${from}`);
  writeFileSync(to, gzipSync(text.replaceAll(find, replace)));
}
