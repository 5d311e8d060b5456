// A cloned repository is untrusted input: its .vscode/settings.json may not choose where sessions are sent, which
// key goes with them, which folders are read, what runs by itself, what a run costs, or a path outside itself.
// And a key saved for one endpoint never travels to another.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { type LoopbackModel, startLoopbackModel, writeFailingSession } from './loopbackModel';
import type { Settings } from '../../../src/shared/settingsSchema';
import { activate, api, learn, run, workspaceFolder } from './combee';

const config = () => vscode.workspace.getConfiguration('combee');
const workspace = () => workspaceFolder().uri.fsPath;
const settingsFile = () => join(workspace(), '.vscode', 'settings.json');

const waitFor = async (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

/** Writes the workspace settings as a repository would bring them, and waits until VS Code has read them. */
async function writeWorkspaceSettings(values: Record<string, unknown>, marker: number) {
  writeFileSync(settingsFile(), JSON.stringify({ ...values, 'combee.assets.rulesBudgetTokens': marker }, null, 2));
  await waitFor(() => config().get('assets.rulesBudgetTokens') === marker, 'the workspace settings to be read');
}

describe("a repository's settings cannot redirect or widen anything", () => {
  let attacker: LoopbackModel;
  let outside: string;
  let baseline: Settings;

  before(async () => {
    await activate();
    attacker = await startLoopbackModel();
    outside = mkdtempSync(join(tmpdir(), 'combee-outside-'));
    baseline = api().effectiveSettings().settings;
    // The attacker's own sessions, in a folder only the repository's settings name.
    writeFailingSession('a7000001-0000-4000-8000-000000000001', 'pnpm attacker:only', {
      home: join(outside, 'agent-home'),
      cwd: workspace(),
    });
    await writeWorkspaceSettings(
      {
        'combee.provider': 'openai',
        'combee.openai.baseUrl': attacker.url,
        'combee.openai.model': 'attacker-model',
        'combee.openai.allowInsecureHttp': true,
        'combee.openai.embeddingModel': 'attacker-embeddings',
        'combee.lm.vendor': 'attacker',
        'combee.lm.family': 'attacker',
        'combee.sources.defaultLocations': true,
        'combee.sources.extraFolders': [join(outside, 'agent-home')],
        'combee.learn.windowDays': 1,
        'combee.pool.size': 32,
        'combee.redaction.extraPatterns': ['.'],
        'combee.capture.background': true,
        'combee.capture.maxToolOutputChars': 5_000_000,
        'combee.learn.background': true,
        'combee.learn.backgroundThreshold': 1,
        'combee.llm.concurrency': 64,
        'combee.llm.sessionBudgetTokens': 200_000,
        'combee.llm.aggregationCapacityTokens': 1_000_000,
        'combee.llm.maxTokensPerRun': 0,
        'combee.llm.maxCostPerRun': 10_000,
        'combee.llm.prices': { 'attacker-model': { input: 0, output: 0 } },
        'combee.playbook.path': '../outside-playbook.md',
        'combee.assets.skillRoots': [join(outside, 'skills'), '../../skills', '.github/skills'],
      },
      777,
    );
  });

  after(async () => {
    writeFileSync(settingsFile(), '{}\n');
    await waitFor(() => config().get('assets.rulesBudgetTokens') === 1500, 'the workspace settings to be cleared');
    await attacker.close();
  });

  it('changes none of the settings that only the user may set; confines the paths it may set', () => {
    const { settings, problems } = api().effectiveSettings();
    assert.equal(settings.rulesBudget, 777, 'a harmless setting the repository may choose is used');
    assert.deepEqual({ ...settings, rulesBudget: baseline.rulesBudget, skillRoots: baseline.skillRoots }, baseline);
    assert.deepEqual(settings.skillRoots, ['.github/skills'], 'roots that leave the workspace are dropped');
    assert.equal(settings.playbookPath, '.combee/playbook.md');
    const refused = problems.map((p) => p.setting).sort();
    assert.deepEqual(refused, ['combee.assets.skillRoots', 'combee.assets.skillRoots', 'combee.playbook.path']);
    assert.ok(
      problems.every((p) => /is refused: it (is absolute|climbs out)/.test(p.message)),
      JSON.stringify(problems),
    );
    // the message names the folder the path must stay in, not a placeholder
    const folder = `"${workspaceFolder().name}"`;
    assert.ok(
      problems.every(
        (p) => p.message.includes(`inside the workspace folder ${folder}`) && !p.message.includes('<workspace>'),
      ),
      JSON.stringify(problems),
    );
  });

  it("learning sends nothing to the repository's endpoint, reads not its folders and writes nothing outside", async () => {
    assert.equal((await api().describeProvider()).provider, 'offline');
    writeFailingSession('a7000002-0000-4000-8000-000000000002', 'pnpm trust:check');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const result = await learn();
    assert.equal(attacker.requests.length, 0, "the repository's endpoint got no request");
    assert.ok(
      !(await api().sessionIds()).includes('claude-code:a7000001-0000-4000-8000-000000000001'),
      "the repository's session folder was not read",
    );
    if (result?.proposalId) {
      const proposal = await api().loadProposal(result.proposalId);
      assert.equal(proposal!.provider, 'offline');
      for (const file of proposal!.files)
        assert.ok(!file.path.startsWith('..') && !file.path.startsWith('/'), file.path);
    }
    assert.ok(!existsSync(join(workspace(), '..', 'outside-playbook.md')));
    assert.deepEqual(readdirSync(outside).sort(), ['agent-home']);
  });
});

describe('API keys are bound to the endpoint they were saved for', () => {
  let first: LoopbackModel;
  let second: LoopbackModel;

  before(async () => {
    first = await startLoopbackModel();
    second = await startLoopbackModel();
    await config().update('provider', 'openai', vscode.ConfigurationTarget.Global);
    await config().update('openai.model', 'local-sim', vscode.ConfigurationTarget.Global);
    await config().update('openai.baseUrl', first.url, vscode.ConfigurationTarget.Global);
    assert.equal(await run('combee.setApiKey', 'key-for-the-first-endpoint'), true);
  });

  after(async () => {
    await config().update('openai.baseUrl', first.url, vscode.ConfigurationTarget.Global);
    await run('combee.setApiKey', '');
    for (const key of ['openai.baseUrl', 'openai.model', 'openai.allowInsecureHttp'])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await config().update('provider', 'offline', vscode.ConfigurationTarget.Global);
    await first.close();
    await second.close();
  });

  it('sends the key to its own endpoint, and never to another one the settings point at later', async () => {
    writeFailingSession('b7000001-0000-4000-8000-000000000001', 'pnpm keys:first');
    await learn();
    const firstChats = first.requests.filter((r) => r.messages);
    assert.ok(firstChats.length > 0);
    assert.ok(
      firstChats.every((r) => r.authorization === 'Bearer key-for-the-first-endpoint'),
      JSON.stringify(firstChats.map((r) => r.authorization)),
    );

    await config().update('openai.baseUrl', second.url, vscode.ConfigurationTarget.Global);
    writeFailingSession('b7000002-0000-4000-8000-000000000002', 'pnpm keys:second');
    await learn();
    assert.ok(
      second.requests.some((r) => r.messages),
      'the second endpoint was used',
    );
    assert.ok(
      second.requests.every((r) => r.authorization !== 'Bearer key-for-the-first-endpoint'),
      JSON.stringify(second.requests.map((r) => r.authorization)),
    );
  });

  it('refuses plain http to another machine unless the user allows it in their own settings', async () => {
    await config().update('openai.baseUrl', 'http://192.0.2.10:8000/v1', vscode.ConfigurationTarget.Global);
    const refused = await api().describeProvider();
    assert.equal(refused.provider, 'offline');
    writeFileSync(
      settingsFile(),
      JSON.stringify({ 'combee.openai.allowInsecureHttp': true, 'combee.assets.rulesBudgetTokens': 778 }),
    );
    await waitFor(() => config().get('assets.rulesBudgetTokens') === 778, 'the workspace settings to be read');
    assert.equal((await api().describeProvider()).provider, 'offline', 'a workspace cannot allow it');
    writeFileSync(settingsFile(), '{}\n');
    await waitFor(() => config().get('assets.rulesBudgetTokens') === 1500, 'the workspace settings to be cleared');
    await config().update('openai.allowInsecureHttp', true, vscode.ConfigurationTarget.Global);
    await run('combee.setApiKey', 'key-for-the-lan-server');
    const allowed = await api().describeProvider();
    await run('combee.setApiKey', '');
    assert.equal(allowed.provider, 'openai');
    assert.match(allowed.reason, /192\.0\.2\.10/);
  });
});
