import assert from 'node:assert/strict';
import Module from 'node:module';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { tempDir } from '../../../testing/tmp';

/**
 * The extension's commands in an untrusted window, against a stand-in `vscode` module: every member is callable and
 * constructible, the folder is not trusted, and the warnings shown are recorded.
 */
const warnings: string[] = [];
function standIn(path: string): unknown {
  const known: Record<string, unknown> = {
    'vscode.workspace.isTrusted': false,
    'vscode.workspace.workspaceFolders': [],
    'vscode.window.showWarningMessage': (message: string) => {
      warnings.push(message);
      return Promise.resolve(undefined);
    },
  };
  if (path in known) return known[path];
  const fn = function () {
    return standIn(`${path}()`);
  };
  return new Proxy(fn, {
    get: (_t, key) => (key === 'then' ? undefined : typeof key === 'symbol' ? undefined : standIn(`${path}.${key}`)),
    construct: () => standIn(`new ${path}`) as object,
  });
}

/** The module itself: its names are own properties, as a bundle's import of it copies them. */
const NAMES = ['Range', 'TabInputTextDiff', 'Uri', 'WorkspaceEdit', 'commands', 'window', 'workspace'];
const vscodeModule = Object.fromEntries(NAMES.map((name) => [name, standIn(`vscode.${name}`)]));

describe('Undo in Restricted Mode', () => {
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = loader._load;
  before(() => {
    loader._load = (request, ...rest) => (request === 'vscode' ? vscodeModule : load(request, ...rest));
  });
  after(() => {
    loader._load = load;
  });

  it('is refused with the same message as Accept, and writes nothing', async () => {
    // the extension's code is bundled for its host, not transpiled for the unit tests: bundled here, vscode left out
    const bundleDir = tempDir('combee-restricted-bundle-');
    const bundle = join(bundleDir, 'proposals.js');
    buildSync({
      entryPoints: [join(__dirname, '../../../../src/extension/commands/proposals.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: bundle,
      external: ['vscode'],
      // as esbuild.mjs bundles it: jsonc-parser's UMD build (its `main`) loads its parts with a require a bundle can't follow
      alias: { 'jsonc-parser': join(__dirname, '../../../../node_modules/jsonc-parser/lib/esm/main.js') },
      logLevel: 'silent',
    });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const commands = require(bundle) as typeof import('../../../src/extension/commands/proposals');
    const store = tempDir('combee-restricted-undo-');
    const workspace = join(store, 'ws');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'AGENTS.md'), 'kept\n');
    const services = { store: { dir: store } } as unknown as Parameters<typeof commands.undoLastDecision>[0];
    warnings.length = 0;
    assert.equal(await commands.acceptProposal(services), undefined);
    assert.equal(await commands.undoLastDecision(services), undefined);
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.match(warnings[0], /Restricted Mode/);
    assert.equal(warnings[1], warnings[0]);
    assert.ok(existsSync(join(workspace, 'AGENTS.md')));
  });
});
