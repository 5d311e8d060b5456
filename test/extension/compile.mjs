// The extension-host suites are TypeScript: compiled file by file to out/test/extension before a run (vscode and
// mocha stay requires, resolved inside the extension host).
import * as esbuild from 'esbuild';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/fixtureWorkspace.mjs';

function listTs(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return listTs(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

/** Compiles test/extension and returns the entry VS Code loads (`extensionTestsPath`). */
export async function compileExtensionTests() {
  const source = join(REPO_ROOT, 'test', 'extension');
  const out = join(REPO_ROOT, 'out', 'test', 'extension');
  await esbuild.build({
    entryPoints: listTs(source),
    outdir: out,
    outbase: source,
    bundle: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return join(out, 'suite', 'index.js');
}
