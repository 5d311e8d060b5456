import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VIEWS } from '../../../src/extension/viewIds';
import { REPO_ROOT } from '../../support/paths';

interface Manifest {
  contributes: {
    views: Record<string, Array<{ id: string }>>;
    viewsWelcome: Array<{ view: string }>;
    menus: Record<string, Array<{ when?: string }>>;
  };
}

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
const declared = Object.values(manifest.contributes.views).flatMap((views) => views.map((view) => view.id));
const created: string[] = Object.values(VIEWS);

/** The view ids a `when` clause compares with (`view == id`), in order. */
function viewsNamedIn(when: string): string[] {
  return [...when.matchAll(/\bview\s*==\s*([\w.-]+)/g)].map((match) => match[1] ?? '');
}

describe('views are declared once (src/extension/viewIds.ts) and the manifest agrees', () => {
  it('package.json contributes exactly the views the extension creates', () => {
    assert.deepEqual([...declared].sort(), [...created].sort());
    assert.equal(new Set(declared).size, declared.length, 'no view is contributed twice');
  });

  it('every menu clause and welcome entry names a declared view', () => {
    const inMenus = Object.values(manifest.contributes.menus).flatMap((entries) =>
      entries.flatMap((entry) => viewsNamedIn(entry.when ?? '')),
    );
    const inWelcome = manifest.contributes.viewsWelcome.map((entry) => entry.view);
    assert.ok(inMenus.length > 0 && inWelcome.length > 0, 'the manifest refers to views in menus and welcome entries');
    assert.deepEqual(
      [...inMenus, ...inWelcome].filter((id) => !created.includes(id)),
      [],
    );
  });

  it('the clause reader finds a misspelt view (it is not vacuous)', () => {
    assert.deepEqual(viewsNamedIn('view == combee.sesions && viewItem == combee.session'), ['combee.sesions']);
  });
});
