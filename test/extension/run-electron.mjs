// The same extension-host tests in desktop VS Code through @vscode/test-electron, for machines with internet access
// (it downloads VS Code). Offline, use test/extension/run.mjs (code-server), which `npm test` runs.
import { runTests } from '@vscode/test-electron';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeFixtureWorkspace, REPO_ROOT } from '../../testing/fixtureWorkspace.mjs';
import { compileExtensionTests } from './compile.mjs';

const fixture = makeFixtureWorkspace();
const userData = join(fixture.workspace, '..', 'user-data');
mkdirSync(join(userData, 'User'), { recursive: true });
writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify(fixture.userSettings, null, 2));
try {
  await runTests({
    version: process.env.COMBEE_VSCODE_VERSION ?? '1.100.3',
    extensionDevelopmentPath: REPO_ROOT,
    extensionTestsPath: await compileExtensionTests(),
    launchArgs: [
      fixture.workspace,
      '--user-data-dir',
      userData,
      '--disable-extensions',
      '--disable-workspace-trust',
      '--skip-welcome',
    ],
  });
  fixture.cleanup();
} catch (error) {
  console.error(`test/extension (electron): ${error instanceof Error ? error.message : error}`);
  console.error(
    'This runner downloads VS Code; without internet access use `node test/extension/run.mjs` (code-server).',
  );
  process.exit(1);
}
