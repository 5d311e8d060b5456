import { isMap, isScalar, parseDocument } from 'yaml';

/** The Agent Skills spec (agentskills.io/specification) plus the reserved words Claude refuses in a name. */
export const SKILL_FILE = 'SKILL.md';
export const SKILL_NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;
export const RESERVED_WORDS = ['anthropic', 'claude'] as const;
export const SKILL_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'] as const;

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

export interface SplitSkill {
  /** The front matter with its `---` lines, exactly as written. */
  head: string;
  yaml: string;
  body: string;
}

export function splitFrontMatter(text: string): SplitSkill | undefined {
  const m = FRONT_MATTER.exec(text);
  if (!m) return undefined;
  return { head: m[0], yaml: m[1] ?? '', body: text.slice(m[0].length) };
}

/** Words → a valid skill name: lowercase-hyphen, no reserved words, at most 64 characters, cut at a hyphen. */
export function toSkillName(text: string, fallback = 'recurring-task'): string {
  const words = text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !RESERVED_WORDS.some((r) => w.includes(r)));
  let name = '';
  for (const word of words) {
    const next = name ? `${name}-${word}` : word;
    if (next.length > MAX_NAME_LENGTH) break;
    name = next;
  }
  return name || fallback;
}

function nameProblems(name: unknown, folderName: string): string[] {
  if (name === undefined || name === null) return ['name: missing (required)'];
  if (typeof name !== 'string') return ['name: must be a string'];
  const problems: string[] = [];
  if (name.length === 0) problems.push('name: must not be empty');
  if (name.length > MAX_NAME_LENGTH) problems.push(`name: ${name.length} characters (at most ${MAX_NAME_LENGTH})`);
  if (name && !SKILL_NAME_PATTERN.test(name))
    problems.push('name: only lowercase letters, digits and single hyphens, not at the start or end');
  for (const word of RESERVED_WORDS)
    if (name.toLowerCase().includes(word)) problems.push(`name: contains the reserved word "${word}"`);
  if (name !== folderName) problems.push(`name: "${name}" must equal the folder name "${folderName}"`);
  return problems;
}

function stringField(field: string, value: unknown, max?: number, required = false): string[] {
  if (value === undefined || value === null) return required ? [`${field}: missing (required)`] : [];
  if (typeof value !== 'string') return [`${field}: must be a string`];
  const problems: string[] = [];
  if (value.trim().length === 0) problems.push(`${field}: must not be empty`);
  if (max !== undefined && value.length > max) problems.push(`${field}: ${value.length} characters (at most ${max})`);
  return problems;
}

/** Every problem the spec finds in a SKILL.md (an empty list: valid). */
export function validateSkill(text: string, folderName: string): string[] {
  const split = splitFrontMatter(text);
  if (!split) return ['front matter: SKILL.md must start with YAML front matter between --- lines'];
  const doc = parseDocument(split.yaml);
  if (doc.errors.length > 0) return doc.errors.map((e) => `front matter: invalid YAML (${e.message.split('\n')[0]})`);
  if (!isMap(doc.contents)) return ['front matter: must be a mapping of fields'];
  const problems: string[] = [];
  const data = doc.toJS() as Record<string, unknown>;
  for (const key of Object.keys(data)) {
    if (!(SKILL_FIELDS as readonly string[]).includes(key))
      problems.push(`${key}: unknown field (allowed: ${SKILL_FIELDS.join(', ')})`);
  }
  problems.push(...nameProblems(data.name, folderName));
  problems.push(...stringField('description', data.description, MAX_DESCRIPTION_LENGTH, true));
  if (typeof data.description === 'string' && /<\/?[a-zA-Z][^>]*>/.test(data.description))
    problems.push('description: must not contain XML tags');
  problems.push(...stringField('license', data.license));
  problems.push(...stringField('compatibility', data.compatibility, MAX_COMPATIBILITY_LENGTH));
  if (data.metadata !== undefined) {
    const metadata = doc.get('metadata');
    if (!isMap(metadata)) problems.push('metadata: must be a map of string keys to string values');
    else {
      for (const pair of metadata.items) {
        const key = isScalar(pair.key) ? pair.key.value : undefined;
        const value = isScalar(pair.value) ? pair.value.value : undefined;
        if (typeof key !== 'string' || typeof value !== 'string')
          problems.push(`metadata: ${String(key)} must map a string to a string`);
      }
    }
  }
  problems.push(...stringField('allowed-tools', data['allowed-tools']));
  return problems;
}
