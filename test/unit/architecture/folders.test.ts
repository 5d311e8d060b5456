import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { REPO_ROOT } from '../../support/paths';

/**
 * Which folders of src/core each folder may import, bottom up: a folder sees only those below it, so there is no
 * loop between folders. Moving a file or adding an import that breaks this is a design change: change the table,
 * and the README's architecture section with it.
 */
const ALLOWED: Record<string, string[]> = {
  secrets: [],
  playbook: [],
  util: ['secrets'],
  trace: ['secrets', 'util'],
  trust: ['playbook', 'trace'],
  learn: ['playbook', 'secrets', 'trace', 'util'],
  assets: ['learn', 'playbook', 'trace', 'trust', 'util'],
  // what Combee keeps: trace packs and their summaries, the import index and resume state, and per workspace the
  // learned sessions, runs, proposals and review memory
  store: ['assets', 'learn', 'playbook', 'trace', 'util'],
  import: ['secrets', 'store', 'trace', 'util'],
  llm: ['learn', 'playbook', 'secrets', 'trace', 'util'],
  // pooled sessions: team bundles, corroboration, the pull request's text
  team: ['assets', 'playbook', 'secrets', 'store', 'trace', 'trust', 'util'],
  // the backtest: learns from the earlier sessions and replays the rules over the later ones
  eval: ['assets', 'learn', 'llm', 'playbook', 'store', 'trace', 'trust', 'util'],
  service: ['assets', 'import', 'learn', 'llm', 'playbook', 'secrets', 'store', 'team', 'trace', 'trust', 'util'],
  pool: ['assets', 'eval', 'import', 'learn', 'llm', 'service', 'store', 'team', 'trace', 'util'],
};

const CORE = join(REPO_ROOT, 'src', 'core');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? files(full) : name.endsWith('.ts') ? [full] : [];
  });
}

const relativeImports = (source: string) =>
  [...source.matchAll(/(?:import|export)[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)].map(
    (m) => m[1] ?? m[2],
  );
const folderOf = (path: string) => relative(CORE, path).split(sep)[0];

describe('src/core folders import only the folders below them', () => {
  it('every folder is in the table', () => {
    const folders = readdirSync(CORE).filter((name) => statSync(join(CORE, name)).isDirectory());
    assert.deepEqual(folders.sort(), Object.keys(ALLOWED).sort());
  });

  it('the table has no loop', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (folder: string, path: string[]) => {
      if (done.has(folder)) return;
      assert.ok(!visiting.has(folder), `loop: ${[...path, folder].join(' → ')}`);
      visiting.add(folder);
      for (const next of ALLOWED[folder]) visit(next, [...path, folder]);
      visiting.delete(folder);
      done.add(folder);
    };
    for (const folder of Object.keys(ALLOWED)) visit(folder, []);
  });

  it('every import between folders is one the table allows', () => {
    const offenders: string[] = [];
    for (const file of files(CORE)) {
      const from = folderOf(file);
      for (const spec of relativeImports(readFileSync(file, 'utf8'))) {
        const target = resolve(dirname(file), spec);
        const to = folderOf(target);
        if (to.startsWith('..')) continue;
        if (to !== from && !ALLOWED[from]?.includes(to))
          offenders.push(
            `${relative(REPO_ROOT, file)} → ${spec} (${from} may import ${ALLOWED[from]?.join(', ') || 'nothing'})`,
          );
      }
    }
    assert.deepEqual(offenders, []);
  });
});
