import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { offlineRoles } from '../../../src/core/llm/providers';
import { learnWorkspace } from '../../../src/core/service/learnWorkspace';
import { ProposalStore } from '../../../src/core/store/proposals';
import { TraceStore } from '../../../src/core/store/traceStore';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { tempDir } from '../../../testing/tmp';
import { makeTrace, shell, user } from '../../../testing/traces';

describe('the learning window', () => {
  it("is anchored to this machine's newest session: a bundle session dated 2999 pushes no local session out", async () => {
    const root = tempDir('combee-window-');
    const workspace = join(root, 'shop');
    mkdirSync(workspace, { recursive: true });
    const store = new TraceStore(join(root, 'store'));
    const session = (id: string, endedAt: string, contributor?: string) => ({
      ...makeTrace(id, [user('run the tests'), ...shell('pnpm test', 'ok')], { cwd: workspace, startedAt: endedAt }),
      endedAt,
      ...(contributor ? { contributor } : {}),
    });
    await store.saveTrace(session('claude:local-1', '2026-11-20T10:00:00.000Z'));
    await store.saveTrace(session('claude:local-2', '2026-11-28T10:00:00.000Z'));
    await store.saveTrace(session('claude:forged', '2999-01-01T00:00:00.000Z', 'mallory'));
    const roles = offlineRoles();
    const result = await learnWorkspace({
      store,
      proposals: new ProposalStore(new WorkspaceState(store.dir)),
      workspace,
      ...roles,
      provider: roles.info,
      seed: 1,
      windowDays: 30,
      dryRun: true,
    });
    assert.deepEqual(result.traces.map((t) => t.id).sort(), ['claude:forged', 'claude:local-1', 'claude:local-2']);
    assert.equal(result.outsideWindow, 0);
  });
});
