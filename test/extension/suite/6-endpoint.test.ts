// Learning through a local OpenAI-compatible endpoint given by its base URL, inside the real VS Code: the worker
// thread calls a loopback server that answers like a model (a tiny simulation, loopbackModel.ts).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useLoopbackEndpoint, writeFailingSession } from './loopbackModel';
import { api, learn } from './combee';

describe('learning through a local OpenAI-compatible endpoint', () => {
  const model = useLoopbackEndpoint();

  it("proposes the endpoint's lessons and says which provider and model learned them", async () => {
    writeFailingSession('5e000001-0000-4000-8000-000000000001', 'pnpm invoices:e2e');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const result = await learn();
    assert.ok(result?.proposalId, 'a proposal');
    const proposal = await api().loadProposal(result.proposalId);
    assert.equal(proposal!.provider, 'openai');
    assert.equal(proposal!.model, 'local-sim');
    assert.ok(
      proposal!.rules.some((r) => /Endpoint lesson: `pnpm invoices:e2e`/.test(r.content ?? '')),
      JSON.stringify(proposal!.rules),
    );
    const chats = model().requests.filter((r) => r.messages);
    assert.ok(chats.length >= 2, 'the endpoint was called for the reflection and the aggregation');
    assert.ok(chats.every((r) => r.model === 'local-sim'));
  });
});
