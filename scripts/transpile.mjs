// What the two file-by-file transpiles share (the unit tests' out/ in esbuild.mjs, the extension-host suites in
// test/extension/compile.mjs): each TypeScript file to one CommonJS file for Node 20, nothing bundled.

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** @satisfies {import('esbuild').BuildOptions} */
export const TRANSPILE_OPTIONS = {
  bundle: false,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'inline',
  logLevel: 'warning',
};

/** Every `.ts` file below `dir` (declaration files aside). */
export function listTs(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return listTs(full);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [full] : [];
  });
}
