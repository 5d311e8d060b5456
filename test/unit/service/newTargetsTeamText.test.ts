import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TraceStore } from '../../../src/core/store/traceStore';
import { makeTrace, shell, user } from '../../../testing/traces';
import { dryLearn } from '../../../testing/dryLearn';
import { tempDir } from '../../../testing/tmp';

// The files of the new targets are checked for rules they already hold, the way AGENTS.md is: a rule the team's own
// text there states is not proposed again (service/learnRun/resolveConflicts.ts, fed by learn/rules/teamFiles.ts).

async function playbookLearnedWith(files: Record<string, string>): Promise<string> {
  const root = tempDir('combee-team-text-');
  const workspace = join(root, 'ws');
  mkdirSync(workspace, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(workspace, path, '..'), { recursive: true });
    writeFileSync(join(workspace, path), text);
  }
  const store = new TraceStore(join(root, 'store'));
  // a wrong way first, so the session names the way that worked
  const steps = [
    user('run the tests'),
    ...shell('pnpm tests', 'ERR_PNPM_NO_SCRIPT  Missing script: tests', 1),
    ...shell('pnpm test', 'Tests 40 passed'),
  ];
  for (const id of ['claude-code:y1', 'claude-code:y2'])
    await store.saveTrace({ ...makeTrace(id, steps), cwd: workspace });
  const result = await dryLearn(store, workspace);
  return result.proposal?.files.find((f) => f.path.endsWith('playbook.md'))?.after ?? '';
}

const TEAM_LINE = '# Team\n\n- Run the tests: `pnpm test`\n';

describe("the new targets' files: rules the team's text states are not proposed again", () => {
  it('a rule no file of an agent states is proposed (the control)', async () => {
    assert.match(await playbookLearnedWith({ 'docs/notes.md': TEAM_LINE }), /`pnpm test`/);
  });

  it('QWEN.md, the file Aider is configured to read, an always-on Windsurf rule and a Kiro steering file', async () => {
    const cases: Array<Record<string, string>> = [
      { 'QWEN.md': TEAM_LINE },
      { '.aider.conf.yml': 'read: [docs/CONVENTIONS.md]\n', 'docs/CONVENTIONS.md': TEAM_LINE },
      { '.windsurf/rules/team.md': `---\ntrigger: always_on\n---\n${TEAM_LINE}` },
      { '.kiro/steering/team.md': TEAM_LINE },
    ];
    for (const files of cases)
      assert.doesNotMatch(await playbookLearnedWith(files), /`pnpm test`/, Object.keys(files).join(', '));
  });

  it('a Windsurf rule loaded only on request, or a CONVENTIONS.md Aider is not configured to read, does not count', async () => {
    for (const files of <Array<Record<string, string>>>[
      { '.windsurf/rules/team.md': `---\ntrigger: manual\n---\n${TEAM_LINE}` },
      { 'CONVENTIONS.md': TEAM_LINE },
      { '.aider.conf.yml': 'read: ../CONVENTIONS.md\n', 'CONVENTIONS.md': TEAM_LINE },
    ])
      assert.match(await playbookLearnedWith(files), /`pnpm test`/, Object.keys(files).join(', '));
  });
});
