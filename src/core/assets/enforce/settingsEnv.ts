import { parseTree, type Node } from 'jsonc-parser';
import { createRedactor } from '../../trace/redact';
import { MAX_SETTINGS_DEPTH, nesting } from './claudeSettings';

// The values of `.claude/settings.json`'s `env` are the team's keys and tokens: Combee stores the file with each of
// them replaced by a tag, and puts the real ones back, from the file on disk, only when it writes the file.

/** What an `env` value is stored as. */
export const ENV_VALUE_TAG = '[REDACTED:settings-env]';
const TAGGED = JSON.stringify(ENV_VALUE_TAG);

interface EnvValue {
  key: string;
  node: Node;
}

/** The values of every top-level `env` object (a duplicate `env` too), in the order they are written. */
function envValues(text: string): EnvValue[] | undefined {
  if (nesting(text) > MAX_SETTINGS_DEPTH) return undefined;
  const errors: [] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true });
  if (!root || root.type !== 'object') return undefined;
  const values: EnvValue[] = [];
  for (const property of root.children ?? []) {
    const [key, value] = property.children ?? [];
    if (key?.value !== 'env' || value?.type !== 'object') continue;
    for (const member of value.children ?? []) {
      const [name, node] = member.children ?? [];
      if (typeof name?.value === 'string' && node) values.push({ key: name.value, node });
    }
  }
  return values;
}

function replaced(text: string, parts: Array<{ node: Node; by: string }>): string {
  let out = text;
  // from the end, so the offsets before stay right
  for (const { node, by } of [...parts].sort((a, b) => b.node.offset - a.node.offset))
    out = out.slice(0, node.offset) + by + out.slice(node.offset + node.length);
  return out;
}

/**
 * The settings text as Combee stores it: every `env` value tagged, nothing else changed. Text it cannot read as a
 * JSON object (too deep, broken) has the redactor's secrets taken out instead.
 */
export function maskSettingsEnv(text: string): string {
  const values = envValues(text);
  if (!values) return createRedactor({ homePaths: false }).redact(text);
  return replaced(
    text,
    values.map(({ node }) => ({ node, by: TAGGED })),
  );
}

/**
 * The stored text with its tagged `env` values put back from `real` (the file as it is on disk): each key's values in
 * the order they come. Undefined when a tagged value has no real one (the key is gone from the file since).
 */
export function unmaskSettingsEnv(stored: string, real: string | undefined): string | undefined {
  if (!stored.includes(ENV_VALUE_TAG)) return stored;
  const source = real === undefined ? [] : envValues(real);
  const tagged = envValues(stored);
  if (!source || !tagged) return undefined;
  const byKey = new Map<string, string[]>();
  for (const { key, node } of source) {
    const raw = real!.slice(node.offset, node.offset + node.length);
    byKey.set(key, [...(byKey.get(key) ?? []), raw]);
  }
  const parts: Array<{ node: Node; by: string }> = [];
  for (const { key, node } of tagged) {
    if (stored.slice(node.offset, node.offset + node.length) !== TAGGED) continue;
    const raw = byKey.get(key)?.shift();
    if (raw === undefined) return undefined;
    parts.push({ node, by: raw });
  }
  const out = replaced(stored, parts);
  // a tag left anywhere else is not ours to fill
  return out.includes(ENV_VALUE_TAG) ? undefined : out;
}
