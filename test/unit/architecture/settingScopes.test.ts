import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS, USER_ONLY_SETTINGS, WORKSPACE_SETTINGS } from '../../../src/shared/settingIds';
import { REPO_ROOT } from '../../support/paths';

interface Manifest {
  capabilities?: {
    untrustedWorkspaces?: { supported: string | boolean; description?: string; restrictedConfigurations?: string[] };
  };
  contributes: { configuration: { properties: Record<string, { scope?: string }> } };
}

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
const properties = manifest.contributes.configuration.properties;

describe('setting scopes in the manifest', () => {
  it('every declared setting is read through the table, and every table entry is declared', () => {
    const declared = Object.keys(properties).sort();
    const read = Object.values(SETTINGS)
      .map((s) => `combee.${s.id}`)
      .sort();
    assert.deepEqual(declared, read);
  });

  it('what decides where data goes, what is read, what runs or what it costs is application or machine scoped', () => {
    for (const id of USER_ONLY_SETTINGS)
      assert.ok(
        ['application', 'machine'].includes(properties[id].scope ?? 'window'),
        `${id} is ${properties[id].scope ?? 'window'}-scoped`,
      );
    for (const id of WORKSPACE_SETTINGS) assert.equal(properties[id].scope, 'resource', id);
  });

  it('declares limited support for untrusted workspaces, ignoring every repository-chosen Combee setting there', () => {
    const untrusted = manifest.capabilities?.untrustedWorkspaces;
    assert.equal(untrusted?.supported, 'limited');
    assert.ok((untrusted?.description ?? '').length > 40);
    assert.deepEqual([...(untrusted?.restrictedConfigurations ?? [])].sort(), [...WORKSPACE_SETTINGS].sort());
  });
});
