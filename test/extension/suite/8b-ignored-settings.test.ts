// A repository's value for a setting only the user may set is ignored (8-settings-trust.test.ts); the user is told
// so in a notification with Show Log, once per workspace per setting, not at every change of the settings.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activate, api, workspaceFolder } from './combee';

const config = () => vscode.workspace.getConfiguration('combee');
const settingsFile = () => join(workspaceFolder().uri.fsPath, '.vscode', 'settings.json');

const waitFor = async (check: () => boolean, what: string, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

/** The repository's settings, with a harmless marker to know VS Code has read them. */
async function writeRepositorySettings(values: Record<string, unknown>, marker: number) {
  writeFileSync(settingsFile(), JSON.stringify({ ...values, 'combee.assets.rulesBudgetTokens': marker }, null, 2));
  await waitFor(() => config().get('assets.rulesBudgetTokens') === marker, 'the workspace settings to be read');
}

// a user-only setting no other test writes into the repository's settings
const SETTING = 'combee.llm.requestTimeoutSeconds';
const noticesOf = (setting: string) =>
  api()
    .ignoredSettingNotices()
    .filter((m) => m.includes(setting));

describe("a repository's ignored setting is said once", () => {
  before(activate);

  after(async () => {
    writeFileSync(settingsFile(), '{}\n');
    await waitFor(() => config().get('assets.rulesBudgetTokens') === 1500, 'the workspace settings to be cleared');
  });

  it('notifies once that the value was ignored, and not again when the settings change or set it again', async () => {
    assert.deepEqual(noticesOf(SETTING), []);
    // another test's repository settings may have been noticed before this one: only this test's notices count
    const earlier = api().ignoredSettingNotices().length;
    // JSONC as VS Code writes it: a commented-out key is not a value
    writeFileSync(settingsFile(), '{\n  // "combee.openai.model": "x",\n  "combee.assets.rulesBudgetTokens": 901\n}\n');
    await waitFor(() => config().get('assets.rulesBudgetTokens') === 901, 'the workspace settings to be read');
    await writeRepositorySettings({ [SETTING]: 1 }, 902);
    await waitFor(() => noticesOf(SETTING).length > 0, 'the notice');
    const [notice] = noticesOf(SETTING);
    assert.match(notice, /Combee ignored this repository's .*combee\.llm\.requestTimeoutSeconds/);
    assert.match(notice, /only your user settings choose/);
    assert.equal(config().get('llm.requestTimeoutSeconds') === 1, false, 'the value itself is not used');

    await writeRepositorySettings({ [SETTING]: 2 }, 903);
    await writeRepositorySettings({ [SETTING]: 3, 'combee.assets.targets': ['agents-md'] }, 904);
    // after every check the changes started, one more: it finds the setting and shows nothing
    assert.deepEqual(await api().checkIgnoredSettings(), []);
    assert.equal(noticesOf(SETTING).length, 1, JSON.stringify(api().ignoredSettingNotices()));
    assert.ok(
      api()
        .ignoredSettingNotices()
        .slice(earlier)
        .every((m) => !m.includes('combee.openai.model')),
      'a commented-out key is no setting',
    );
  });
});
