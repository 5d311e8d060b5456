import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { RE2JS } from 're2js';

/**
 * The user's own redaction patterns (`combee.redaction.extraPatterns`), run by RE2JS, a
 * pure-JavaScript port of RE2: matching takes time linear in the text whatever the pattern, so no pattern can stall
 * an import. Patterns RE2 cannot run in linear time (backreferences, lookaround) are rejected with the reason.
 */
export interface UserPattern {
  source: string;
  regex: RE2JS;
}

export function compileUserPatterns(
  sources: readonly string[],
  onInvalid: (source: string, error: string) => void,
): UserPattern[] {
  const patterns: UserPattern[] = [];
  if (sources.length === 0) return patterns;
  const engine = loadEngine();
  for (const source of sources) {
    if (typeof source !== 'string' || source.length === 0) continue;
    try {
      patterns.push({ source, regex: engine.compile(source) });
    } catch (error) {
      onInvalid(source, whyRejected(source, (error as Error).message));
    }
  }
  return patterns;
}

let loaded: typeof RE2JS | undefined;

/**
 * RE2JS from its own bundle (dist/re2.js) next to this one, or from node_modules when running from sources: most
 * imports have no user pattern and never load the engine's code.
 */
function loadEngine(): typeof RE2JS {
  if (loaded) return loaded;
  const load = createRequire(__filename);
  const bundled = join(__dirname, 're2.js');
  const moduleName = ['re2', 'js'].join('');
  loaded = (existsSync(bundled) ? load(bundled) : load(moduleName)).RE2JS as typeof RE2JS;
  return loaded;
}

function whyRejected(source: string, message: string): string {
  const detail = message.replace(/^error parsing regexp: /, '');
  if (/\\[1-9]|\\k</.test(source)) return `backreferences cannot run in linear time (${detail}); rejected`;
  if (/\(\?<?[=!]/.test(source)) return `lookahead and lookbehind cannot run in linear time (${detail}); rejected`;
  return `not a valid RE2 pattern (${detail}); rejected`;
}

/** Calls `found` for every (non-empty) match of the patterns in `text`. */
export function findUserPatterns(
  text: string,
  patterns: readonly UserPattern[],
  found: (start: number, end: number) => void,
): void {
  for (const { regex } of patterns) {
    const matcher = regex.matcher(text);
    while (matcher.find()) {
      const start = matcher.start();
      const end = matcher.end();
      if (end > start) found(start, end);
    }
  }
}
