import { z } from 'zod';
import { SETTING_TABLE, type SettingDefinition } from './settingTable';

// What the settings table (settingTable.ts) says, in the forms others read it: the manifest's configuration and its
// Restricted Mode list, and the README's table. scripts/settings.mjs writes them; a unit test fails when they differ.

const definitions = (): Array<SettingDefinition> => Object.values(SETTING_TABLE) as Array<SettingDefinition>;

/** JSON Schema noise the manifest does without: zod's bounds of a safe integer and a record's key type. */
function withoutNoise(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutNoise);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema') continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === 'propertyNames' && JSON.stringify(value) === '{"type":"string"}') continue;
    out[key] = withoutNoise(value);
  }
  return out;
}

/** The values a setting takes, as the manifest declares them (JSON Schema). */
export function declaredValues(value: z.ZodType): Record<string, unknown> {
  return withoutNoise(z.toJSONSchema(value)) as Record<string, unknown>;
}

/** `contributes.configuration.properties`. */
export function manifestProperties(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    definitions().map((s) => [
      `combee.${s.id}`,
      { ...declaredValues(s.value), default: s.default, markdownDescription: s.description, scope: s.scope },
    ]),
  );
}

/** `capabilities.untrustedWorkspaces.restrictedConfigurations`: what a repository may set is ignored in Restricted Mode. */
export function restrictedConfigurations(): string[] {
  return definitions()
    .filter((s) => s.scope === 'resource')
    .map((s) => `combee.${s.id}`);
}

function shownDefault(value: unknown): string {
  return typeof value === 'string' && value !== '' ? `\`${value}\`` : `\`${JSON.stringify(value)}\``;
}

/** The README's settings table, header included. */
export function readmeSettingsTable(): string {
  const rows = definitions().map(
    (s) =>
      `| \`combee.${s.id}\` | ${shownDefault(s.default)} | ${s.scope === 'resource' ? 'user or workspace' : 'user'} | ${s.summary} |`,
  );
  return ['| setting | default | set in | what it does |', '|---|---|---|---|', ...rows].join('\n');
}
