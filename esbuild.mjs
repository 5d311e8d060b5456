// One build script, one bundle per runtime: extension host, worker, webview, CLI. `--tests` also
// transpiles src/ and test/ file-by-file into out/ for mocha; `--production` minifies without source maps.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { listTs, TRANSPILE_OPTIONS } from './scripts/transpile.mjs';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');

// `combee --version` (src/cli/version.ts) without reading package.json at run time.
const define = { __COMBEE_VERSION__: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) };

/** @satisfies {import('esbuild').BuildOptions} */
const node = {
  define,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  // piscina's optional native dependency is loaded lazily and may be absent
  external: ['@napi-rs/nice'],
  // jsonc-parser's UMD build (its `main`) loads its parts with a require a bundle can't follow: its ES module build
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
};

/** @type {import('esbuild').BuildOptions[]} */
const bundles = [
  {
    ...node,
    entryPoints: { extension: 'src/extension/extension.ts' },
    outdir: 'dist',
    external: [...node.external, 'vscode'],
  },
  // the pool's worker: our task module plus piscina's bootstrap, which piscina loads as `<its __dirname>/worker.js`
  {
    ...node,
    entryPoints: { 'combee-worker': 'src/core/pool/workerTasks.ts', worker: 'node_modules/piscina/dist/worker.js' },
    outdir: 'dist',
  },
  { ...node, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } },
  // benchmarks (not shipped): `combee bench …` loads dist/bench.js when it exists
  { ...node, entryPoints: { bench: 'bench/learn/index.ts' }, outdir: 'dist' },
  // the tokenizer's ranks are large: one bundle, loaded at run time by src/core/util/tokens.ts
  { ...node, entryPoints: { tokenizer: 'src/core/util/tokenizerEntry.ts' }, outdir: 'dist', sourcemap: false },
  // the RE2 engine for user redaction patterns: its own bundle, loaded only when there are patterns (src/core/secrets/userPatterns.ts)
  { ...node, entryPoints: { re2: 'src/core/secrets/re2Entry.ts' }, outdir: 'dist', sourcemap: false },
  {
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: production ? false : 'linked',
    minify: production,
    logLevel: 'warning',
    entryPoints: { webview: 'src/webview/main.ts' },
    outdir: 'dist',
  },
];

/** @type {import('esbuild').BuildOptions} */
const testTranspile = {
  entryPoints: [
    ...listTs('src/core'),
    ...listTs('src/cli'),
    ...listTs('src/shared'),
    // the run's view model for the webview: no vscode import, so it is tested in plain Node
    'src/extension/webview/runView.ts',
    'src/extension/webview/nodeDetail.ts',
    'src/extension/webview/nodeSearch.ts',
    'src/extension/webview/rulePath.ts',
    'src/extension/webview/sessionPath.ts',
    // a proposed rule's tooltip text, checked as rendered Markdown
    'src/extension/views/ruleTooltip.ts',
    // the tree's key, wheel and drag map (no DOM)
    'src/webview/graphKeys.ts',
    // the labels' lines and the views Fit and the opening make (no DOM)
    'src/webview/labelMetrics.ts',
    'src/webview/viewPlacement.ts',
    // the commands' and views' ids, checked against the manifest
    'src/extension/commandIds.ts',
    'src/extension/viewIds.ts',
    ...listTs('test/unit'),
    ...listTs('test/support'),
    ...listTs('testing'),
    ...listTs('bench'),
  ],
  ...TRANSPILE_OPTIONS,
  define,
  outdir: 'out',
  outbase: '.',
};

if (args.has('--tests')) rmSync('out', { recursive: true, force: true });
const configs = args.has('--tests') ? [...bundles, testTranspile] : bundles;
// sql.js (src/core/trace/sources/sqlite.ts) loads its WebAssembly from next to the running bundle.
mkdirSync('dist', { recursive: true });
copyFileSync('node_modules/sql.js/dist/sql-wasm.wasm', 'dist/sql-wasm.wasm');
// VS Code's own icon font for the webview's buttons (its stylesheet names the font file beside it)
mkdirSync('dist/codicons', { recursive: true });
for (const file of ['codicon.css', 'codicon.ttf'])
  copyFileSync(`node_modules/@vscode/codicons/dist/${file}`, `dist/codicons/${file}`);

if (watch) {
  for (const config of configs) await (await esbuild.context(config)).watch();
} else {
  await Promise.all(configs.map((config) => esbuild.build(config)));
}
