import { SETTING_TABLE } from './settingTable';

// Which Combee setting each field of `Settings` reads, and who may set it, from the table (settingTable.ts): the
// manifest scopes `application` and `machine` are the user's alone, `resource` a trusted repository may set.

type Table = typeof SETTING_TABLE;
export type SettingWho = 'user' | 'workspace';

export const SETTINGS = Object.fromEntries(
  Object.entries(SETTING_TABLE).map(([field, s]) => [
    field,
    { id: s.id, who: s.scope === 'resource' ? 'workspace' : 'user' },
  ]),
) as { [Field in keyof Table]: { id: Table[Field]['id']; who: SettingWho } };

/** Setting ids only the user's own settings may set (the manifest test checks their scopes against this). */
export const USER_ONLY_SETTINGS: string[] = Object.values(SETTINGS)
  .filter((s) => s.who === 'user')
  .map((s) => `combee.${s.id}`);
/** Setting ids a trusted repository may set; in Restricted Mode their workspace values are ignored too. */
export const WORKSPACE_SETTINGS: string[] = Object.values(SETTINGS)
  .filter((s) => s.who === 'workspace')
  .map((s) => `combee.${s.id}`);
