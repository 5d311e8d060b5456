import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { learningCorpus, plantedLessons } from '../../../bench/learn/corpus';
import { instantModel } from '../../../bench/learn/simulation';
import { runCli } from '../../../src/cli/main';
import { CapacityProfiles } from '../../../src/core/learn/capacity/capacityProfiles';
import { openAiRoles } from '../../../src/core/llm/providers';
import { learnWorkspace } from '../../../src/core/service/learnWorkspace';
import { ProposalStore } from '../../../src/core/store/proposals';
import { TraceStore } from '../../../src/core/store/traceStore';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { startModelServer, type ModelServer } from '../../../testing/modelServer';
import { tempDir } from '../../../testing/tmp';

// A model that overloads below the setting: the first run says so and records what it showed; the next plans to it.

describe("a model's capacity profile across learning runs", () => {
  let server: ModelServer | undefined;
  after(async () => server?.close());

  it('the first run warns what its calls dropped and records them; the next run plans to the capacity they showed', async function () {
    this.timeout(60_000);
    server = await startModelServer({ responder: instantModel({ capacityTokens: 1_500, gamma: 0.7 }) });
    const root = tempDir('combee-capacity-');
    const workspace = join(root, 'shop');
    mkdirSync(join(workspace, '.combee'), { recursive: true });
    const store = new TraceStore(join(root, 'store'));
    const save = async (seed: number, suffix: string) => {
      for (const trace of learningCorpus(60, plantedLessons(30), 2, seed))
        await store.saveTrace({ ...trace, id: `${trace.id}${suffix}`, cwd: workspace });
    };
    await save(3, '');
    const roles = openAiRoles({ baseUrl: server.url, apiKey: 'k', model: 'sim', allowInsecureHttp: true });
    const proposals = new ProposalStore(new WorkspaceState(store.dir));
    const learnOnce = () =>
      learnWorkspace({
        store,
        proposals,
        workspace,
        ...roles,
        provider: roles.info,
        seed: 4,
        windowDays: 0,
        batchSize: 'all',
        assets: { targets: ['agents-md'] },
      });
    const first = await learnOnce();
    assert.ok(
      first.record?.warnings.some((w) => /aggregation call\(s\) dropped \d+ item\(s\) without a reason/.test(w)),
      first.record?.warnings.join('\n'),
    );
    const profile = await new CapacityProfiles(store.dir).load(roles.info.provider, roles.info.model);
    assert.ok(profile.length > 0 && profile.some((o) => o.dropped > 0));
    await save(4, '-later');
    const second = await learnOnce();
    const plan = second.record?.batches[0].plan;
    assert.ok(plan?.learnedTokens !== undefined && (plan.budgetTokens ?? 0) < 16_000, JSON.stringify(plan));
  });
});

describe('the CLI says what the aggregation calls dropped', () => {
  let server: ModelServer | undefined;
  after(async () => server?.close());

  it('its summary names the drops and what became of them, and points at the tree', async function () {
    this.timeout(60_000);
    server = await startModelServer({ responder: instantModel({ capacityTokens: 1_500, gamma: 0.7 }) });
    const root = tempDir('combee-capacity-cli-');
    const workspace = join(root, 'shop');
    mkdirSync(workspace, { recursive: true });
    const store = new TraceStore(join(root, 'store'));
    for (const trace of learningCorpus(60, plantedLessons(30), 2, 8))
      await store.saveTrace({ ...trace, cwd: workspace });
    const out: string[] = [];
    const sink = { result: (t: string) => out.push(t), info: () => {}, warn: (t: string) => out.push(`warning: ${t}`) };
    const code = await runCli(
      [
        'learn',
        '--store',
        store.dir,
        '--workspace',
        workspace,
        '--window-days',
        '0',
        '--provider',
        'openai',
        '--base-url',
        server.url,
        '--model',
        'sim',
        '--batch',
        '60',
        '--dry-run',
      ],
      sink,
    );
    assert.equal(code, 0, out.join('\n'));
    const text = out.join('\n');
    assert.match(text, /warning: \d+ aggregation call\(s\) dropped \d+ item\(s\) without a reason/);
    assert.match(text, /^ {2}\d+ aggregation call\(s\) dropped .*; `combee tree` shows which\.$/m);
  });
});
