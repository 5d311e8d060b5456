import assert from 'node:assert/strict';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import {
  chooseStore,
  describeStoreChoice,
  extensionStoreFolders,
  findExtensionStores,
} from '../../../src/core/store/storeLocation';
import { capture } from '../../../testing/cliOutput';
import { tempDir } from '../../../testing/tmp';

// The CLI finds the extension's store of this user, so both front ends share sessions, proposals and the undo stack.

/** A store folder as the extension leaves it, last written at `when` (seconds since the epoch). */
function makeStore(dir: string, when: number): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'imports.json'), '{}');
  utimesSync(join(dir, 'imports.json'), when, when);
  utimesSync(dir, when, when);
  return dir;
}

const linux = (home: string, env: NodeJS.ProcessEnv = {}) => ({ env: { HOME: home, ...env }, home });

describe("the CLI's store: the extension's, found for this user", () => {
  it("names each editor's global storage folder on Linux, macOS and Windows", () => {
    const onLinux = extensionStoreFolders({}, '/home/ada', 'linux');
    assert.deepEqual(
      onLinux.slice(0, 4).map((s) => [s.editor, s.dir]),
      [
        ['VS Code', '/home/ada/.config/Code/User/globalStorage/combee.combee'],
        ['VS Code Insiders', '/home/ada/.config/Code - Insiders/User/globalStorage/combee.combee'],
        ['VSCodium', '/home/ada/.config/VSCodium/User/globalStorage/combee.combee'],
        ['code-server', '/home/ada/.local/share/code-server/User/globalStorage/combee.combee'],
      ],
    );
    assert.ok(onLinux.some((s) => s.dir === '/home/ada/.vscode-server/data/User/globalStorage/combee.combee'));
    const xdg = extensionStoreFolders({ XDG_CONFIG_HOME: '/cfg', XDG_DATA_HOME: '/data' }, '/home/ada', 'linux');
    assert.equal(xdg[0].dir, '/cfg/Code/User/globalStorage/combee.combee');
    assert.equal(xdg[3].dir, '/data/code-server/User/globalStorage/combee.combee');
    assert.equal(
      extensionStoreFolders({}, '/Users/ada', 'darwin')[0].dir,
      '/Users/ada/Library/Application Support/Code/User/globalStorage/combee.combee',
    );
    const windows = extensionStoreFolders({ APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'C:\\Users\\ada', 'win32');
    assert.equal(windows[0].dir, 'C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\globalStorage\\combee.combee');
    assert.ok(!windows.some((s) => s.dir.includes('.vscode-server')));
  });

  it('finds only the stores that exist, the most recently written first', () => {
    const home = tempDir('combee-store-find-');
    const { env } = linux(home);
    assert.deepEqual(findExtensionStores(env, home, 'linux'), []);
    const codium = makeStore(join(home, '.config/VSCodium/User/globalStorage/combee.combee'), 1_800_000_000);
    const server = makeStore(join(home, '.local/share/code-server/User/globalStorage/combee.combee'), 1_700_000_000);
    // another extension's storage beside it is not Combee's
    mkdirSync(join(home, '.config/Code/User/globalStorage/someone.else'), { recursive: true });
    assert.deepEqual(
      findExtensionStores(env, home, 'linux').map((s) => [s.editor, s.dir]),
      [
        ['VSCodium', codium],
        ['code-server', server],
      ],
    );
  });

  it('--store, then $COMBEE_STORE, then the extension store, then the old per-user folder', () => {
    const home = tempDir('combee-store-choose-');
    const { env } = linux(home, { XDG_DATA_HOME: join(home, 'data') });
    const fallback = chooseStore(undefined, env, home, 'linux');
    assert.deepEqual(fallback, { dir: join(home, 'data', 'combee'), source: 'default', others: [] });
    assert.match(
      describeStoreChoice(fallback) ?? '',
      /^store: .*data\/combee \(no VS Code, Insiders, VSCodium or code-server store/,
    );

    const code = makeStore(join(home, '.config/Code/User/globalStorage/combee.combee'), 1_700_000_000);
    const chosen = chooseStore(undefined, env, home, 'linux');
    assert.deepEqual([chosen.source, chosen.editor, chosen.dir], ['extension', 'VS Code', code]);
    assert.equal(describeStoreChoice(chosen), `store: ${code} (the extension's, in VS Code)`);

    const insiders = makeStore(join(home, '.config/Code - Insiders/User/globalStorage/combee.combee'), 1_800_000_000);
    const newest = chooseStore(undefined, env, home, 'linux');
    assert.equal(newest.dir, insiders);
    assert.match(describeStoreChoice(newest) ?? '', /the most recently written; also found VS Code's \(/);

    assert.equal(
      chooseStore(undefined, { ...env, COMBEE_STORE: join(home, 'mine') }, home, 'linux').dir,
      join(home, 'mine'),
    );
    const flag = chooseStore(join(home, 'given'), { ...env, COMBEE_STORE: join(home, 'mine') }, home, 'linux');
    assert.deepEqual([flag.source, flag.dir], ['flag', join(home, 'given')]);
    assert.equal(describeStoreChoice(flag), undefined, 'a store the user named needs no word');
  });

  it("combee without --store reads the extension store and says so on stderr; undo there is the extension's undo", async () => {
    const home = tempDir('combee-store-cli-');
    const saved = {
      HOME: process.env.HOME,
      XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME,
      XDG_DATA_HOME: process.env.XDG_DATA_HOME,
    };
    const store = makeStore(join(home, 'cfg/Code/User/globalStorage/combee.combee'), 1_700_000_000);
    process.env.HOME = home;
    process.env.XDG_CONFIG_HOME = join(home, 'cfg');
    process.env.XDG_DATA_HOME = join(home, 'data');
    try {
      const out = capture();
      assert.equal(await runCli(['undo', '--workspace', join(home, 'repo')], out), 0, out.stderr.join('\n'));
      assert.deepEqual(out.stderr, [`store: ${store} (the extension's, in VS Code)`]);
    } finally {
      for (const [key, value] of Object.entries(saved))
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
    }
  });
});
