import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { Settings, SETTING_DEFAULTS } from '../../../src/shared/settingsSchema';
import { SETTINGS } from '../../../src/shared/settingIds';
import { REPO_ROOT } from '../../support/paths';

interface Declared {
  type: string | string[];
  default?: unknown;
  enum?: unknown[];
  items?: { type?: string; enum?: unknown[] };
}

const properties = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, Declared> } };
  }
).contributes.configuration.properties;
type Field = keyof typeof SETTINGS;
const fields = Object.keys(SETTINGS) as Field[];
const declared = (field: Field): Declared => properties[`combee.${SETTINGS[field].id}`];
/** The field's schema without its fallback to the default, so a value of the wrong type is refused, not replaced. */
const strict = (field: Field): z.ZodType => (Settings.shape[field] as unknown as z.ZodCatch<z.ZodType>).unwrap();

/** A value of each JSON type: the schema must refuse the ones the manifest does not declare. */
const PROBES: Record<string, unknown> = {
  string: 'probe',
  boolean: true,
  number: 7.5,
  integer: 7,
  array: [],
  object: {},
};

describe('settings are defined once: the manifest and the settings schema agree', () => {
  it('every field has a setting with a default in the manifest, and the schema reads an unset one as that default', () => {
    for (const field of fields) {
      const setting = declared(field);
      assert.ok(setting && 'default' in setting, `${SETTINGS[field].id} has a declared default`);
      assert.deepEqual(
        SETTING_DEFAULTS[field],
        setting.default,
        `combee.${SETTINGS[field].id}: the manifest says ${JSON.stringify(setting.default)}, the reader ${JSON.stringify(SETTING_DEFAULTS[field])}`,
      );
    }
  });

  it('the declared default is a valid value, kept as it is', () => {
    for (const field of fields)
      assert.deepEqual(strict(field).parse(declared(field).default), declared(field).default, SETTINGS[field].id);
  });

  it('a value of a type the manifest does not declare is refused (then replaced by the default)', () => {
    for (const field of fields) {
      const types = [declared(field).type].flat();
      for (const [type, probe] of Object.entries(PROBES)) {
        const allowed = types.includes(type) || (type === 'integer' && types.includes('number'));
        if (allowed) continue;
        assert.equal(
          strict(field).safeParse(probe).success,
          false,
          `combee.${SETTINGS[field].id} (${types.join('|')}) accepts ${type} ${JSON.stringify(probe)}`,
        );
      }
    }
  });

  it('enumerated values are the same in both', () => {
    for (const field of fields) {
      const setting = declared(field);
      const values = setting.enum ?? setting.items?.enum;
      if (!values) continue;
      for (const value of values) {
        const probe = setting.items ? [value] : value;
        assert.deepEqual(strict(field).parse(probe), probe, `combee.${SETTINGS[field].id}: ${JSON.stringify(value)}`);
      }
      assert.equal(
        strict(field).safeParse(setting.items ? ['not-a-choice'] : 'not-a-choice').success,
        false,
        `combee.${SETTINGS[field].id} accepts a value it does not declare`,
      );
    }
  });
});
