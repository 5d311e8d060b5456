// Learning through a local OpenAI-compatible endpoint given by its base URL, inside the real VS Code: the worker
// thread calls a loopback server that answers like a model (a tiny simulation written here).
const assert = require('node:assert/strict');
const { createServer } = require('node:http');
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const vscode = require('vscode');

/** Reflection prompts: one lesson per failing command; aggregation prompts: every lesson, citing its labels. */
function answer(body) {
  const prompt = body.messages.map((m) => m.content).join('\n');
  if (/You review one coding-agent session/.test(prompt)) {
    const lessons = [];
    const lines = prompt.split('\n');
    lines.forEach((line, i) => {
      const call = /^#(\d+) TOOL \w+: \$ (.+)$/.exec(line);
      const failed = /^#(\d+) RESULT FAILED/.exec(lines[i + 1] ?? '');
      if (call && failed) lessons.push({ section: 'Pitfalls', content: `Endpoint lesson: \`${call[2]}\` needs its prerequisites first.`, kind: 'pitfall', evidence_steps: [Number(call[1]), Number(failed[1])] });
    });
    return { lessons, bullet_tags: [] };
  }
  const items = [...prompt.matchAll(/^((?:L|D)[\d.]+) \(\d+ session\(s\)\): (?:\[[^\]]*\] |ADD to "[^"]*": )?(.*)$/gm)];
  const byText = new Map();
  for (const [, label, text] of items) byText.set(text, [...(byText.get(text) ?? []), label]);
  return { operations: [...byText].map(([content, sources]) => ({ type: 'ADD', section: 'Pitfalls', content, kind: 'pitfall', sources })) };
}

describe('learning through a local OpenAI-compatible endpoint', () => {
  let server;
  let url;
  const requests = [];
  const config = () => vscode.workspace.getConfiguration('combee');

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        if (!req.url.endsWith('/chat/completions')) {
          res.writeHead(404).end('{}');
          return;
        }
        const request = JSON.parse(body);
        requests.push(request);
        const content = JSON.stringify(answer(request));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: request.model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } }));
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${server.address().port}/v1`;
    await config().update('provider', 'openai', vscode.ConfigurationTarget.Workspace);
    await config().update('openai.baseUrl', url, vscode.ConfigurationTarget.Workspace);
    await config().update('openai.model', 'local-sim', vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    for (const key of ['openai.baseUrl', 'openai.model']) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('provider', 'offline', vscode.ConfigurationTarget.Workspace);
    server.close();
  });

  it('proposes the endpoint\'s lessons and says which provider and model learned them', async () => {
    const home = config().get('sources.extraFolders')[0];
    const cwd = vscode.workspace.workspaceFolders[0].uri.fsPath;
    const dir = join(home, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(dir, { recursive: true });
    const sessionId = '5e000001-0000-4000-8000-000000000001';
    let n = 0;
    const line = (extra) => JSON.stringify({ sessionId, cwd, version: '2.1.50', uuid: `${sessionId}-${++n}`, timestamp: new Date().toISOString(), ...extra });
    writeFileSync(join(dir, `${sessionId}.jsonl`), [
      line({ type: 'user', message: { role: 'user', content: 'ship the invoices feature' } }),
      line({ type: 'assistant', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'pnpm invoices:e2e' } }] } }),
      line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'Exit code 1\nError: no seed data', is_error: true }] } }),
    ].join('\n') + '\n');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const result = await vscode.commands.executeCommand('combee.learn');
    assert.ok(result?.proposalId, 'a proposal');
    const proposal = await vscode.extensions.getExtension('combee.combee').exports.loadProposal(result.proposalId);
    assert.equal(proposal.provider, 'openai');
    assert.equal(proposal.model, 'local-sim');
    assert.ok(proposal.rules.some((r) => /Endpoint lesson: `pnpm invoices:e2e`/.test(r.content ?? '')), JSON.stringify(proposal.rules));
    assert.ok(requests.length >= 2, 'the endpoint was called for the reflection and the aggregation');
    assert.ok(requests.every((r) => r.model === 'local-sim'));
  });
});
