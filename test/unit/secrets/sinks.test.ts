import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import type { Output } from '../../../src/cli/output';
import { TraceStore } from '../../../src/core/store/traceStore';
import { startModelServer, type ModelServer } from '../../../testing/modelServer';
import { filesUnder, LeakScanner } from '../../support/leakScan';
import { buildCorpus, LOOK_ALIKES } from '../../../testing/secretCorpus';
import { PLACEMENTS, writeClaudeSecretSession, writeCodexSecretSession } from '../../support/secretSessions';
import { simulatedModel } from '../../../testing/simulatedModel';
import { tempDir } from '../../../testing/tmp';
import { learnAgainst } from '../../support/cliArgs';

const corpus = buildCorpus();
/** Secrets a credulous model "repeats" in its answers (made up: the model never saw them). */
const invented = buildCorpus(7).slice(0, 12);

function capture(): Output & { lines: string[] } {
  const lines: string[] = [];
  return { lines, result: (t) => lines.push(t), info: (t) => lines.push(t), warn: (t) => lines.push(`warning: ${t}`) };
}

const uuid = (i: number) => `5ec7e700-0000-4000-8000-${String(i).padStart(12, '0')}`;

describe('secrets at every sink (the project corpus, end to end)', function () {
  this.timeout(120_000);
  let server: ModelServer | undefined;
  afterEach(async () => server?.close());

  it(`no piece of any of ${corpus.length} shapes × ${PLACEMENTS.length} placements reaches the store, the model, the CLI output, run records or proposals; look-alikes arrive unchanged`, async () => {
    const root = tempDir('combee-secrets-');
    const workspace = join(root, 'acme-shop');
    mkdirSync(workspace);
    const claudeHome = join(root, '.claude');
    const codexHome = join(root, '.codex');
    corpus.forEach((shape, i) => {
      writeClaudeSecretSession(claudeHome, uuid(i), workspace, shape);
      if (i % 3 === 0)
        writeCodexSecretSession(
          codexHome,
          `0199${String(i).padStart(4, '0')}-0000-7000-8000-000000000001`,
          workspace,
          shape,
        );
    });
    writeFileSync(
      join(claudeHome, 'projects', 'look-alikes.jsonl'),
      [
        {
          type: 'user',
          uuid: 'la-1',
          sessionId: uuid(9999),
          cwd: workspace,
          timestamp: '2026-11-20T10:00:00.000Z',
          message: { role: 'user', content: LOOK_ALIKES.join('\n') },
        },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n',
    );

    const outputs: string[] = [];
    const run = async (argv: string[]) => {
      const out = capture();
      const t0 = Date.now();
      const code = await runCli(argv, out);
      if (process.env.SINKS_TIMING) console.log(argv.slice(0, 2).join(' '), Date.now() - t0, 'ms');
      outputs.push(...out.lines);
      assert.equal(code, 0, `${argv.join(' ')}\n${out.lines.join('\n')}`);
      return out.lines.join('\n');
    };
    const store = join(root, 'store');
    const imported = JSON.parse(
      await run(['import', '--from', claudeHome, '--store', store, '--workers', '0', '--json']),
    ) as { sessions: number; redactions: number };
    assert.equal(imported.sessions, corpus.length + 1);
    await run(['import', '--from', codexHome, '--store', store, '--workers', '0']);

    // through the loopback OpenAI-compatible server, the real client; the model echoes what it reads and adds secrets
    server = await startModelServer({
      responder: (request) => {
        const reply = simulatedModel(request);
        const prompt = request.messages.map((m) => m.content).join('\n');
        if (!/You review one coding-agent session/.test(prompt) || !reply.content) return reply;
        const answer = JSON.parse(reply.content) as { lessons: unknown[] };
        const made = invented[prompt.length % invented.length];
        const step = Number(/^#(\d+) /m.exec(prompt)?.[1] ?? 0);
        answer.lessons.push({
          section: 'Pitfalls',
          content: `Deploy with ${made.text.split('\n')[0]} set.`,
          kind: 'pitfall',
          evidence_steps: [step],
        });
        return { content: JSON.stringify(answer) };
      },
    });
    await run([...learnAgainst(store, workspace, server.url), '--model', 'sim', '--seed', '1', '--json']);
    await run(['tree', '--store', store, '--workspace', workspace, '--json']);
    await run(['tree', '--store', store, '--workspace', workspace]);

    // offline, in a second store, then accepted into the workspace
    const offlineStore = join(root, 'store-offline');
    await run(['import', '--from', claudeHome, '--store', offlineStore, '--workers', '0']);
    const learned = JSON.parse(
      await run(['learn', '--store', offlineStore, '--workspace', workspace, '--provider', 'offline', '--json']),
    ) as { proposal?: { id: string; rules: Array<{ content: string }> } };
    assert.ok(learned.proposal, 'the offline learner proposes rules from these sessions');
    assert.ok(
      learned.proposal.rules.some((r) => /\[REDACTED:[a-z0-9-]+\]/.test(r.content)),
      'its rules quote redacted commands',
    );
    await run(['accept', learned.proposal.id, '--store', offlineStore, '--workspace', workspace]);

    const scanner = new LeakScanner(
      [...corpus, ...invented].flatMap((shape) => [
        ...shape.needles.map((needle) => ({ owner: shape.name, needle })),
        { owner: `${shape.name} (base64)`, needle: Buffer.from(shape.text).toString('base64') },
      ]),
    );
    const sinks: Array<[string, string]> = [
      ...filesUnder(store),
      ...filesUnder(offlineStore),
      ...filesUnder(workspace),
      ...server.requests.map((r, i): [string, string] => [`model request ${i}`, JSON.stringify(r)]),
      ['CLI output', outputs.join('\n')],
    ];
    assert.ok(server.requests.length > corpus.length, 'every session was sent to the model');
    const t1 = Date.now();
    for (const [where, text] of sinks) assert.deepEqual(scanner.scan(text), [], `a secret reached ${where}`);

    if (process.env.SINKS_TIMING)
      console.log(
        'scan',
        Date.now() - t1,
        'ms',
        sinks.reduce((n, [, t]) => n + t.length, 0),
        'chars',
      );
    const traces = new TraceStore(store);
    const lookAlikes = await traces.loadTrace(`claude-code:${uuid(9999)}`);
    assert.equal(lookAlikes?.steps[0]?.kind === 'user' ? lookAlikes.steps[0].text : undefined, LOOK_ALIKES.join('\n'));
  });
});
