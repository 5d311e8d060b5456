// A throwaway copy of the acme-shop fixture plus an agent home whose sessions point at it.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TEMPLATE = join(REPO_ROOT, 'test', 'fixtures', 'workspace-template');
const EXAMPLE_SESSIONS = join(REPO_ROOT, 'examples', 'sessions', 'claude-code');
const DEV_SESSIONS = join(REPO_ROOT, 'test', 'fixtures', 'sessions-dev', 'claude-code');
/** Where the example sessions were recorded. */
const RECORDED_CWD = '/home/dev/acme-shop';

/** Claude Code's project folder name for a cwd (every non-alphanumeric character becomes '-'). */
const projectSlug = (cwd) => cwd.replace(/[^a-zA-Z0-9]/g, '-');

/** @param {{ sessions?: string }} [options] `sessions`: a Claude Code sessions folder other than the examples */
export function makeFixtureWorkspace({ sessions } = {}) {
  // realpath: /tmp may be a symlink, and the extension compares session cwds with the workspace path
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'combee-ws-')));
  const workspace = join(root, 'acme-shop');
  cpSync(TEMPLATE, workspace, { recursive: true });

  const source =
    sessions ?? process.env.COMBEE_FIXTURE_SESSIONS ?? (existsSync(EXAMPLE_SESSIONS) ? EXAMPLE_SESSIONS : DEV_SESSIONS);
  const sessionsDir = join(root, 'agent-home', '.claude');
  copyRewritten(source, sessionsDir, workspace);

  // Where sessions come from, who learns and which window are the user's own settings: a workspace cannot set them.
  const userSettings = {
    'combee.sources.defaultLocations': false,
    'combee.sources.extraFolders': [sessionsDir],
    'combee.provider': 'offline',
    // the example sessions span several weeks of October and November 2026: learn from all of them
    'combee.learn.windowDays': 0,
    // a test that makes the workspace a repository for a while (the rules' history): VS Code's own git stays out
    'git.enabled': false,
  };
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(join(workspace, '.vscode', 'settings.json'), '{}\n');

  return {
    workspace,
    sessionsDir,
    sessionsSource: source,
    userSettings,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Copies the sessions, moving them to the temp workspace (cwd in contents and in folder names). */
function copyRewritten(from, to, workspace) {
  const escaped = JSON.stringify(workspace).slice(1, -1);
  const recordedEscaped = JSON.stringify(RECORDED_CWD).slice(1, -1);
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const name = entry.name === projectSlug(RECORDED_CWD) ? projectSlug(workspace) : entry.name;
    const src = join(from, entry.name),
      dest = join(to, name);
    if (entry.isDirectory()) copyRewritten(src, dest, workspace);
    else if (entry.isFile()) {
      writeFileSync(dest, readFileSync(src, 'utf8').replaceAll(recordedEscaped, escaped));
    }
  }
}
