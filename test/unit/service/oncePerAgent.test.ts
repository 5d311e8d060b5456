import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readManagedBlock } from '../../../src/core/assets/managedBlock';
import { TraceStore } from '../../../src/core/store/traceStore';
import type { AgentId, Trace } from '../../../src/core/trace/model';
import { dryLearn } from '../../../testing/dryLearn';
import { makeTrace, shell, user } from '../../../testing/traces';
import { tempDir } from '../../../testing/tmp';

// The case: a workspace with Claude Code and Codex sessions gets each rule once per agent.

const procedure = (id: string, agent: AgentId, day: number): Trace =>
  makeTrace(
    id,
    [
      user('Please fix the failing cart total test.'),
      ...shell('pnpm test', "Error: Cannot find module '.prisma/client/default'", 1),
      ...shell('pnpm db:generate', '✔ Generated Prisma Client'),
      ...shell('pnpm test', 'Test Files 12 passed (12)'),
    ],
    { agent, startedAt: `2026-11-0${day}T09:00:00.000Z` },
  );

describe('a workspace with Claude Code and Codex sessions', () => {
  it('gets each rule once: CLAUDE.md imports AGENTS.md, and the proposal says the tokens per agent', async () => {
    const root = tempDir('combee-once-per-agent-');
    const workspace = join(root, 'shop');
    mkdirSync(workspace);
    const team = '# Shop\n\nAnswer briefly.\n';
    writeFileSync(join(workspace, 'CLAUDE.md'), team);
    const store = new TraceStore(join(root, 'store'));
    const sessions = [
      procedure('claude-code:a', 'claude-code', 2),
      procedure('claude-code:b', 'claude-code', 3),
      procedure('codex:a', 'codex', 4),
    ];
    for (const trace of sessions) await store.saveTrace({ ...trace, cwd: workspace });
    const { proposal } = await dryLearn(store, workspace);
    assert.ok(proposal, 'the sessions teach a rule');
    const after = (path: string) => proposal.files.find((f) => f.path === path)?.after;
    const rules = readManagedBlock(after('AGENTS.md')) ?? '';
    assert.match(rules, /db:generate/);
    assert.equal(after('CLAUDE.md'), `${team}\n@AGENTS.md\n`, 'the team’s CLAUDE.md keeps its text, gains the import');
    const ids = [...rules.matchAll(/\[([a-z]+-\d{5})\]/g)].map((m) => m[1]);
    for (const file of proposal.files.filter((f) => f.path !== 'AGENTS.md' && !f.path.startsWith('.combee/')))
      for (const id of ids) assert.ok(!file.after.includes(`[${id}]`), `${id} is written once, not in ${file.path}`);
    assert.deepEqual(
      proposal.contextCost?.map((c) => c.agent),
      ['claude-code', 'codex'],
    );
    const [claude, codex] = proposal.contextCost ?? [];
    assert.equal(claude.before, 0);
    assert.equal(codex.before, 0);
    assert.ok(codex.after > 0 && claude.after > codex.after, JSON.stringify(proposal.contextCost));
  });
});
