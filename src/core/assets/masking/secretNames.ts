// Which values of an agent's config file are the team's secrets, by the names on their path: everything under a
// member whose name says environment or headers (an MCP server's `env`, `headers`, Codex's `http_headers`), and the
// strings under a name that says secret (a token, password, API key, credentials, a bearer or authorization value).

/** What an environment value is stored as (`.claude/settings.json` has stored its `env` values so since before). */
export const ENV_VALUE_TAG = '[REDACTED:settings-env]';
/** What any other masked value is stored as. */
export const SECRET_VALUE_TAG = '[REDACTED:config-secret]';

/** A value's place in its file: member names and array indices from the root. */
export type ValuePath = ReadonlyArray<string | number>;

/** The words of a name: `mcpServers` → mcp servers, `OPENAI_API_KEY` → openai api key, `x-api-key` → x api key. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const ENV_WORDS = new Set(['env', 'environment']);
const HEADER_WORDS = new Set(['header', 'headers']);
/** Secret words written as one word or several (`apiKey`, `api_key`, `APIKEY`): matched on the words run together. */
const SECRET_RUN = /token|secret|passw(?:or)?d|passphrase|credential|apikey|privatekey|accesskey|authorization|bearer/;
/** Secret words only whole: `auth` (not `author`), `pwd`, `cookie`. */
const SECRET_WORDS = new Set(['auth', 'pwd', 'cookie', 'cookies']);

/** How a name marks the values under it: all of them, its strings, or none. */
function nameScope(name: string): 'env' | 'headers' | 'secret' | undefined {
  const w = words(name);
  if (w.some((x) => ENV_WORDS.has(x))) return 'env';
  if (w.some((x) => HEADER_WORDS.has(x))) return 'headers';
  if (SECRET_RUN.test(w.join('')) || w.some((x) => SECRET_WORDS.has(x))) return 'secret';
  return undefined;
}

/**
 * The tag a value at `path` is stored as, or undefined when it is kept as it is. Under environment or headers every
 * value is masked; under a secret name only strings (`max_tokens = 4096` stays readable).
 */
export function maskTag(path: ValuePath, isString: boolean): string | undefined {
  let secret = false;
  for (const segment of path) {
    if (typeof segment !== 'string') continue;
    const scope = nameScope(segment);
    if (scope === 'env') return ENV_VALUE_TAG;
    if (scope === 'headers') return SECRET_VALUE_TAG;
    if (scope === 'secret') secret = true;
  }
  return secret && isString ? SECRET_VALUE_TAG : undefined;
}

/** A value's path as one string, to group a file's values by it. */
export const pathKey = (path: ValuePath): string => JSON.stringify(path);

/** The path as a person reads it: `mcpServers.github.env.TOKEN`, `servers[0].headers.Authorization`. */
export function showPath(path: ValuePath): string {
  return path
    .map((s, i) =>
      typeof s === 'number' ? `[${s}]` : `${i === 0 ? '' : '.'}${/^[\w-]+$/.test(s) ? s : JSON.stringify(s)}`,
    )
    .join('');
}
