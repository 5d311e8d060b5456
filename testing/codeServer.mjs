// Real VS Code for tests with no internet: code-server 4.100.3 (VS Code 1.100.3, Node extension host)
// driven through Debian's chromium with playwright-core. See /work/shared/E2E-RECIPE.md.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CODE_SERVER_VERSION = '4.100.3';
export const CHROMIUM = process.env.COMBEE_CHROMIUM ?? '/usr/bin/chromium';

export function codeServerBin() {
  const cache = process.env.COMBEE_E2E_CACHE ?? join(homedir(), '.cache', 'combee-e2e');
  const bin = join(cache, `code-server-${CODE_SERVER_VERSION}`, 'node_modules', '.bin', 'code-server');
  if (!existsSync(bin))
    throw new Error(`code-server ${CODE_SERVER_VERSION} is not installed at ${bin}: run npm run setup:vscode`);
  if (!existsSync(CHROMIUM)) throw new Error(`chromium is missing at ${CHROMIUM}: run npm run setup:vscode`);
  return bin;
}

/**
 * Fresh user-data, extensions and config dirs per server, so runs never share state. `restricted`: workspace trust on and the folder not trusted, so the window opens in
 * Restricted Mode.
 * @param {{ workspace: string; extensionsDir?: string; userSettings?: Record<string, unknown>; restricted?: boolean;
 *   log?: (text: string) => void }} options
 */
export async function startCodeServer({
  workspace,
  extensionsDir,
  userSettings = {},
  restricted = false,
  log = () => {},
}) {
  const bin = codeServerBin();
  const data = mkdtempSync(join(tmpdir(), 'combee-cs-'));
  const userDir = join(data, 'user-data', 'User');
  mkdirSync(userDir, { recursive: true });
  // code-server is a remote window: VS Code reads `machine`-scoped settings from the remote's machine settings.
  const machineDir = join(data, 'user-data', 'Machine');
  mkdirSync(machineDir, { recursive: true });
  const scopes = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')).contributes
    .configuration.properties;
  const machine = Object.fromEntries(Object.entries(userSettings).filter(([key]) => scopes[key]?.scope === 'machine'));
  writeFileSync(join(machineDir, 'settings.json'), JSON.stringify(machine, null, 2));
  const notMachine = Object.fromEntries(Object.entries(userSettings).filter(([key]) => !(key in machine)));
  writeFileSync(
    join(userDir, 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'security.workspace.trust.enabled': restricted,
        'security.workspace.trust.startupPrompt': 'never',
        'security.workspace.trust.emptyWindow': false,
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'telemetry.telemetryLevel': 'off',
        ...notMachine,
      },
      null,
      2,
    ),
  );
  const extDir = extensionsDir ?? join(data, 'extensions');
  mkdirSync(extDir, { recursive: true });
  const args = [
    '--auth',
    'none',
    '--bind-addr',
    '127.0.0.1:0',
    '--disable-telemetry',
    '--disable-update-check',
    ...(restricted ? [] : ['--disable-workspace-trust']),
    '--user-data-dir',
    join(data, 'user-data'),
    '--extensions-dir',
    extDir,
    '--config',
    join(data, 'config.yaml'),
    workspace,
  ];
  // VSCODE_IPC_HOOK_CLI: never attach to a running instance; EXTENSIONS_GALLERY: no marketplace lookups offline.
  const server = spawn(bin, args, {
    env: { ...process.env, VSCODE_IPC_HOOK_CLI: '', EXTENSIONS_GALLERY: '{}' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stopped = false;
  /**
   * `saveLogsTo`: keep the server-side logs (extension host, output channels such as "Combee").
   * @param {{ saveLogsTo?: string }} [options]
   */
  const stop = async ({ saveLogsTo } = {}) => {
    if (stopped) return;
    stopped = true;
    // code-server forks out/node/entry: signal the whole group, then make sure it is gone.
    /** @type {Promise<void>} */
    const exited = new Promise((res) => (server.exitCode !== null ? res() : server.once('exit', res)));
    try {
      process.kill(-(/** @type {number} */ (server.pid)), 'SIGTERM');
    } catch {}
    await Promise.race([exited, new Promise((res) => setTimeout(res, 3000))]);
    try {
      process.kill(-(/** @type {number} */ (server.pid)), 'SIGKILL');
    } catch {}
    const logs = join(data, 'user-data', 'logs');
    if (saveLogsTo && existsSync(logs)) cpSync(logs, saveLogsTo, { recursive: true });
    rmSync(data, { recursive: true, force: true });
  };
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`code-server did not start within 60 s:\n${output.slice(-2000)}`)),
      60_000,
    );
    let found = false;
    const onData = (chunk) => {
      const text = String(chunk);
      log(text);
      if (found) return;
      output += text;
      const m = /HTTP server listening on (http:\/\/[\d.:]+)/.exec(output);
      if (m) {
        found = true;
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', onData);
    server.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited with ${code}:\n${output.slice(-2000)}`));
    });
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  return { url, host: new URL(url).host, stop, process: server };
}

export function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}

/** The workbench URL for a folder, with an optional VS Code test `payload` ([[key, value], …]). */
export function workbenchUrl(server, folder, payload) {
  let url = `${server.url}/?folder=${encodeURIComponent(folder)}`;
  if (payload) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return url;
}

/** Paths inside the payload are resolved by the server: vscode-remote://<host><abs path>. */
export const remoteUri = (server, absPath) => `vscode-remote://${server.host}${absPath}`;

// ---- driving the workbench UI ----

const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

export async function waitForWorkbench(page, timeout = 90_000) {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout });
  await page.locator('.part.statusbar').waitFor({ state: 'visible', timeout });
}

/** F1 → title → pick. Retries while the extension host is still registering contributed commands. */
export async function runCommand(page, title, { timeout = 60_000 } = {}) {
  const deadline = Date.now() + timeout;
  const input = page.locator('.quick-input-widget input.input');
  for (;;) {
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
    try {
      // an editor the extension opens meanwhile (a proposal's diff) closes the palette: open it again
      await input.fill(`>${title}`, { timeout: 5_000 });
      await row.waitFor({ state: 'visible', timeout: 5_000 });
      await row.click();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`command "${title}" never appeared in the palette`, { cause: error });
      await page.keyboard.press('Escape');
      await sleep(1_000);
    }
  }
}

/** Clicks a button of the workbench's modal dialog (VS Code's own, drawn in the page) whose label matches. */
export async function clickDialogButton(page, label, { timeout = 30_000 } = {}) {
  const button = page
    .locator('.monaco-dialog-box .dialog-buttons a.monaco-button, .monaco-dialog-box .dialog-buttons .monaco-button', {
      hasText: label,
    })
    .first();
  await button.waitFor({ state: 'visible', timeout });
  await button.click();
}

/** Resolves when a diff editor's modified side renders `text`; whitespace is ignored (word wrap, U+00A0). */
export async function waitForDiffShowing(page, text, timeout = 120_000) {
  await page.waitForFunction(
    (needle) =>
      [...document.querySelectorAll('.monaco-diff-editor .editor.modified .view-lines')].some((el) =>
        el.textContent.replace(/\s+/g, '').includes(needle.replace(/\s+/g, '')),
      ),
    text,
    { timeout, polling: 500 },
  );
}

/** Resolves when the side bar shows a view with content (tree rows, welcome content or a webview). */
export async function waitForSideBarContent(page, timeout = 60_000) {
  await page.waitForFunction(
    () => {
      const bar = document.querySelector('.part.sidebar');
      if (!bar || /no data provider registered/i.test(bar.textContent)) return false;
      return !!bar.querySelector(
        '.pane-body .monaco-list-row, .pane-body .welcome-view-content, .pane-body iframe.webview',
      );
    },
    null,
    { timeout, polling: 500 },
  );
}
