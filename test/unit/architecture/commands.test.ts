import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../../../src/extension/commandIds';
import { REPO_ROOT } from '../../support/paths';

interface Manifest {
  contributes: {
    commands: Array<{ command: string }>;
    menus: Record<string, Array<{ command?: string }>>;
  };
}

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
const declared = manifest.contributes.commands.map((c) => c.command);
const registered: string[] = Object.values(COMMANDS);

/** Ids in one list and not the other, each way (what the manifest shows but nothing runs, and the reverse). */
function mismatch(manifestIds: readonly string[], registeredIds: readonly string[]) {
  return {
    declaredNotRegistered: manifestIds.filter((id) => !registeredIds.includes(id)),
    registeredNotDeclared: registeredIds.filter((id) => !manifestIds.includes(id)),
  };
}

describe('commands are declared once (src/extension/commandIds.ts) and the manifest agrees', () => {
  it('every command package.json contributes is registered, and every registered one is contributed', () => {
    assert.deepEqual(mismatch(declared, registered), { declaredNotRegistered: [], registeredNotDeclared: [] });
  });

  it('no id is declared twice, in the manifest or in the table', () => {
    assert.equal(new Set(declared).size, declared.length);
    assert.equal(new Set(registered).size, registered.length);
  });

  it('every menu entry runs a declared command', () => {
    const inMenus = Object.values(manifest.contributes.menus).flatMap((entries) =>
      entries.flatMap((entry) => (entry.command ? [entry.command] : [])),
    );
    assert.ok(inMenus.length > 0, 'the manifest has menu entries');
    assert.deepEqual(
      inMenus.filter((id) => !declared.includes(id)),
      [],
    );
  });

  it('the comparison sees a command missing on either side (it is not vacuous)', () => {
    assert.deepEqual(mismatch(['combee.learn', 'combee.gone'], ['combee.learn', 'combee.extra']), {
      declaredNotRegistered: ['combee.gone'],
      registeredNotDeclared: ['combee.extra'],
    });
  });
});
