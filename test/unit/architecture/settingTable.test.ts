import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { SETTING_TABLE, type SettingDefinition } from '../../../src/shared/settingTable';
import { SETTING_DEFAULTS } from '../../../src/shared/settingsSchema';
import { USER_ONLY_SETTINGS, WORKSPACE_SETTINGS } from '../../../src/shared/settingIds';
import {
  declaredValues,
  manifestProperties,
  readmeSettingsTable,
  restrictedConfigurations,
} from '../../../src/shared/settingsManifest';
import { REPO_ROOT } from '../../support/paths';

interface Manifest {
  capabilities: {
    untrustedWorkspaces: { supported: string | boolean; description?: string; restrictedConfigurations?: string[] };
  };
  contributes: { configuration: { properties: Record<string, unknown> } };
}

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
const definitions = Object.entries(SETTING_TABLE) as Array<[keyof typeof SETTING_TABLE, SettingDefinition]>;
const REGENERATE = 'run `node scripts/settings.mjs` after changing src/shared/settingTable.ts';

describe('each setting is defined once (src/shared/settingTable.ts)', () => {
  it("the manifest's configuration is the table's", () => {
    assert.deepEqual(manifest.contributes.configuration.properties, manifestProperties(), REGENERATE);
  });

  it('Restricted Mode ignores exactly the settings a repository may set, and says so', () => {
    const untrusted = manifest.capabilities.untrustedWorkspaces;
    assert.equal(untrusted.supported, 'limited');
    assert.ok((untrusted.description ?? '').length > 40);
    assert.deepEqual(untrusted.restrictedConfigurations, restrictedConfigurations(), REGENERATE);
    assert.deepEqual([...restrictedConfigurations()].sort(), [...WORKSPACE_SETTINGS].sort());
  });

  it("the README's table is the table's", () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const begin = readme.indexOf('-->', readme.indexOf('<!-- settings:begin')) + 4;
    assert.equal(readme.slice(begin, readme.indexOf('\n<!-- settings:end -->')), readmeSettingsTable(), REGENERATE);
  });

  it('the reader reads an unset setting as its default, and each default is a value the setting takes', () => {
    for (const [field, s] of definitions) {
      assert.deepEqual(SETTING_DEFAULTS[field], s.default, s.id);
      assert.deepEqual(s.value.parse(s.default), s.default, `${s.id}: its default is not one of its values`);
    }
  });

  it('what decides where data goes, what is read, what runs or what it costs is the user’s alone', () => {
    for (const id of USER_ONLY_SETTINGS) {
      const scope = (manifest.contributes.configuration.properties[id] as { scope: string }).scope;
      assert.ok(['application', 'machine'].includes(scope), `${id} is ${scope}-scoped`);
    }
    for (const id of ['provider', 'openai.baseUrl', 'openai.model', 'sources.extraFolders', 'redaction.extraPatterns'])
      assert.ok(USER_ONLY_SETTINGS.includes(`combee.${id}`), id);
  });

  it('the declared values are the reader’s: a value outside them is refused by both', () => {
    const bounded = declaredValues(z.number().int().min(500));
    assert.deepEqual(bounded, { type: 'integer', minimum: 500 });
    const either = declaredValues(z.union([z.number().int().min(1), z.literal('auto')]));
    assert.deepEqual(either, {
      anyOf: [
        { type: 'integer', minimum: 1 },
        { type: 'string', const: 'auto' },
      ],
    });
    assert.equal(SETTING_TABLE.playbookBudget.value.safeParse(499).success, false);
    assert.equal(SETTING_TABLE.batchSize.value.safeParse('many').success, false);
  });
});
