import assert from 'node:assert/strict';
import { AGENT_LOADING, loadsAtStart } from '../../../src/core/agents/loading';
import { AGENT_TARGET, chooseTargets, targetServing } from '../../../src/core/assets/agentTargets';
import { readManagedBlock } from '../../../src/core/assets/managedBlock';
import { renderAssets, TARGETS } from '../../../src/core/assets/targets';
import { parsePlaybook } from '../../../src/core/playbook/markdown';
import { runTargets } from '../../../src/core/service/learnRun/runTargets';
import { AGENTS, type AgentId } from '../../../src/core/trace/model';

const sessions = (counts: Partial<Record<AgentId, number>>) =>
  Object.entries(counts).flatMap(([agent, n]) => Array.from({ length: n }, () => ({ agent: agent as AgentId })));

const PLAYBOOK_TEXT =
  '## Build and test\n[bat-00001] helpful=3 harmful=0 :: Run `pnpm test`.\n\n## Pitfalls\n[pit-00002] helpful=0 harmful=2 :: Use npm for installs.\n';

describe('targets that follow the workspace’s agents', () => {
  it('adds each agent’s own file to the default targets, saying how many sessions asked for it', () => {
    const choice = chooseTargets(undefined, sessions({ 'claude-code': 12, codex: 3, 'gemini-cli': 1 }));
    assert.deepEqual(choice.targets, ['playbook', 'agents-md', 'skills', 'claude-md', 'gemini-md']);
    assert.deepEqual(choice.reasons, [
      'AGENTS.md: on by default, 3 Codex sessions',
      'Skills: on by default',
      'CLAUDE.md: 12 Claude Code sessions',
      'GEMINI.md: 1 Gemini CLI session',
    ]);
    assert.equal(choice.from, 'sessions');
  });

  it('maps every agent to a file it loads by itself (or to none)', () => {
    for (const agent of AGENTS) {
      const target = AGENT_TARGET[agent];
      if (!target) {
        assert.deepEqual(chooseTargets(undefined, sessions({ [agent]: 2 })).targets, [
          'playbook',
          'agents-md',
          'skills',
        ]);
        continue;
      }
      const file = TARGETS.find((t) => t.id === target)?.paths[0] ?? '';
      assert.ok(loadsAtStart(agent, file) || AGENT_LOADING[agent].configFile, `${agent} loads ${file}`);
      // from sessions alone, the file that serves it: AGENTS.md (on by default) where it loads that
      const serving = targetServing(agent, true);
      assert.ok(serving === target || (serving === 'agents-md' && loadsAtStart(agent, 'AGENTS.md')), agent);
      assert.ok(chooseTargets(undefined, sessions({ [agent]: 1 })).targets.includes(serving ?? 'playbook'), agent);
    }
    assert.equal(AGENT_TARGET.copilot, 'copilot-instructions', 'its own file, where it has one');
    assert.equal(AGENT_TARGET.cursor, 'cursor-rules');
    assert.equal(
      AGENT_TARGET['roo-code'],
      'agents-md',
      'Roo Code does not load .clinerules/ (its rules are in .roo/rules)',
    );
    assert.equal(
      AGENT_TARGET.aider,
      'aider-conventions',
      'Aider loads only what .aider.conf.yml names: its own target',
    );
  });

  it('an agent that loads AGENTS.md is served by it, not by a second copy in its own file', () => {
    const many = chooseTargets(undefined, sessions({ copilot: 2, cursor: 1, cline: 1, 'roo-code': 4 }));
    assert.deepEqual(many.targets, ['playbook', 'agents-md', 'skills']);
    assert.deepEqual(many.reasons, [
      'AGENTS.md: on by default, 1 Cline session, 2 Copilot sessions, 1 Cursor session, 4 Roo Code sessions',
      'Skills: on by default',
    ]);
    // Claude Code and Gemini CLI do not load AGENTS.md: their own files stay (they import it, see renderAssets)
    const mixed = chooseTargets(undefined, sessions({ 'claude-code': 1, copilot: 1 }));
    assert.deepEqual(mixed.targets, ['playbook', 'agents-md', 'skills', 'claude-md']);
    // chosen in the settings, the agents' own files are rendered all the same
    assert.deepEqual(chooseTargets(['cursor-rules'], sessions({ cursor: 1 })).targets, ['playbook', 'cursor-rules']);
  });

  it('does not depend on the order of the sessions', () => {
    const list = sessions({ 'claude-code': 2, cline: 1, copilot: 3, 'roo-code': 1 });
    const reversed = [...list].reverse();
    assert.deepEqual(chooseTargets(undefined, reversed), chooseTargets(undefined, list));
  });

  it('a user’s setting wins, even one that leaves out the agents’ files', () => {
    const many = sessions({ 'claude-code': 5, 'gemini-cli': 2 });
    assert.deepEqual(chooseTargets(['agents-md'], many).targets, ['playbook', 'agents-md']);
    assert.deepEqual(chooseTargets([], many).targets, ['playbook']);
    assert.deepEqual(chooseTargets(['agents-md'], many).reasons, ['AGENTS.md: set in the settings']);
    assert.equal(chooseTargets([], many).from, 'settings');
  });

  it('without sessions: the targets on by default', () => {
    assert.deepEqual(chooseTargets(undefined, []).targets, ['playbook', 'agents-md', 'skills']);
  });
});

describe('agent files that already hold Combee’s rules', () => {
  const retired = parsePlaybook('## Build and test\n[bat-00001] helpful=3 harmful=0 :: Run `pnpm test`.\n');
  const block = (rules: string) =>
    `# Team\n\nOur own words.\n\n<!-- combee:begin generated by Combee -->\n${rules}\n<!-- combee:end -->\n`;
  const held = block('- [bat-00001] Run `pnpm test`.\n- [pit-00002] Use npm for installs.');

  it('are kept in sync when their target is not enabled, their block in place without AGENTS.md', () => {
    const files: Record<string, string> = {
      '.combee/playbook.md': PLAYBOOK_TEXT,
      'CLAUDE.md': held,
      'GEMINI.md': held,
      '.github/copilot-instructions.md': '# Copilot\n\nNo block here.\n',
    };
    const changes = renderAssets({
      workspace: '/ws',
      playbook: retired,
      rules: [{ id: 'pit-00002', op: 'REMOVE', support: [], flags: [] }],
      lessons: [],
      readFile: (p) => files[p],
      settings: { targets: [] },
    });
    const paths = changes.map((c) => c.path);
    assert.ok(paths.includes('CLAUDE.md') && paths.includes('GEMINI.md'), paths.join(', '));
    assert.ok(!paths.includes('.github/copilot-instructions.md'), 'a file without a block is not touched');
    assert.ok(!paths.includes('AGENTS.md'));
    for (const path of ['CLAUDE.md', 'GEMINI.md']) {
      const after = changes.find((c) => c.path === path)?.after ?? '';
      assert.ok(after.startsWith('# Team\n\nOur own words.\n'), 'the team text stays');
      const inner = readManagedBlock(after) ?? '';
      assert.match(inner, /\[bat-00001\]/);
      assert.doesNotMatch(inner, /pit-00002|Use npm/, 'the retired rule leaves the block');
    }
  });

  it('with AGENTS.md rendered, their old block gives way to an import of it (the rules are written once)', () => {
    const files: Record<string, string> = {
      '.combee/playbook.md': PLAYBOOK_TEXT,
      'CLAUDE.md': held,
      'GEMINI.md': held,
    };
    const changes = renderAssets({
      workspace: '/ws',
      playbook: retired,
      rules: [{ id: 'pit-00002', op: 'REMOVE', support: [], flags: [] }],
      lessons: [],
      readFile: (p) => files[p],
      settings: { targets: ['agents-md'] },
    });
    const after = (path: string) => changes.find((c) => c.path === path)?.after ?? '';
    assert.match(readManagedBlock(after('AGENTS.md')) ?? '', /\[bat-00001\]/);
    assert.equal(after('CLAUDE.md'), '# Team\n\nOur own words.\n\n@AGENTS.md\n');
    assert.equal(after('GEMINI.md'), '# Team\n\nOur own words.\n\n@./AGENTS.md\n');
  });

  it('a whole file Combee wrote (the Cursor rule) is kept in sync too', () => {
    const cursor =
      '---\nalwaysApply: true\n---\n<!-- Generated by Combee from .combee/playbook.md; edit the playbook instead, this file is replaced. -->\n\n- [pit-00002] Use npm for installs.\n';
    const changes = renderAssets({
      workspace: '/ws',
      playbook: retired,
      rules: [{ id: 'pit-00002', op: 'REMOVE', support: [], flags: [] }],
      lessons: [],
      readFile: (p) => ({ '.combee/playbook.md': PLAYBOOK_TEXT, '.cursor/rules/combee.mdc': cursor })[p],
      settings: { targets: [] },
    });
    const rule = changes.find((c) => c.path === '.cursor/rules/combee.mdc');
    assert.ok(rule && !rule.after.includes('pit-00002'));
    // a hand-written rule of the same name is the team's
    const own = renderAssets({
      workspace: '/ws',
      playbook: retired,
      rules: [{ id: 'pit-00002', op: 'REMOVE', support: [], flags: [] }],
      lessons: [],
      readFile: (p) => ({ '.combee/playbook.md': PLAYBOOK_TEXT, '.cursor/rules/combee.mdc': '# ours\n' })[p],
      settings: { targets: [] },
    });
    assert.ok(!own.some((c) => c.path === '.cursor/rules/combee.mdc'));
  });

  it('a run names them among its targets, after the chosen ones', () => {
    const files: Record<string, string> = { 'GEMINI.md': held };
    const run = runTargets(undefined, sessions({ 'claude-code': 2 }), (p) => files[p]);
    assert.deepEqual(run.targets, ['playbook', 'agents-md', 'skills', 'claude-md', 'gemini-md']);
    assert.deepEqual(run.reasons.slice(-2), [
      'CLAUDE.md: 2 Claude Code sessions',
      "GEMINI.md: already holds Combee's rules (kept in sync)",
    ]);
  });
});
