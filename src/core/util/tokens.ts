import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

interface Tokenizer {
  countTokens(text: string): number;
}

let tokenizer: Tokenizer | undefined;

/**
 * The real o200k tokenizer, loaded lazily from its own bundle (dist/tokenizer.js) so the 1 MB of ranks is shipped
 * once and loaded only by the code that counts (worker threads, the CLI); from sources it comes from node_modules.
 */
function load(): Tokenizer {
  const load = createRequire(__filename);
  const bundled = join(__dirname, 'tokenizer.js');
  if (existsSync(bundled)) return load(bundled) as Tokenizer;
  const moduleName = ['gpt-tokenizer', 'encoding', 'o200k_base'].join('/');
  return load(moduleName) as Tokenizer;
}

export function countTokens(text: string): number {
  if (!text) return 0;
  tokenizer ??= load();
  return tokenizer.countTokens(text);
}
