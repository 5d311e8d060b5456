import assert from 'node:assert/strict';
import {
  AGENT_LOADING,
  loadsAtStart,
  AGENTS_WITHOUT_SESSIONS,
  loadsInFolder,
  rootFilesOfAnyAgent,
  skillRootsCovering,
  skillRootsOf,
} from '../../../src/core/agents/loading';
import { AGENTS } from '../../../src/core/trace/model';

describe('how each agent loads context', () => {
  it('knows every agent Combee reads sessions from, and those it only writes for', () => {
    assert.deepEqual(Object.keys(AGENT_LOADING).sort(), [...AGENTS, ...AGENTS_WITHOUT_SESSIONS].sort());
    assert.ok(!AGENTS_WITHOUT_SESSIONS.some((agent) => (AGENTS as readonly string[]).includes(agent)));
  });

  it('Windsurf, Kiro and Qwen Code load AGENTS.md and their own files; Aider only what its config names', () => {
    assert.ok(loadsAtStart('windsurf', '.windsurf/rules/combee.md') && loadsAtStart('windsurf', 'AGENTS.md'));
    assert.ok(!loadsAtStart('windsurf', '.windsurf/rules/old/combee.md'));
    assert.ok(loadsAtStart('kiro', '.kiro/steering/combee.md') && loadsAtStart('kiro', 'AGENTS.md'));
    assert.ok(loadsAtStart('qwen-code', 'QWEN.md') && loadsAtStart('qwen-code', 'AGENTS.md'));
    assert.ok(AGENT_LOADING['qwen-code'].atImports, 'a fork of Gemini CLI: @path imports');
    assert.equal(AGENT_LOADING.aider.configFile, '.aider.conf.yml');
    assert.ok(!loadsAtStart('aider', 'CONVENTIONS.md'), 'not by itself: through its config');
  });

  it('an agent loads its root files and the files of its rule folders, not those of a sub-folder', () => {
    assert.ok(loadsAtStart('claude-code', 'CLAUDE.md'));
    assert.ok(!loadsAtStart('claude-code', 'AGENTS.md'), 'Claude Code reads AGENTS.md only through an import');
    assert.ok(loadsAtStart('cursor', '.cursor/rules/combee.mdc'));
    assert.ok(!loadsAtStart('cursor', '.cursor/rules/old/combee.mdc'));
    assert.ok(!loadsAtStart('cursor', '.cursor/rules/combee.md'), 'a plain .md in .cursor/rules is ignored');
    assert.ok(loadsAtStart('cline', '.clinerules/combee.md') && loadsAtStart('cline', 'AGENTS.md'));
    for (const agent of ['codex', 'copilot', 'cursor', 'opencode', 'roo-code'] as const)
      assert.ok(loadsAtStart(agent, 'AGENTS.md'), agent);
    assert.ok(!AGENTS.some((agent) => agent !== 'continue' && loadsAtStart(agent, '.continue/rules/x.md')));
    assert.ok(!AGENTS.some((agent) => loadsAtStart('aider', agent)), 'Aider loads only what its config names');
  });

  it("OpenCode's CLAUDE.md counts only where there is no AGENTS.md", () => {
    assert.ok(!loadsAtStart('opencode', 'CLAUDE.md'));
    assert.ok(loadsAtStart('opencode', 'CLAUDE.md', (p) => p === 'CLAUDE.md'));
    assert.ok(!loadsAtStart('opencode', 'CLAUDE.md', (p) => p === 'CLAUDE.md' || p === 'AGENTS.md'));
  });

  it("a folder's own file counts for the agents that read that name in folders", () => {
    assert.ok(loadsInFolder('codex', 'services/billing/AGENTS.md'));
    assert.ok(!loadsInFolder('codex', 'services/billing/CLAUDE.md'));
    assert.ok(loadsInFolder('claude-code', 'services/billing/CLAUDE.md'));
    assert.ok(!loadsInFolder('codex', 'AGENTS.md'), 'the root file is not a folder’s');
  });

  it('every root file any agent loads, once', () => {
    const all = rootFilesOfAnyAgent();
    assert.deepEqual(all, [...new Set(all)].sort());
    for (const file of ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', '.github/copilot-instructions.md'])
      assert.ok(all.includes(file));
  });

  it('skill roots follow the agents: none in .claude/skills for Codex alone', () => {
    assert.deepEqual(skillRootsOf(['codex']), ['.agents/skills']);
    assert.deepEqual(skillRootsOf(['claude-code', 'codex', 'claude-code']), ['.claude/skills', '.agents/skills']);
    assert.deepEqual(skillRootsOf(['aider']), []);
  });

  it('the fewest skill roots that reach every agent: one shared folder where there is one', () => {
    assert.deepEqual(skillRootsCovering(['claude-code', 'codex']), ['.claude/skills', '.agents/skills']);
    assert.deepEqual(skillRootsCovering(['claude-code', 'copilot', 'cursor']), ['.claude/skills']);
    assert.deepEqual(skillRootsCovering(['codex', 'gemini-cli', 'copilot']), ['.agents/skills']);
    assert.deepEqual(skillRootsCovering(['aider', 'continue']), []);
  });

  it('each agent that can block a shell command says where and on which event', () => {
    const hooked = AGENTS.filter((agent) => AGENT_LOADING[agent].shellHook);
    assert.deepEqual(hooked.sort(), ['claude-code', 'cline', 'codex', 'copilot', 'cursor', 'gemini-cli', 'opencode']);
    assert.equal(AGENT_LOADING.cursor.shellHook?.event, 'beforeShellExecution');
    assert.equal(AGENT_LOADING['gemini-cli'].shellHook?.event, 'BeforeTool');
  });
});
