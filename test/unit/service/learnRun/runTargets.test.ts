import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runTargets } from '../../../../src/core/service/learnRun/runTargets';
import { TraceStore } from '../../../../src/core/store/traceStore';
import type { AgentId, Trace } from '../../../../src/core/trace/model';
import { dryLearn } from '../../../../testing/dryLearn';
import { makeTrace, shell, user } from '../../../../testing/traces';
import { tempDir } from '../../../../testing/tmp';

const sessions = (counts: Partial<Record<AgentId, number>>) =>
  Object.entries(counts).flatMap(([agent, n]) => Array.from({ length: n }, () => ({ agent: agent as AgentId })));
const none = () => undefined;

describe('skills only where the workspace’s agents look', () => {
  it('without a setting, the skill folders of the sessions’ agents, most sessions first', () => {
    assert.deepEqual(runTargets(undefined, sessions({ codex: 3 }), none).skillRoots, ['.agents/skills']);
    const both = runTargets(undefined, sessions({ codex: 1, 'claude-code': 4 }), none);
    assert.deepEqual(both.skillRoots, ['.claude/skills', '.agents/skills']);
    assert.ok(
      both.reasons.includes(
        'Skills: on by default; in .claude/skills, .agents/skills (looked in by Claude Code, Codex)',
      ),
    );
    // no sessions yet: the default root
    assert.deepEqual(runTargets(undefined, [], none).skillRoots, ['.claude/skills']);
  });

  it('an agent that loads no skills gets none: the skills target is off', () => {
    const aider = runTargets(undefined, sessions({ aider: 2 }), none);
    assert.deepEqual(aider.skillRoots, []);
    assert.ok(!aider.targets.includes('skills'));
    assert.ok(
      aider.reasons.some((r) => r.startsWith('Skills: on by default; none written')),
      aider.reasons.join('\n'),
    );
  });

  it('with the setting, the setting wins', () => {
    const set = runTargets(undefined, sessions({ codex: 3 }), none, ['.claude/skills']);
    assert.deepEqual(set.skillRoots, ['.claude/skills']);
    assert.ok(set.targets.includes('skills'));
  });
});

describe('a learning run writes skills where its agents look', () => {
  const procedure = (id: string, agent: AgentId, day: number): Trace =>
    makeTrace(
      id,
      [
        user('Please fix the failing cart total test.'),
        ...shell('pnpm test', "Error: Cannot find module '.prisma/client/default'", 1),
        ...shell('pnpm db:generate', '✔ Generated Prisma Client'),
        ...shell('pnpm test', 'Test Files 12 passed (12)'),
        ...shell('pnpm build', "Type error: Property 'discount' does not exist on type 'Cart'", 1),
        ...shell('pnpm db:generate', '✔ Generated Prisma Client'),
        ...shell('pnpm build', 'Build complete.'),
      ],
      { agent, startedAt: `2026-11-0${day}T09:00:00.000Z` },
    );

  async function skillPaths(agent: AgentId, skillRoots?: string[]): Promise<string[]> {
    const root = tempDir('combee-skill-roots-');
    const workspace = join(root, 'shop');
    mkdirSync(workspace);
    const store = new TraceStore(join(root, 'store'));
    for (const [i, id] of ['a', 'b'].entries())
      await store.saveTrace({ ...procedure(`${agent}:${id}`, agent, i + 2), cwd: workspace });
    const result = await dryLearn(store, workspace, undefined, skillRoots ? { assets: { skillRoots } } : {});
    return (result.proposal?.files ?? []).map((f) => f.path).filter((p) => p.endsWith('/SKILL.md'));
  }

  it('a Codex-only workspace gets its skill in .agents/skills, none in .claude/skills; the setting moves it', async () => {
    const codex = await skillPaths('codex');
    assert.ok(codex.length > 0, 'the procedure makes a skill');
    assert.ok(
      codex.every((p) => p.startsWith('.agents/skills/')),
      codex.join(', '),
    );
    const set = await skillPaths('codex', ['.claude/skills']);
    assert.ok(set.length > 0 && set.every((p) => p.startsWith('.claude/skills/')), set.join(', '));
  });
});
