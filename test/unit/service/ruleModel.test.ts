import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { PROMPT_VERSION } from '../../../src/core/llm/prompts';
import { ruleAuthorships } from '../../../src/core/playbook/authorMark';
import { parsePlaybook, serializePlaybook } from '../../../src/core/playbook/markdown';
import { capture } from '../../../testing/cliOutput';
import { startModelServer, type ChatRequest, type ModelServer } from '../../../testing/modelServer';
import { simulatedModel } from '../../../testing/simulatedModel';
import { tempDir } from '../../../testing/tmp';
import { learnAgainst, teamFixture, teamStore, type Where } from '../../support/teamRuns';

// Which model wrote which rule, end to end through the CLI: a learn run against the loopback model, the proposal, an
// accept (whole, and one rule at a time), the playbook read back, `combee rules`, the offline learner, and a reduce
// over a shard file whose model name is hostile.

interface Rule {
  id: string;
  op: string;
  content?: string;
  author?: { provider: string; model: string; promptVersion: string };
}

/** The endpoint answers under a name of its own (an alias, or anything): only the configured model is recorded. */
function aliasingModel(request: ChatRequest, index: number) {
  const reply = simulatedModel(request);
  return {
    raw: JSON.stringify({
      id: `chatcmpl-${index}`,
      object: 'chat.completion',
      created: 0,
      model: 'endpoint-alias-2099',
      choices: [{ index: 0, message: { role: 'assistant', content: reply.content ?? '' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
    }),
  };
}

const markOf = (id: string, model: string, prompt = PROMPT_VERSION) =>
  `model [${id}] written by openai ${model} (prompt ${prompt})`;

async function rulesJson(where: Where): Promise<{ rules: Array<Record<string, unknown>> }> {
  const out = capture();
  assert.equal(await runCli(['rules', '--store', where.store, '--workspace', where.workspace, '--json'], out), 0);
  return JSON.parse(out.stdout.join('\n'));
}

describe('the model that wrote each rule', () => {
  let server: ModelServer;
  before(async () => {
    server = await startModelServer({ responder: aliasingModel });
  });
  after(() => server.close());

  async function learn(where: Where, extra: string[]) {
    const run = await learnAgainst(server, where, extra);
    assert.equal(run.code, 0, run.stderr);
    return run.json;
  }

  it('is the configured provider and model with the prompt version, through the proposal, an accept and a re-read', async () => {
    const where = await teamFixture();
    const result = await learn(where, ['--model', 'team-model-7', '--seed', '3']);
    const rules = result.proposal.rules as Rule[];
    const added = rules.filter((r) => r.op === 'ADD');
    assert.ok(added.length >= 3, JSON.stringify(rules));
    for (const rule of added)
      assert.deepEqual(rule.author, { provider: 'openai', model: 'team-model-7', promptVersion: PROMPT_VERSION });
    const diff = (result.proposal.files as Array<{ path: string; diff: string }>).find(
      (f) => f.path === '.combee/playbook.md',
    )?.diff;
    for (const rule of added) assert.ok(diff?.includes(`+${markOf(rule.id, 'team-model-7')}`), diff);
    assert.ok(!diff?.includes('endpoint-alias-2099'), 'the name the endpoint answered with is not recorded');

    const accept = capture();
    assert.equal(
      // by name: the team's sessions come from bundles, so some rules are flagged and stay pending otherwise
      await runCli(
        [
          'accept',
          result.proposal.id,
          ...rules.flatMap((r) => ['--rule', r.id]),
          '--store',
          where.store,
          '--workspace',
          where.workspace,
        ],
        accept,
      ),
      0,
      accept.stderr.join('\n'),
    );
    const text = readFileSync(join(where.workspace, '.combee', 'playbook.md'), 'utf8');
    // the mark is in the playbook's marks section, and the file reads back to the same authors and the same bytes
    for (const rule of added) assert.ok(text.includes(markOf(rule.id, 'team-model-7')), text);
    const playbook = parsePlaybook(text);
    assert.equal(serializePlaybook(playbook), text);
    const authors = ruleAuthorships(playbook);
    for (const rule of added)
      assert.deepEqual(authors.get(rule.id), {
        written: { provider: 'openai', model: 'team-model-7', promptVersion: PROMPT_VERSION },
      });
    // none of the other files carries the mark
    for (const file of ['AGENTS.md', 'CLAUDE.md'])
      assert.ok(!readIfThere(join(where.workspace, file)).includes('model ['), file);

    const listed = await rulesJson(where);
    for (const rule of listed.rules) {
      assert.equal(rule.provider, 'openai');
      assert.equal(rule.model, 'team-model-7');
      assert.equal(rule.promptVersion, PROMPT_VERSION);
    }
    const plain = capture();
    assert.equal(await runCli(['rules', '--store', where.store, '--workspace', where.workspace], plain), 0);
    assert.match(
      plain.stdout.join('\n'),
      new RegExp(`^    written by openai/team-model-7 \\(prompt ${PROMPT_VERSION}\\)$`, 'm'),
    );
    const table = capture();
    assert.equal(
      await runCli(['rules', '--store', where.store, '--workspace', where.workspace, '--by-model'], table),
      0,
    );
    assert.deepEqual(table.stdout.join('\n').split('\n'), [
      `model                new  proven  contested  harmful  total`,
      `openai/team-model-7  ${pad(listed.rules.length, 3)}       0          0        0  ${pad(listed.rules.length, 5)}`,
    ]);
  });

  it('goes with each rule accepted alone, and a rule written before marks reads as unknown', async () => {
    const where = await teamFixture();
    const old = '# Playbook\n\n## Setup\n\n[setu-00001] helpful=0 harmful=0 :: Read CONTRIBUTING.md before a change.\n';
    mkdirSync(join(where.workspace, '.combee'), { recursive: true });
    writeFileSync(join(where.workspace, '.combee', 'playbook.md'), old);
    const result = await learn(where, ['--model', 'one-by-one', '--seed', '3']);
    const added = (result.proposal.rules as Rule[]).filter((r) => r.op === 'ADD');
    const [first, second] = added;
    for (const rule of [first, second]) {
      const out = capture();
      const args = [
        'accept',
        result.proposal.id,
        '--rule',
        rule.id,
        '--store',
        where.store,
        '--workspace',
        where.workspace,
      ];
      assert.equal(await runCli(args, out), 0, out.stderr.join('\n'));
    }
    const text = readFileSync(join(where.workspace, '.combee', 'playbook.md'), 'utf8');
    const authors = ruleAuthorships(parsePlaybook(text));
    for (const rule of [first, second])
      assert.deepEqual(authors.get(rule.id)?.written, {
        provider: 'openai',
        model: 'one-by-one',
        promptVersion: PROMPT_VERSION,
      });
    assert.ok(!text.includes('[setu-00001] written'), 'an old rule gets no mark it was not written with');
    const listed = await rulesJson(where);
    const setup = listed.rules.find((r) => r.id === 'setu-00001');
    assert.deepEqual([setup?.provider, setup?.model, setup?.promptVersion], ['unknown', 'unknown', 'unknown']);
    const table = capture();
    await runCli(['rules', '--store', where.store, '--workspace', where.workspace, '--by-model', '--json'], table);
    assert.deepEqual(
      JSON.parse(table.stdout.join('\n')).models.map((m: { model: string; total: number }) => [m.model, m.total]),
      [
        ['openai/one-by-one', 2],
        ['unknown', 1],
      ],
    );
  });

  it('is the offline miner, with no prompt, when the offline learner wrote it', async () => {
    const where = await teamFixture();
    const out = capture();
    const args = ['learn', '--workspace', where.workspace, '--store', where.store, '--provider', 'offline'];
    assert.equal(await runCli([...args, '--window-days', '0', '--json'], out), 0, out.stderr.join('\n'));
    const rules = JSON.parse(out.stdout.join('\n')).proposal.rules as Rule[];
    assert.ok(rules.length > 0);
    for (const rule of rules.filter((r) => r.op === 'ADD'))
      assert.deepEqual(rule.author, { provider: 'offline', model: 'combee-offline-miner', promptVersion: 'none' });
  });

  it("takes a shard file's model name as a claim: cleaned when shown, never the rules' author", async () => {
    const workspace = tempDir('combee-model-shard-');
    const store = await teamStore(workspace);
    const artifacts = tempDir('combee-artifacts-');
    for (const i of [1, 2])
      await learn({ workspace, store }, ['--shard', `${i}/2`, '--out', artifacts, '--seed', '5', '--model', 'm1']);
    const hostile = `m1 --> <img src=x onerror=alert(1)>\u0000${'x'.repeat(500)}`;
    const path = join(artifacts, 'reflections-2-of-2.json');
    const set = JSON.parse(readFileSync(path, 'utf8'));
    writeFileSync(path, JSON.stringify({ ...set, model: hostile, provider: 'openai\n-->' }));
    assert.deepEqual(readdirSync(artifacts).sort(), ['reflections-1-of-2.json', 'reflections-2-of-2.json']);
    const run = await learnAgainst(server, { workspace, store }, [
      '--reduce',
      artifacts,
      '--seed',
      '5',
      '--model',
      'm1',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const warning = (run.json.warningMessages as string[]).find((w) => w.startsWith('shard 2/2 was reflected by'));
    assert.ok(warning, JSON.stringify(run.json.warningMessages));
    assert.ok(!/[<>\u0000\n]|-->/.test(warning), warning);
    assert.ok(warning.length < 300, 'the claim is cut');
    const rules = run.json.proposal.rules as Rule[];
    for (const rule of rules.filter((r) => r.op === 'ADD'))
      assert.deepEqual(rule.author, { provider: 'openai', model: 'm1', promptVersion: PROMPT_VERSION });
    for (const file of run.json.proposal.files as Array<{ diff: string }>) assert.ok(!file.diff.includes('onerror'));
  });
});

function pad(n: number, width: number): string {
  return String(n).padStart(width);
}

function readIfThere(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
