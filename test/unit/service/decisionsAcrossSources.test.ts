import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeProjectFolder } from '../../../src/core/memories/claudeCode';
import { offlineRoles } from '../../../src/core/llm/providers';
import { ReviewMemory } from '../../../src/core/store/reviewMemory';
import { TraceStore } from '../../../src/core/store/traceStore';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { dryLearn } from '../../../testing/dryLearn';
import { tempDir } from '../../../testing/tmp';
import { pnpmCorrection } from '../../support/pnpmCorrection';

async function setup() {
  const root = tempDir('combee-sources-');
  const workspace = join(root, 'shop');
  const home = join(root, 'home');
  mkdirSync(join(workspace, '.combee'), { recursive: true });
  writeFileSync(join(workspace, 'AGENTS.md'), '# Shop\n');
  const store = new TraceStore(join(root, 'store'));
  const state = new WorkspaceState(store.dir);
  const roles = offlineRoles();
  const learnOnce = (withMemories: boolean) =>
    dryLearn(store, workspace, roles, {
      seed: 5,
      windowDays: 0,
      assets: { targets: ['agents-md'] },
      ...(withMemories ? { agentMemories: { home, env: {} } } : {}),
    });
  const remember = (text: string) => {
    const dir = join(home, '.claude', 'projects', claudeProjectFolder(workspace), 'memory');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'MEMORY.md'), `# Memory\n\n${text}`);
  };
  for (const [i, id] of ['a', 'b'].entries()) await store.saveTrace(pnpmCorrection(workspace, id, 1 + i));
  return { workspace, learnOnce, remember, memory: new ReviewMemory(state, workspace) };
}

/** The proposal's rule that says the same as `text` by its actions (pnpm over npm), whatever its words or section. */
const pnpmOverNpm = (rules: ReadonlyArray<{ content?: string }> | undefined) =>
  (rules ?? []).filter(
    (r) => /\bpnpm\b/.test(r.content ?? '') && /\bnpm\b/.test(r.content ?? '') && !/`/.test(r.content ?? ''),
  );

describe('decisions that stick across sources', () => {
  it("a rejected rule is not proposed again from an agent's memory on the same sessions, and the run says so", async function () {
    this.timeout(60_000);
    const ws = await setup();
    const first = await ws.learnOnce(false);
    const [rule] = pnpmOverNpm(first.proposal?.rules);
    assert.ok(rule, JSON.stringify(first.proposal?.rules.map((r) => r.content)));
    await ws.memory.rememberRejected([rule as Parameters<ReviewMemory['rememberRejected']>[0][number]]);
    const day = (await ws.memory.load()).rejected[0].at.slice(0, 10);

    // the memory says it in other words, and files it elsewhere: the same sessions bear it out
    ws.remember('- Always use pnpm in this repository, never npm.\n');
    const again = await ws.learnOnce(true);
    assert.deepEqual(
      pnpmOverNpm(again.proposal?.rules).map((r) => r.content),
      [],
      'the rejected rule came back from the memory',
    );
    const warning = again.record?.warnings.find((w) => w.includes('left out, decided before'));
    assert.ok(warning, JSON.stringify(again.record?.warnings));
    assert.match(warning, /^1 agent memory\(ies\) left out/);
    assert.ok(warning.includes(`MEMORY.md:3: rejected in review on ${day}; no new evidence`), warning);
    const node = again.record?.nodes.find((n) => n.id.endsWith(':memories'));
    assert.deepEqual(
      (node?.detail as Array<{ status: string; content?: string }> | undefined)?.map((d) => [d.status, d.content]),
      [['skipped', 'Always use pnpm in this repository, never npm.']],
      'counted as left out in the run',
    );
  });
});
