import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { ESLint } from 'eslint';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { REPO_ROOT } from '../../support/paths';

/**
 * Which folders of src/core each folder may import, bottom up: a folder sees only those below it, so there is no
 * loop between folders. The table is scripts/core-layers.json, which lint reads too (scripts/layerZones.mjs); moving a
 * file or adding an import that breaks it is a design change: change the table, and docs/architecture.md's with it.
 */
const ALLOWED: Record<string, string[]> = JSON.parse(
  readFileSync(join(REPO_ROOT, 'scripts', 'core-layers.json'), 'utf8'),
);

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

  it('docs/architecture.md shows the same table', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'architecture.md'), 'utf8');
    const table = doc.slice(doc.indexOf('| folder | may import |'));
    const shown: Record<string, string[]> = {};
    for (const row of table.split('\n').slice(2)) {
      if (!row.startsWith('|')) break;
      const [folders, imports] = row
        .split('|')
        .slice(1, 3)
        .map((cell) => cell.trim());
      const list = imports === 'no other folder' ? [] : imports.split(', ');
      for (const folder of folders.split(', ')) shown[folder.replace(/`/g, '')] = list;
    }
    assert.deepEqual(shown, ALLOWED);
  });

  it('lint fails an import across the layers as it is typed', async function () {
    this.timeout(120_000);
    const eslint = new ESLint({ cwd: REPO_ROOT });
    const source = [
      "import { learnWorkspace } from '../service/learnWorkspace';",
      "import { bullets } from '../playbook/model';",
      "import * as vscode from 'vscode';",
      'export const used = [learnWorkspace, bullets, vscode];',
      '',
    ].join('\n');
    const [result] = await eslint.lintText(source, { filePath: join(CORE, 'learn', 'run.ts') });
    const layerErrors = result.messages
      .filter((m) => m.ruleId === 'import-x/no-restricted-paths' || m.ruleId === 'no-restricted-imports')
      .map((m) => `${m.line}: ${m.ruleId}`);
    assert.deepEqual(layerErrors, ['1: import-x/no-restricted-paths', '3: no-restricted-imports']);
  });
});
