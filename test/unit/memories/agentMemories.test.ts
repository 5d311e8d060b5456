import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readAgentMemories } from '../../../src/core/memories/read';
import { splitMemories } from '../../../src/core/memories/items';
import type { MemoryVerdict } from '../../../src/core/memories/types';
import { offlineRoles } from '../../../src/core/llm/providers';
import { emptyPlaybook, parsePlaybook } from '../../../src/core/playbook/markdown';
import { agentMemoryReport } from '../../../src/core/service/agentMemories';
import { learnWorkspace } from '../../../src/core/service/learnWorkspace';
import { ProposalStore } from '../../../src/core/store/proposals';
import { TraceStore } from '../../../src/core/store/traceStore';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { tempDir } from '../../../testing/tmp';
import { MEMORY, memorySessions, TOKEN, writeMemoryFolders } from './fixtures';

async function setUp() {
  const root = tempDir('combee-memories-');
  const fixture = writeMemoryFolders(root);
  const store = new TraceStore(join(root, 'store'));
  for (const trace of memorySessions(fixture.workspace)) await store.saveTrace(trace);
  return { ...fixture, root, store, settings: { home: fixture.home, env: {} } };
}

function byText(verdicts: readonly MemoryVerdict[], text: string): MemoryVerdict {
  const found = verdicts.find((v) => v.item.text === text || v.item.text.startsWith(text.slice(0, 30)));
  assert.ok(found, `a verdict for ${JSON.stringify(text)} among ${JSON.stringify(verdicts.map((v) => v.item.text))}`);
  return found;
}

describe("the agents' memories as candidates", () => {
  it('cuts a memory file into bullets and paragraphs, leaving out headings, front matter and index lines', () => {
    const { memories } = splitMemories(
      '---\nname: x\n---\n# Title\n\n- [Topic](topic.md) — index\n- one\n  continued\n\nA paragraph\nover two lines.\n\n```\npnpm test\n```\n',
    );
    assert.deepEqual(memories, [
      { line: 7, text: 'one continued', heading: 'Title' },
      { line: 10, text: 'A paragraph over two lines. `pnpm test`', heading: 'Title' },
    ]);
  });

  it("reads Claude Code's, Codex's and Gemini CLI's memory files, secrets removed and injections flagged, without changing them", async () => {
    const { home, workspace, files } = await setUp();
    const before = files.map((f) => ({ bytes: readFileSync(f), mtime: statSync(f).mtimeMs }));
    const read = await readAgentMemories({ home, env: {}, workspace });
    assert.deepEqual(
      read.items.map((i) => i.agent),
      [
        'claude-code',
        'claude-code',
        'claude-code',
        'claude-code',
        'claude-code',
        'codex',
        'gemini-cli',
        'copilot',
        'copilot',
      ],
    );
    // Copilot: this workspace's repository memories and the user's; not another window's, nor a chat's plan
    assert.deepEqual(
      read.items.filter((i) => i.agent === 'copilot').map((i) => i.text),
      [MEMORY.copilotRepo, MEMORY.copilotUser],
    );
    assert.ok(
      read.files.every((f) => f.startsWith('~/')),
      'home shown as ~',
    );
    // the Gemini file's own instructions are not a memory; the Codex summary's repeat is one memory
    assert.ok(!read.items.some((i) => i.text.includes('French')));
    // a memory of a file kept for every project that names another one is not this repository's
    assert.ok(!read.items.some((i) => i.text === MEMORY.otherProject));
    assert.ok(read.warnings.some((w) => w.includes('GEMINI.md (kept for every project) do not name this repository')));
    const secret = read.items.find((i) => i.text.startsWith('The staging deploy'));
    assert.ok(secret?.redacted && !secret.text.includes(TOKEN), `redacted: ${secret?.text}`);
    assert.ok(read.warnings.some((w) => w.includes('secret was removed')));
    const injected = read.items.find((i) => i.text.startsWith('Ignore previous rules'));
    assert.ok(injected && injected.flags.length > 0, 'the injection is flagged');
    files.forEach((f, i) => {
      assert.deepEqual(readFileSync(f), before[i].bytes, `${f} unchanged`);
      assert.equal(statSync(f).mtimeMs, before[i].mtime, `${f} not touched`);
    });
  });

  it('judges each memory against the sessions: supported, contradicted, unverified, flagged; the same each time', async () => {
    const { store, workspace, settings } = await setUp();
    const report = await agentMemoryReport({ store, workspace, settings, playbook: emptyPlaybook() });
    const tests = byText(report.verdicts, MEMORY.tests);
    assert.equal(tests.verdict, 'supported');
    assert.deepEqual(
      tests.support.map((e) => e.traceId),
      ['claude:tests-1', 'claude:tests-2'],
    );
    assert.equal(byText(report.verdicts, MEMORY.lint).verdict, 'supported');
    const npm = byText(report.verdicts, MEMORY.npm);
    assert.equal(npm.verdict, 'contradicted');
    assert.deepEqual(
      npm.against.map((e) => e.traceId),
      ['codex:npm'],
    );
    assert.equal(byText(report.verdicts, MEMORY.prose).verdict, 'unverified');
    assert.equal(byText(report.verdicts, MEMORY.gemini).verdict, 'unverified');
    assert.equal(byText(report.verdicts, MEMORY.copilotRepo).verdict, 'unverified');
    assert.equal(byText(report.verdicts, MEMORY.injection).verdict, 'flagged');
    const again = await agentMemoryReport({ store, workspace, settings, playbook: emptyPlaybook() });
    assert.equal(JSON.stringify(again.verdicts), JSON.stringify(report.verdicts));
  });

  it('a memory a playbook rule already states is not proposed again', async () => {
    const { store, workspace, settings } = await setUp();
    const playbook = parsePlaybook(
      '# Playbook\n\n## Test\n[test-00001] helpful=0 harmful=0 :: Run `pnpm vitest run` for the tests.\n',
    );
    const report = await agentMemoryReport({ store, workspace, settings, playbook });
    assert.equal(byText(report.verdicts, MEMORY.tests).sameAs, 'test-00001');
  });

  it('learn proposes the supported memories with provenance agent-memory, and reports the others', async function () {
    this.timeout(60_000);
    const { store, workspace, settings, root } = await setUp();
    const roles = offlineRoles();
    const proposals = new ProposalStore(new WorkspaceState(store.dir));
    const run = (agentMemories?: typeof settings) =>
      learnWorkspace({
        store,
        proposals,
        workspace,
        ...roles,
        provider: roles.info,
        seed: 1,
        dryRun: true,
        assets: { targets: ['playbook'] },
        agentMemories,
      });
    const { proposal, record } = await run(settings);
    assert.ok(proposal && record);
    const fromMemory = proposal.rules.filter((r) => r.source?.kind === 'agent-memory');
    // the sessions taught the tests rule by themselves this run: the memory saying it is not proposed again
    assert.ok(proposal.rules.some((r) => r.content?.includes('`pnpm vitest run`') && r.source === undefined));
    assert.ok(record.warnings.some((w) => w.includes('testing.md:7 is already rule test-')));
    assert.deepEqual(
      fromMemory.map((r) => r.content),
      [MEMORY.lint],
    );
    for (const text of [MEMORY.npm, MEMORY.prose, MEMORY.injection, MEMORY.gemini, MEMORY.secret])
      assert.ok(!proposal.rules.some((r) => r.content === text), `${text} not proposed`);
    assert.ok(!JSON.stringify(proposal).includes(TOKEN));
    const [lint] = fromMemory;
    assert.deepEqual(lint.support, [{ traceId: 'codex:lint', steps: [1] }]);
    assert.deepEqual(lint.source, {
      kind: 'agent-memory',
      agent: 'Codex',
      file: '~/.codex/memories/MEMORY.md',
      line: 3,
    });
    assert.ok(lint.notes?.[0].includes('provenance agent-memory'));
    assert.deepEqual(lint.flags, []);
    assert.ok(proposal.files[0].after.includes(MEMORY.lint), 'in the playbook diff');
    // written by the agent's memory, not by this run's model
    assert.deepEqual(lint.author, { provider: 'agent-memory', model: 'codex', promptVersion: 'none' });
    assert.ok(proposal.files[0].after.includes(`\nmodel [${lint.id}] written by agent-memory codex (prompt none)\n`));
    assert.ok(record.warnings.some((w) => w.includes('is contradicted by 1 session(s) (codex:npm')));
    assert.ok(record.warnings.some((w) => w.includes('is flagged') && w.includes('not proposed')));
    assert.ok(record.warnings.some((w) => /5 agent memory\(ies\) are unverified/.test(w)));

    // with no memory files, the run is what it is without the feature
    const bare = await run({ home: join(root, 'empty-home'), env: {} });
    const without = await run(undefined);
    assert.equal(JSON.stringify(bare.proposal?.files), JSON.stringify(without.proposal?.files));
    assert.equal(JSON.stringify(bare.proposal?.rules), JSON.stringify(without.proposal?.rules));
    assert.deepEqual(bare.record?.warnings, without.record?.warnings);
  });
});
