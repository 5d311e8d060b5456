import { z } from 'zod';
import { SETTING_TABLE } from './settingTable';

/**
 * The settings' reader, from the table (settingTable.ts): each field takes its setting's values, and a bad or unset
 * value reads as its default. Settings are external input too. No `vscode` import, so plain Node can test it.
 */
type Table = typeof SETTING_TABLE;
type Readers = { [Field in keyof Table]: z.ZodCatch<Table[Field]['value']> };

const readers = Object.fromEntries(
  Object.entries(SETTING_TABLE).map(([field, s]) => [field, (s.value as z.ZodType).catch(s.default)]),
) as Readers;

export const Settings = z.object(readers);
export type Settings = z.infer<typeof Settings>;

/** Every field's default: what an unset or invalid value reads as. */
export const SETTING_DEFAULTS: Settings = Settings.parse({});
