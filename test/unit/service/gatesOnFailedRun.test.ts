import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openAiRoles } from '../../../src/core/llm/providers';
import { TraceStore } from '../../../src/core/store/traceStore';
import { dryLearn } from '../../../testing/dryLearn';
import { startModelServer, type ChatRequest, type ModelServer } from '../../../testing/modelServer';
import { tempDir } from '../../../testing/tmp';
import { makeTrace, shell, user } from '../../../testing/traces';

// A run most of whose model calls failed still proposes what the others gave: those rules pass the gates too.

const ECHO = 'The invoice totals are wrong since the last release, please look into it.';

/** Reflection: session one's opening request turned into a rule; the others an answer too short to be valid. */
function careless(request: ChatRequest) {
  const prompt = request.messages.map((m) => m.content).join('\n');
  const id = /^Session (\S+) \(/m.exec(prompt)?.[1];
  if (id && /"lessons"/.test(prompt)) {
    const content = id.endsWith('one') ? ECHO : 'ok';
    return {
      content: JSON.stringify({
        lessons: [{ section: 'Conventions', content, kind: 'preference', evidence_steps: [0] }],
        bullet_tags: [],
      }),
    };
  }
  const operations = [...prompt.matchAll(/^((?:L|D)[\d.]+) \(\d+ session\(s\)\): \[\w+, ([^\]]+)\] (.*)$/gm)].map(
    ([, source, section, content]) => ({ type: 'ADD', section, content, sources: [source] }),
  );
  return { content: JSON.stringify({ operations }) };
}

describe('the precision gates on a run with failed model calls', () => {
  let server: ModelServer | undefined;
  after(async () => server?.close());

  it('leave out a rule that repeats a task request, and say which gate did', async function () {
    this.timeout(60_000);
    server = await startModelServer({ responder: careless });
    const root = tempDir('combee-gates-failed-');
    const workspace = join(root, 'billing');
    mkdirSync(workspace, { recursive: true });
    const store = new TraceStore(join(root, 'store'));
    for (const [n, name] of ['one', 'two', 'three', 'four'].entries())
      await store.saveTrace(
        makeTrace(
          `claude-code:${name}`,
          [user(name === 'one' ? ECHO : 'Tidy the invoice module.'), ...shell('pnpm test', 'ok')],
          { cwd: workspace, startedAt: `2026-11-0${n + 1}T10:00:00.000Z` },
        ),
      );
    const roles = openAiRoles({ baseUrl: server.url, apiKey: 'not-needed', model: 'careless-sim' });
    const result = await dryLearn(store, workspace, roles);
    assert.equal(result.record?.status, 'failed', result.record?.warnings.join('\n'));
    assert.deepEqual(
      result.gatedOut?.map((g) => [g.content, g.gate]),
      [[ECHO, 'echoes-turn']],
    );
    assert.ok(!result.proposal?.rules.some((r) => r.content === ECHO), 'not proposed');
  });
});
