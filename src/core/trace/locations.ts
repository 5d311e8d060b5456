import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';
import type { AgentId } from './model';

export interface SourceFolder {
  agent: AgentId;
  path: string;
}

/** VS Code builds whose user data may hold Copilot Chat sessions. */
const COPILOT_EDITORS = ['Code', 'Code - Insiders', 'VSCodium'];
/** Editors (VS Code and its forks) where the Cline and Roo Code extensions run. */
const EXTENSION_EDITORS = ['Code', 'Code - Insiders', 'VSCodium', 'Cursor', 'Windsurf'];
const CLINE_EXTENSION = 'saoudrizwan.claude-dev';
const ROO_EXTENSION = 'rooveterinaryinc.roo-cline';

/**
 * Where agents keep their sessions by default, honouring their documented overrides. `platform` picks the layout
 * (and path flavour), so every platform's answer can be checked from any machine.
 * Aider has no default: its history file sits in each repository (`.aider.chat.history.md`).
 */
export function defaultSourceFolders(
  env: NodeJS.ProcessEnv = process.env,
  home = homedir(),
  platform: NodeJS.Platform = process.platform,
): SourceFolder[] {
  const path = platform === 'win32' ? win32 : posix;
  const join = path.join;
  const claudeRoots = env.CLAUDE_CONFIG_DIR
    ? env.CLAUDE_CONFIG_DIR.split(',')
        .map((p) => p.trim())
        .filter(Boolean)
    : [join(home, '.claude'), join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'claude')];
  const codexHome = env.CODEX_HOME ?? join(home, '.codex');
  // GEMINI_CLI_HOME stands in for the home folder, not for ~/.gemini (gemini-cli utils/paths.ts).
  const geminiHome = join(env.GEMINI_CLI_HOME ?? home, '.gemini');
  const copilotHome = env.COPILOT_HOME ?? join(home, '.copilot');
  const clineData = env.CLINE_DATA_DIR ?? (env.CLINE_DIR ? join(env.CLINE_DIR, 'data') : join(home, '.cline', 'data'));
  // OpenCode uses xdg-basedir everywhere, so Windows and macOS also get ~/.local/share.
  const openCodeData = join(env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'opencode');
  // The ≥1.2 database itself, not its folder: next to it are auth.json and a git store of snapshots.
  const openCodeDb =
    env.OPENCODE_DB && path.isAbsolute(env.OPENCODE_DB) ? env.OPENCODE_DB : join(openCodeData, 'opencode.db');
  const continueHome = env.CONTINUE_GLOBAL_DIR ?? join(home, '.continue');

  const folders: SourceFolder[] = [
    ...claudeRoots.map((root) => ({ agent: 'claude-code' as const, path: join(root, 'projects') })),
    { agent: 'codex', path: join(codexHome, 'sessions') },
    { agent: 'codex', path: join(codexHome, 'archived_sessions') },
    { agent: 'gemini-cli', path: join(geminiHome, 'tmp') },
    { agent: 'copilot', path: join(copilotHome, 'session-state') },
  ];
  for (const user of vscodeUserDirs(env, home, platform, COPILOT_EDITORS)) {
    folders.push({ agent: 'copilot', path: join(user, 'workspaceStorage') });
    folders.push({ agent: 'copilot', path: join(user, 'globalStorage', 'emptyWindowChatSessions') });
  }
  for (const user of vscodeUserDirs(env, home, platform, EXTENSION_EDITORS)) {
    folders.push({ agent: 'cline', path: join(user, 'globalStorage', CLINE_EXTENSION, 'tasks') });
    folders.push({ agent: 'roo-code', path: join(user, 'globalStorage', ROO_EXTENSION, 'tasks') });
  }
  folders.push(
    { agent: 'cline', path: join(clineData, 'tasks') },
    { agent: 'opencode', path: join(openCodeData, 'storage', 'session') },
    { agent: 'opencode', path: openCodeDb },
    { agent: 'continue', path: join(continueHome, 'sessions') },
    { agent: 'cursor', path: join(home, '.cursor', 'projects') },
  );
  // Cursor IDE chats: the global state.vscdb holds every composer, workspace databases the old chat pane.
  // (The first entry: portable and remote installs are VS Code's, not Cursor's.)
  const cursorUser = vscodeUserDirs(env, home, platform, ['Cursor'])[0];
  folders.push(
    { agent: 'cursor', path: join(cursorUser, 'globalStorage', 'state.vscdb') },
    { agent: 'cursor', path: join(cursorUser, 'workspaceStorage') },
  );
  return folders;
}

/** `<UserData>/User` of each editor: %APPDATA%, ~/Library/Application Support or $XDG_CONFIG_HOME, plus remote and portable installs. */
function vscodeUserDirs(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform, editors: string[]): string[] {
  const { join } = platform === 'win32' ? win32 : posix;
  const base =
    platform === 'win32'
      ? (env.APPDATA ?? join(home, 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? join(home, 'Library', 'Application Support')
        : (env.XDG_CONFIG_HOME ?? join(home, '.config'));
  const dirs = editors.map((editor) => join(base, editor, 'User'));
  // A portable install keeps its data next to the binary; VS Code exports that folder as VSCODE_PORTABLE.
  if (env.VSCODE_PORTABLE) dirs.push(join(env.VSCODE_PORTABLE, 'user-data', 'User'));
  // The VS Code server (Remote-SSH, WSL, tunnels) writes the extensions' data on the remote machine.
  if (platform !== 'win32') dirs.push(join(home, '.vscode-server', 'data', 'User'));
  return dirs;
}

/**
 * SpecStory histories live in each repository (`.specstory/history`), not in an agent's home: one folder per workspace
 * folder, holding several agents' chats (each file goes to the agent its head names).
 */
export function specStoryFolders(workspaceFolders: string[]): string[] {
  return workspaceFolders.map((folder) => posixOrWin(folder).join(folder, '.specstory', 'history'));
}

function posixOrWin(path: string): typeof posix {
  return /^[A-Za-z]:[\\/]|^\\\\/.test(path) ? win32 : posix;
}
