// Writes what the settings table (src/shared/settingTable.ts) defines into the files that repeat it: the manifest's
// configuration and Restricted Mode list (package.json) and the README's settings table. `--check` only says whether
// they differ (the unit test checks the same).
// Usage: node scripts/settings.mjs [--check]
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

const bundle = await build({
  entryPoints: [join(root, 'src/shared/settingsManifest.ts')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  mainFields: ['module', 'main'],
  write: false,
  logLevel: 'error',
});
const module = { exports: {} };
new Function('module', 'exports', 'require', bundle.outputFiles[0].text)(
  module,
  module.exports,
  createRequire(join(root, 'package.json')),
);
/** @type {{ manifestProperties(): Record<string, unknown>, restrictedConfigurations(): string[], readmeSettingsTable(): string }} */
const manifest = /** @type {any} */ (module.exports);

const packagePath = join(root, 'package.json');
const packageText = readFileSync(packagePath, 'utf8');
const pkg = JSON.parse(packageText);
pkg.contributes.configuration.properties = manifest.manifestProperties();
pkg.capabilities.untrustedWorkspaces.restrictedConfigurations = manifest.restrictedConfigurations();
const packageAfter = `${JSON.stringify(pkg, null, 2)}\n`;

const readmePath = join(root, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const begin = readme.indexOf('<!-- settings:begin');
const end = readme.indexOf('<!-- settings:end -->');
if (begin < 0 || end < begin) throw new Error('README.md: settings markers missing');
const open = readme.indexOf('-->', begin) + 3;
const readmeAfter = `${readme.slice(0, open)}\n${manifest.readmeSettingsTable()}\n${readme.slice(end)}`;

const stale = [packageText !== packageAfter && 'package.json', readme !== readmeAfter && 'README.md'].filter(Boolean);
if (check) {
  if (stale.length > 0) {
    console.error(
      `settings: ${stale.join(' and ')} differ from src/shared/settingTable.ts; run node scripts/settings.mjs`,
    );
    process.exit(1);
  }
} else {
  if (packageText !== packageAfter) writeFileSync(packagePath, packageAfter);
  if (readme !== readmeAfter) writeFileSync(readmePath, readmeAfter);
  console.log(stale.length > 0 ? `settings: wrote ${stale.join(' and ')}` : 'settings: nothing to write');
}
