import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { posix, resolve, win32 } from 'node:path';
import { defaultStoreDir } from './traceStore';

// The extension keeps its store in VS Code's per-extension global storage (`context.globalStorageUri`); the CLI uses
// the same one when the user has it, so that what one front end records (sessions, proposals, decisions to undo) the
// other sees.

/** The folder VS Code names an extension's global storage after: its id, `publisher.name`, in lower case. */
export const EXTENSION_STORAGE_NAME = 'combee.combee';

export interface ExtensionStore {
  /** Which editor keeps it, as a person names it. */
  editor: string;
  dir: string;
}

/** Where each editor that can run the extension keeps its global storage, for this user (existing or not). */
export function extensionStoreFolders(
  env: NodeJS.ProcessEnv = process.env,
  home = homedir(),
  platform: NodeJS.Platform = process.platform,
): ExtensionStore[] {
  const { join } = platform === 'win32' ? win32 : posix;
  // VS Code's own user data: %APPDATA%, ~/Library/Application Support or $XDG_CONFIG_HOME (VSCODE_APPDATA overrides)
  const appData =
    env.VSCODE_APPDATA ??
    (platform === 'win32'
      ? (env.APPDATA ?? join(home, 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? join(home, 'Library', 'Application Support')
        : (env.XDG_CONFIG_HOME ?? join(home, '.config')));
  // code-server keeps its user data in the platform's data folder (env-paths), not VS Code's
  const codeServerData =
    platform === 'win32'
      ? join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'code-server', 'Data')
      : platform === 'darwin'
        ? join(home, 'Library', 'Application Support', 'code-server')
        : join(env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'code-server');
  const users: Array<{ editor: string; user: string }> = [
    { editor: 'VS Code', user: join(appData, 'Code', 'User') },
    { editor: 'VS Code Insiders', user: join(appData, 'Code - Insiders', 'User') },
    { editor: 'VSCodium', user: join(appData, 'VSCodium', 'User') },
    { editor: 'code-server', user: join(codeServerData, 'User') },
  ];
  // a portable VS Code keeps its data next to the binary
  if (env.VSCODE_PORTABLE)
    users.push({ editor: 'VS Code (portable)', user: join(env.VSCODE_PORTABLE, 'user-data', 'User') });
  // the VS Code server (Remote-SSH, WSL, tunnels) runs extensions on this machine with its own data folder
  if (platform !== 'win32')
    users.push(
      { editor: 'VS Code Server', user: join(home, '.vscode-server', 'data', 'User') },
      { editor: 'VS Code Insiders Server', user: join(home, '.vscode-server-insiders', 'data', 'User') },
    );
  return users.map(({ editor, user }) => ({ editor, dir: join(user, 'globalStorage', EXTENSION_STORAGE_NAME) }));
}

/** When a store was last written: its folder's or a top-level entry's newest modification. */
function lastWritten(dir: string): number {
  let newest = statSync(dir).mtimeMs;
  for (const name of readdirSync(dir)) {
    try {
      newest = Math.max(newest, statSync(`${dir}/${name}`).mtimeMs);
    } catch {
      // removed while looked at: it does not count
    }
  }
  return newest;
}

/** The extension's stores this user has, the most recently written first (ties in the editors' order). */
export function findExtensionStores(
  env: NodeJS.ProcessEnv = process.env,
  home = homedir(),
  platform: NodeJS.Platform = process.platform,
): ExtensionStore[] {
  const found = extensionStoreFolders(env, home, platform).flatMap((store, order) => {
    try {
      return existsSync(store.dir) && statSync(store.dir).isDirectory()
        ? [{ store, order, written: lastWritten(store.dir) }]
        : [];
    } catch {
      return [];
    }
  });
  return found.sort((a, b) => b.written - a.written || a.order - b.order).map((f) => f.store);
}

export interface StoreChoice {
  dir: string;
  /** `--store`, `$COMBEE_STORE`, the extension's store, or the CLI's own folder when the user has no extension store. */
  source: 'flag' | 'env' | 'extension' | 'default';
  /** The editor whose extension store it is. */
  editor?: string;
  /** Other editors' extension stores, not used. */
  others: ExtensionStore[];
}

/** The store a CLI command uses: `--store`, else `$COMBEE_STORE`, else the extension's, else the CLI's own folder. */
export function chooseStore(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  home = homedir(),
  platform: NodeJS.Platform = process.platform,
): StoreChoice {
  if (flag !== undefined) return { dir: resolve(flag), source: 'flag', others: [] };
  if (env.COMBEE_STORE) return { dir: resolve(env.COMBEE_STORE), source: 'env', others: [] };
  const [used, ...others] = findExtensionStores(env, home, platform);
  if (used) return { dir: used.dir, source: 'extension', editor: used.editor, others };
  return { dir: defaultStoreDir(env), source: 'default', others: [] };
}

/** One line saying which store a command used and why (nothing for `--store`: the user named it). */
export function describeStoreChoice(choice: StoreChoice): string | undefined {
  switch (choice.source) {
    case 'flag':
      return undefined;
    case 'env':
      return `store: ${choice.dir} ($COMBEE_STORE)`;
    case 'extension': {
      const others = choice.others.length
        ? `, the most recently written; also found ${choice.others.map((o) => `${o.editor}'s (${o.dir})`).join(', ')}: pass --store to use another`
        : '';
      return `store: ${choice.dir} (the extension's, in ${choice.editor}${others})`;
    }
    case 'default':
      return `store: ${choice.dir} (no VS Code, Insiders, VSCodium or code-server store of the extension found; pass --store to choose)`;
  }
}
