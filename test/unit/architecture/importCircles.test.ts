import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { REPO_ROOT } from '../../support/paths';

// No two files of src/ import each other, directly or round a longer circle, type-only imports included: a circle
// hides which file comes first, and the folder table (folders.test.ts) cannot see one inside a folder.

const SRC = join(REPO_ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

const SPECIFIERS = /(?:import|export)[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The files of src/ one file imports (relative imports resolved to their .ts file or folder index). */
function importsOf(file: string, source: string): string[] {
  return [...source.matchAll(SPECIFIERS)].flatMap((m) => {
    const base = resolve(dirname(file), m[1] ?? m[2]);
    const found = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((c) => existsSync(c));
    return found ? [found] : [];
  });
}

/** The graph's circles: its strongly connected components of more than one file, or a file importing itself. */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const to of graph.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) circles.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return circles;
}

describe('no import circle between the files of src/', () => {
  it('finds none', () => {
    const graph = new Map(sourceFiles(SRC).map((f) => [f, importsOf(f, readFileSync(f, 'utf8'))]));
    assert.deepEqual(
      importCircles(graph).map((c) => c.map((f) => relative(REPO_ROOT, f)).join(' ↔ ')),
      [],
    );
  });

  it('sees a circle of type-only imports, a longer one and a file importing itself (it is not vacuous)', () => {
    const file = join(SRC, 'core', 'learn', 'a.ts');
    const typeOnly = importsOf(file, "import type { B } from '../learn/types';");
    assert.deepEqual(typeOnly, [join(SRC, 'core', 'learn', 'types.ts')]);
    const graph = new Map([
      ['a', ['b']],
      ['b', ['a']],
      ['c', ['d']],
      ['d', ['e']],
      ['e', ['c']],
      ['f', ['f']],
      ['g', ['a']],
    ]);
    assert.deepEqual(importCircles(graph), [['a', 'b'], ['c', 'd', 'e'], ['f']]);
  });
});
