// The extension-host suites are TypeScript: compiled file by file to out/test/extension before a run (vscode and
// mocha stay requires, resolved inside the extension host).
import * as esbuild from 'esbuild';
import { join } from 'node:path';
import { listTs, TRANSPILE_OPTIONS } from '../../scripts/transpile.mjs';
import { REPO_ROOT } from '../../testing/fixtureWorkspace.mjs';

/** Compiles test/extension and returns the entry VS Code loads (`extensionTestsPath`). */
export async function compileExtensionTests() {
  const source = join(REPO_ROOT, 'test', 'extension');
  const out = join(REPO_ROOT, 'out', 'test', 'extension');
  await esbuild.build({
    entryPoints: listTs(source),
    outdir: out,
    outbase: source,
    ...TRANSPILE_OPTIONS,
  });
  return join(out, 'suite', 'index.js');
}
