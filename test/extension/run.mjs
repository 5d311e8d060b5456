// Extension-host tests: mocha runs inside code-server's real Node extension host (VS Code's `payload`
// mechanism, as in VS Code's own browser integration tests); the page reports back via codeAutomationExit.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { format } from 'node:util';
import { launchBrowser, remoteUri, startCodeServer, workbenchUrl } from '../../testing/codeServer.mjs';
import { makeFixtureWorkspace, REPO_ROOT } from '../../testing/fixtureWorkspace.mjs';
import { compileExtensionTests } from './compile.mjs';

const TIMEOUT_MS = Number(process.env.COMBEE_TEST_TIMEOUT_MS) || 5 * 60_000;
// --restricted: workspace trust on, the folder untrusted, and the Restricted Mode suite (test/extension/restricted).
const RESTRICTED = process.argv.includes('--restricted');
if (RESTRICTED) process.env.COMBEE_TEST_SUITE = 'restricted';
const ARTIFACTS = join(REPO_ROOT, '.test-artifacts', RESTRICTED ? 'extension-restricted' : 'extension');
const extensionPath = process.env.COMBEE_EXTENSION_PATH ?? REPO_ROOT; // override: develop against a stub
const testsPath = await compileExtensionTests();

if (!existsSync(join(extensionPath, 'dist', 'extension.js'))) {
  console.error(
    `test/extension: ${join(extensionPath, 'dist', 'extension.js')} is missing; run \`npm run build\` first`,
  );
  process.exit(1);
}
rmSync(ARTIFACTS, { recursive: true, force: true });
mkdirSync(ARTIFACTS, { recursive: true });
const started = Date.now();
const serverLog = [],
  extLog = [];
const VERBOSE = !!process.env.COMBEE_E2E_VERBOSE;
const fixture = makeFixtureWorkspace();
let server,
  browser,
  page,
  finished = false;

async function finish(code, reason) {
  if (finished) return;
  finished = true;
  if (reason) console.error(`test/extension: ${reason}`);
  if (code !== 0 && page) await page.screenshot({ path: join(ARTIFACTS, 'failure.png') }).catch(() => {});
  writeFileSync(join(ARTIFACTS, 'code-server.log'), serverLog.join(''));
  writeFileSync(join(ARTIFACTS, 'ext-log.txt'), extLog.join(''));
  await browser?.close().catch(() => {});
  const keepLogs = code !== 0 || process.env.COMBEE_KEEP_LOGS;
  await server?.stop(keepLogs ? { saveLogsTo: join(ARTIFACTS, 'server-logs') } : {}).catch(() => {});
  if (code === 0) fixture.cleanup();
  else console.error(`test/extension: workspace kept at ${fixture.workspace}; artifacts in ${ARTIFACTS}`);
  console.log(`test/extension: exit ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit(code);
}

setTimeout(() => void finish(2, `timed out after ${TIMEOUT_MS / 1000} s`), TIMEOUT_MS);
process.on('SIGINT', () => void finish(130, 'interrupted'));

try {
  server = await startCodeServer({
    workspace: fixture.workspace,
    userSettings: fixture.userSettings,
    restricted: RESTRICTED,
    log: (t) => serverLog.push(t),
  });
  console.log(
    `test/extension: code-server at ${server.url}, workspace ${fixture.workspace} (sessions from ${fixture.sessionsSource})`,
  );
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('console', (m) => {
    if (m.type() === 'error') serverLog.push(`[page error] ${m.text()}\n`);
  });
  // the workbench's log service (extension host console included) arrives here in automation mode
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = format(...(Array.isArray(args) ? args : [args]));
    extLog.push(`${type} ${text}\n`);
    if (text.startsWith('[mocha] ')) console.log(text.slice(8));
    else if (VERBOSE || type === 'error' || type === 'warn') console.log(`[ext-log] ${type} ${text}`);
  });
  await page.exposeFunction('codeAutomationExit', async (code, logs) => {
    if (code !== 0 && Array.isArray(logs)) {
      for (const log of logs) {
        if (!log?.relativePath) continue;
        const file = join(ARTIFACTS, 'logs', log.relativePath);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, log.contents ?? '');
      }
    }
    await finish(code);
  });
  await page.goto(
    workbenchUrl(server, fixture.workspace, [
      ['extensionDevelopmentPath', remoteUri(server, extensionPath)],
      ['extensionTestsPath', remoteUri(server, testsPath)],
      ['skipWelcome', 'true'],
    ]),
  );
} catch (error) {
  await finish(1, /** @type {Error} */ (error).stack ?? String(error));
}
