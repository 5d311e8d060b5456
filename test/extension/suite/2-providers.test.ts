// Provider choice inside the real VS Code: no Copilot here, so vscode.lm has no models and Combee must fall back.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activate } from './combee';
import type { CombeeApi } from '../../../src/extension/extension';

describe('providers in the real VS Code', () => {
  let api: CombeeApi;
  const config = () => vscode.workspace.getConfiguration('combee');

  before(async () => {
    api = await activate();
  });

  afterEach(async () => {
    for (const key of ['provider', 'openai.baseUrl'])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await config().update('provider', 'offline', vscode.ConfigurationTarget.Global);
  });

  it('vscode.lm offers no chat models offline', async () => {
    assert.deepEqual(await vscode.lm.selectChatModels(), []);
  });

  it('provider "vscode" with no models falls back to the offline learner', async () => {
    await config().update('provider', 'vscode', vscode.ConfigurationTarget.Global);
    const choice = await api.describeProvider();
    assert.equal(choice.provider, 'offline');
    assert.match(choice.reason, /offline learner/);
  });

  it('provider "auto" with a local endpoint and no key uses that endpoint', async () => {
    await config().update('provider', 'auto', vscode.ConfigurationTarget.Global);
    await config().update('openai.baseUrl', 'http://127.0.0.1:11434/v1', vscode.ConfigurationTarget.Global);
    const choice = await api.describeProvider();
    assert.equal(choice.provider, 'openai');
    assert.match(choice.reason, /127\.0\.0\.1:11434/);
  });

  it('provider "auto" with nothing configured is the offline learner', async () => {
    await config().update('provider', 'auto', vscode.ConfigurationTarget.Global);
    assert.equal((await api.describeProvider()).provider, 'offline');
  });
});
