import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { REPO_ROOT } from '../../support/paths';

/**
 * Which folders of src/core each folder may import, bottom up: a folder sees only those below it, so there is no
 * loop between folders. Moving a file or adding an import that breaks this is a design change: change the table,
 * and docs/architecture.md's folder table with it.
 */
const ALLOWED: Record<string, string[]> = {
  secrets: [],
  playbook: [],
  util: ['secrets'],
  trace: ['secrets', 'util'],
  trust: ['playbook', 'trace'],
  // how each agent loads context by itself: files, imports, skills, hooks (docs/agents.md)
  agents: ['trace'],
  learn: ['agents', 'playbook', 'secrets', 'trace', 'trust', 'util'],
  assets: ['agents', 'learn', 'playbook', 'trace', 'trust', 'util'],
  // what Combee keeps: trace packs and their summaries, the import index and resume state, and per workspace the
  // learned sessions, runs, proposals and review memory
  store: ['assets', 'learn', 'playbook', 'trace', 'util'],
  import: ['secrets', 'store', 'trace', 'util'],
  llm: ['learn', 'playbook', 'secrets', 'trace', 'trust', 'util'],
  // pooled sessions: team bundles, corroboration, the pull request's text
  team: ['assets', 'playbook', 'secrets', 'store', 'trace', 'trust', 'util'],
  // the backtest: learns from the earlier sessions and replays the rules over the later ones
  eval: ['assets', 'learn', 'llm', 'playbook', 'store', 'trace', 'trust', 'util'],
  // the agents' own memory files, read as candidate rules and judged by the rules' evidence reading
  memories: ['learn', 'playbook', 'trace', 'trust', 'util'],
  service: [
    'agents',
    'assets',
    'import',
    'learn',
    'llm',
    'memories',
    'playbook',
    'secrets',
    'store',
    'team',
    'trace',
    'trust',
    'util',
  ],
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

/** The imports of one core file that the table does not allow, or that leave src/core (core imports no other layer). */
function offendingImports(file: string, source: string): string[] {
  const from = folderOf(file);
  const offenders: string[] = [];
  for (const spec of relativeImports(source)) {
    const to = folderOf(resolve(dirname(file), spec));
    const where = `${relative(REPO_ROOT, file)} → ${spec}`;
    if (to.startsWith('..')) offenders.push(`${where} (leaves src/core)`);
    else if (to !== from && !ALLOWED[from]?.includes(to))
      offenders.push(`${where} (${from} may import ${ALLOWED[from]?.join(', ') || 'nothing'})`);
  }
  return offenders;
}

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

  it('every import between folders is one the table allows, and none leaves src/core', () => {
    const offenders = files(CORE).flatMap((file) => offendingImports(file, readFileSync(file, 'utf8')));
    assert.deepEqual(offenders, []);
  });

  it('the check sees an import that leaves src/core and one the table forbids (it is not vacuous)', () => {
    const file = join(CORE, 'learn', 'run.ts');
    const source = [
      "import { layoutRun } from '../../shared/layout';",
      "import type { Settings } from '../../shared/settingsSchema';",
      "import { learnWorkspace } from '../service/learnWorkspace';",
      "import { seedOf } from './seed';",
      "import { bullets } from '../playbook/model';",
    ].join('\n');
    assert.deepEqual(offendingImports(file, source), [
      'src/core/learn/run.ts → ../../shared/layout (leaves src/core)',
      'src/core/learn/run.ts → ../../shared/settingsSchema (leaves src/core)',
      'src/core/learn/run.ts → ../service/learnWorkspace (learn may import agents, playbook, secrets, trace, trust, util)',
    ]);
  });
});
