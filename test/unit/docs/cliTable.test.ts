import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../support/paths';

// The README's "Command line" table names every command the CLI dispatches, and no other.

/** The commands `src/cli/main.ts` dispatches (`case 'learn':`), without the version and help spellings. */
function dispatched(): string[] {
  const main = readFileSync(join(REPO_ROOT, 'src', 'cli', 'main.ts'), 'utf8');
  return [...main.matchAll(/case '([a-z]+)':/g)]
    .map((m) => m[1])
    .filter((name) => name !== 'version' && name !== 'help');
}

/** The commands the README's table names: each `combee <name>` in its first column, and each `/ <name>` after one. */
function tabled(): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Command line\n');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const names = new Set<string>();
  for (const row of section.matchAll(/^\| (`combee [^|]*) \|/gm)) {
    for (const m of row[1].matchAll(/`combee ([a-z]+)/g)) names.add(m[1]);
    // `combee retire` / `pin`: more commands; `combee cache stats` / `clear`: more subcommands of one
    if (/^`combee [a-z]+ [a-z]/.test(row[1])) continue;
    for (const m of row[1].matchAll(/\/ `?([a-z]+)`?/g)) names.add(m[1]);
  }
  return [...names];
}

describe("the README's command table", () => {
  it('names every command the CLI dispatches, and none it does not', () => {
    const cli = dispatched();
    const readme = tabled();
    assert.ok(cli.length >= 15, `${cli.length} commands found in src/cli/main.ts`);
    assert.deepEqual(
      { missing: cli.filter((c) => !readme.includes(c)), unknown: readme.filter((c) => !cli.includes(c)) },
      { missing: [], unknown: [] },
    );
  });
});
