import assert from 'node:assert/strict';
import { defaultSourceFolders, specStoryFolders, type SourceFolder } from '../../../src/core/trace/locations';
import type { AgentId } from '../../../src/core/trace/model';

const pathsOf = (folders: SourceFolder[], agent: AgentId) =>
  folders.filter((f) => f.agent === agent).map((f) => f.path);

describe('default source folders', () => {
  it('lists every agent with a default location on Linux, with the Claude and Codex entries unchanged', () => {
    const folders = defaultSourceFolders({}, '/home/dev', 'linux');
    assert.deepEqual(pathsOf(folders, 'claude-code'), [
      '/home/dev/.claude/projects',
      '/home/dev/.config/claude/projects',
    ]);
    assert.deepEqual(pathsOf(folders, 'codex'), ['/home/dev/.codex/sessions', '/home/dev/.codex/archived_sessions']);
    assert.deepEqual(pathsOf(folders, 'gemini-cli'), ['/home/dev/.gemini/tmp']);
    const copilot = pathsOf(folders, 'copilot');
    assert.ok(copilot.includes('/home/dev/.copilot/session-state'));
    assert.ok(copilot.includes('/home/dev/.config/Code/User/workspaceStorage'));
    assert.ok(copilot.includes('/home/dev/.config/Code - Insiders/User/workspaceStorage'));
    assert.ok(copilot.includes('/home/dev/.config/Code/User/globalStorage/emptyWindowChatSessions'));
    assert.ok(
      copilot.includes('/home/dev/.vscode-server/data/User/workspaceStorage'),
      'remote sessions live on the remote host',
    );
    const cline = pathsOf(folders, 'cline');
    assert.ok(cline.includes('/home/dev/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks'));
    assert.ok(
      cline.includes('/home/dev/.config/Cursor/User/globalStorage/saoudrizwan.claude-dev/tasks'),
      'the extension also runs in VS Code forks',
    );
    assert.ok(cline.includes('/home/dev/.cline/data/tasks'));
    assert.ok(
      pathsOf(folders, 'roo-code').includes(
        '/home/dev/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks',
      ),
    );
    assert.deepEqual(pathsOf(folders, 'opencode'), [
      '/home/dev/.local/share/opencode/storage/session',
      '/home/dev/.local/share/opencode/opencode.db',
    ]);
    assert.deepEqual(pathsOf(folders, 'continue'), ['/home/dev/.continue/sessions']);
    assert.deepEqual(pathsOf(folders, 'cursor'), [
      '/home/dev/.cursor/projects',
      '/home/dev/.config/Cursor/User/globalStorage/state.vscdb',
      '/home/dev/.config/Cursor/User/workspaceStorage',
    ]);
    assert.deepEqual(pathsOf(folders, 'aider'), [], 'aider keeps its history in each repository');
  });

  it('honours the documented overrides', () => {
    const folders = defaultSourceFolders(
      {
        CLAUDE_CONFIG_DIR: '/c1, /c2',
        CODEX_HOME: '/codex',
        GEMINI_CLI_HOME: '/g',
        COPILOT_HOME: '/cp',
        XDG_CONFIG_HOME: '/xdg/config',
        XDG_DATA_HOME: '/xdg/data',
        CONTINUE_GLOBAL_DIR: '/cont',
        CLINE_DIR: '/cl',
        VSCODE_PORTABLE: '/opt/vscode/data',
      },
      '/home/dev',
      'linux',
    );
    assert.deepEqual(pathsOf(folders, 'claude-code'), ['/c1/projects', '/c2/projects']);
    assert.deepEqual(pathsOf(folders, 'codex'), ['/codex/sessions', '/codex/archived_sessions']);
    assert.deepEqual(
      pathsOf(folders, 'gemini-cli'),
      ['/g/.gemini/tmp'],
      'GEMINI_CLI_HOME replaces the home folder, not ~/.gemini',
    );
    assert.ok(pathsOf(folders, 'copilot').includes('/cp/session-state'));
    assert.ok(pathsOf(folders, 'copilot').includes('/xdg/config/Code/User/workspaceStorage'));
    assert.ok(pathsOf(folders, 'copilot').includes('/opt/vscode/data/user-data/User/workspaceStorage'));
    assert.ok(pathsOf(folders, 'cline').includes('/cl/data/tasks'));
    assert.deepEqual(pathsOf(folders, 'opencode'), [
      '/xdg/data/opencode/storage/session',
      '/xdg/data/opencode/opencode.db',
    ]);
    assert.ok(pathsOf(folders, 'cursor').includes('/xdg/config/Cursor/User/globalStorage/state.vscdb'));
    assert.deepEqual(pathsOf(defaultSourceFolders({ OPENCODE_DB: '/db/oc.db' }, '/home/dev', 'linux'), 'opencode'), [
      '/home/dev/.local/share/opencode/storage/session',
      '/db/oc.db',
    ]);
    assert.deepEqual(pathsOf(folders, 'continue'), ['/cont/sessions']);
    assert.ok(
      pathsOf(
        defaultSourceFolders({ CLINE_DATA_DIR: '/cd', CLINE_DIR: '/cl' }, '/home/dev', 'linux'),
        'cline',
      ).includes('/cd/tasks'),
      'CLINE_DATA_DIR wins',
    );
  });

  it('uses Application Support on macOS', () => {
    const folders = defaultSourceFolders({}, '/Users/dev', 'darwin');
    assert.ok(
      pathsOf(folders, 'copilot').includes('/Users/dev/Library/Application Support/Code/User/workspaceStorage'),
    );
    assert.ok(
      pathsOf(folders, 'roo-code').includes(
        '/Users/dev/Library/Application Support/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks',
      ),
    );
    assert.deepEqual(
      pathsOf(folders, 'opencode'),
      ['/Users/dev/.local/share/opencode/storage/session', '/Users/dev/.local/share/opencode/opencode.db'],
      'OpenCode uses XDG paths on macOS too',
    );
    assert.ok(
      pathsOf(folders, 'cursor').includes(
        '/Users/dev/Library/Application Support/Cursor/User/globalStorage/state.vscdb',
      ),
    );
    assert.deepEqual(pathsOf(folders, 'gemini-cli'), ['/Users/dev/.gemini/tmp']);
  });

  it('uses %APPDATA% and Windows paths on Windows', () => {
    const folders = defaultSourceFolders({ APPDATA: 'C:\\Users\\dev\\AppData\\Roaming' }, 'C:\\Users\\dev', 'win32');
    assert.ok(pathsOf(folders, 'copilot').includes('C:\\Users\\dev\\AppData\\Roaming\\Code\\User\\workspaceStorage'));
    assert.ok(pathsOf(folders, 'copilot').includes('C:\\Users\\dev\\.copilot\\session-state'));
    assert.ok(
      pathsOf(folders, 'cline').includes(
        'C:\\Users\\dev\\AppData\\Roaming\\Code\\User\\globalStorage\\saoudrizwan.claude-dev\\tasks',
      ),
    );
    assert.deepEqual(pathsOf(folders, 'codex'), [
      'C:\\Users\\dev\\.codex\\sessions',
      'C:\\Users\\dev\\.codex\\archived_sessions',
    ]);
    assert.deepEqual(pathsOf(folders, 'gemini-cli'), ['C:\\Users\\dev\\.gemini\\tmp']);
    assert.deepEqual(pathsOf(folders, 'opencode'), [
      'C:\\Users\\dev\\.local\\share\\opencode\\storage\\session',
      'C:\\Users\\dev\\.local\\share\\opencode\\opencode.db',
    ]);
    assert.deepEqual(pathsOf(folders, 'continue'), ['C:\\Users\\dev\\.continue\\sessions']);
    assert.deepEqual(pathsOf(folders, 'cursor'), [
      'C:\\Users\\dev\\.cursor\\projects',
      'C:\\Users\\dev\\AppData\\Roaming\\Cursor\\User\\globalStorage\\state.vscdb',
      'C:\\Users\\dev\\AppData\\Roaming\\Cursor\\User\\workspaceStorage',
    ]);
    assert.ok(!folders.some((f) => f.path.includes('.vscode-server')));
    const fallback = defaultSourceFolders({}, 'C:\\Users\\dev', 'win32');
    assert.ok(
      pathsOf(fallback, 'copilot').includes('C:\\Users\\dev\\AppData\\Roaming\\Code\\User\\workspaceStorage'),
      'APPDATA unset',
    );
  });

  it('keeps its two-argument form working', () => {
    const folders = defaultSourceFolders({ CODEX_HOME: '/codex' }, '/home/dev');
    assert.ok(folders.some((f) => f.agent === 'codex' && f.path.endsWith('sessions')));
  });

  it("puts each workspace folder's SpecStory histories among the folders read", () => {
    assert.deepEqual(specStoryFolders(['/home/dev/app', 'C:\\work\\site']), [
      '/home/dev/app/.specstory/history',
      'C:\\work\\site\\.specstory\\history',
    ]);
  });
});
