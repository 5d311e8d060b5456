// The packaged extension as users get it: install combee-<version>.vsix into a fresh extensions dir,
// start code-server with it (no development payload) and learn from the palette.
// `--require` (CI) fails instead of skipping when the .vsix is absent.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  codeServerBin,
  launchBrowser,
  runCommand,
  startCodeServer,
  waitForDiffShowing,
  waitForWorkbench,
  workbenchUrl,
} from '../../testing/codeServer.mjs';
import { makeFixtureWorkspace, REPO_ROOT } from '../../testing/fixtureWorkspace.mjs';

const ARTIFACTS = join(REPO_ROOT, '.test-artifacts', 'vsix');
const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
const vsix = process.env.COMBEE_VSIX ?? join(REPO_ROOT, `combee-${version}.vsix`);
const NAME = `packaged ${vsix.split('/').pop()}: install, learn → diff`;

if (!existsSync(vsix)) {
  const message = `${vsix} not found; run \`npm run package\` first`;
  if (process.argv.includes('--require')) {
    console.log(`FAIL ${NAME}\n     ${message}`);
    process.exit(1);
  }
  console.log(`SKIP ${NAME}: ${message}`);
  process.exit(0);
}
rmSync(ARTIFACTS, { recursive: true, force: true });
mkdirSync(ARTIFACTS, { recursive: true });

const started = Date.now();
const scratch = mkdtempSync(join(tmpdir(), 'combee-vsix-'));
const extensionsDir = join(scratch, 'extensions');
const fixture = makeFixtureWorkspace();
let server,
  browser,
  page,
  current = 'install the .vsix';
const timer = setTimeout(() => void finish(new Error('timed out after 4 min')), 4 * 60_000);

async function finish(error) {
  clearTimeout(timer);
  if (error && page) await page.screenshot({ path: join(ARTIFACTS, 'failure.png') }).catch(() => {});
  await browser?.close().catch(() => {});
  await server?.stop(error ? { saveLogsTo: join(ARTIFACTS, 'server-logs') } : {}).catch(() => {});
  rmSync(scratch, { recursive: true, force: true });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (error) {
    console.log(
      `FAIL ${NAME} (${secs} s)\n     during "${current}": ${String(error.message).split('\n').slice(0, 8).join('\n     ')}`,
    );
    console.log(`     workspace kept at ${fixture.workspace}; artifacts in ${ARTIFACTS}`);
  } else {
    fixture.cleanup();
    console.log(`PASS ${NAME} (${secs} s)`);
  }
  process.exit(error ? 1 : 0);
}

try {
  // the CLI installer needs its own user data too, and must not talk to a running instance or a gallery
  const { stdout, stderr } = await promisify(execFile)(
    codeServerBin(),
    ['--extensions-dir', extensionsDir, '--user-data-dir', join(scratch, 'user-data'), '--install-extension', vsix],
    { env: { ...process.env, VSCODE_IPC_HOOK_CLI: '', EXTENSIONS_GALLERY: '{}' }, timeout: 120_000 },
  );
  const installed = existsSync(extensionsDir)
    ? readdirSync(extensionsDir).filter((d) => d.startsWith('combee.combee-'))
    : [];
  if (installed.length === 0) throw new Error(`nothing installed into ${extensionsDir}:\n${stdout}${stderr}`);

  current = 'start code-server';
  server = await startCodeServer({ workspace: fixture.workspace, userSettings: fixture.userSettings, extensionsDir });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(workbenchUrl(server, fixture.workspace));
  current = 'wait for the workbench';
  await waitForWorkbench(page);
  current = 'run "Combee: Learn from Recent Sessions"';
  await runCommand(page, 'Combee: Learn from Recent Sessions');
  current = 'wait for a diff showing pnpm db:generate';
  await waitForDiffShowing(page, 'pnpm db:generate');
  await page.screenshot({ path: join(ARTIFACTS, '01-diff.png') });
  await finish();
} catch (error) {
  await finish(error);
}
