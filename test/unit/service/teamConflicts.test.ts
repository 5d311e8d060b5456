import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { readWorkspaceFile } from '../../../src/core/service/proposalFiles';
import { decide } from '../../../src/core/service/review/decide';
import { fileWriter } from '../../../src/core/service/review/fileWriter';
import { conflictsDetail, openConflicts, suggestedLine } from '../../../src/core/service/review/teamConflicts';
import { ProposalStore } from '../../../src/core/store/proposals';
import { TraceStore } from '../../../src/core/store/traceStore';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import type { Trace } from '../../../src/core/trace/model';
import { capture } from '../../../testing/cliOutput';
import { dryLearn } from '../../../testing/dryLearn';
import { assistant, makeTrace, shell, user } from '../../../testing/traces';
import { tempDir } from '../../../testing/tmp';

// A rule that contradicts a line of the team's own text is kept in view: on the proposal (a review comment on the
// line, with the line as the rule would have it), in the CLI summary and dry run, until it is decided. A lesson the
// team's line kept out is shown the same way, never only logged.

async function workspaceWith(agents: string, traces: Trace[]) {
  const root = tempDir('combee-team-conflicts-');
  const workspace = join(root, 'ws');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'AGENTS.md'), agents);
  const storeDir = join(root, 'store');
  const store = new TraceStore(storeDir);
  for (const trace of traces) await store.saveTrace({ ...trace, cwd: workspace });
  return { workspace, store, storeDir };
}

/** The agent installs with npm and the user overrules it: pnpm here, never npm. */
const overruled = (id: string) =>
  makeTrace(id, [
    user('add lodash to the cart module'),
    ...shell('npm install lodash-es', 'added 1 package'),
    user('No — this repo uses pnpm, never npm. Use pnpm add.'),
    assistant('Switching to pnpm.'),
    ...shell('pnpm add lodash-es', 'done'),
  ]);

/** A lesson of its own, so the run proposes something besides the one the team's line keeps out. */
const protoFix = (id: string) =>
  makeTrace(id, [
    user('fix the api tests'),
    ...shell('pnpm api:test', 'Error: proto stubs are missing', 1),
    ...shell('pnpm proto:gen', 'generated'),
    ...shell('pnpm api:test', 'Tests 9 passed'),
  ]);

const TEAM_NPM = '# Agents\n\n## Setup\n\n- Install dependencies with `npm install`.\n';
const RULE = 'This repo uses pnpm, never npm. Use pnpm add.';

describe('conflicts with the team’s own text', () => {
  it('suggests the line as the rule would have it, its list marker kept', () => {
    assert.equal(suggestedLine('- Install with `npm install`.', 'Use pnpm.'), '- Use pnpm.');
    assert.equal(suggestedLine('2. Install with `npm install`.', 'Use pnpm.'), '2. Use pnpm.');
    assert.equal(suggestedLine('Install with `npm install`.', 'Use pnpm.'), 'Use pnpm.');
  });

  it('a rule that overrules a team line is a conflict on that line until the rule is decided', async () => {
    const { workspace, store } = await workspaceWith(TEAM_NPM, [
      overruled('claude-code:u1'),
      protoFix('claude-code:p1'),
    ]);
    const { proposal } = await dryLearn(store, workspace);
    assert.ok(proposal, 'a proposal');
    const rule = proposal.rules.find((r) => r.content === RULE);
    assert.ok(rule, JSON.stringify(proposal.rules.map((r) => r.content)));
    const open = openConflicts(proposal, (rel) => readWorkspaceFile(workspace, rel));
    assert.deepEqual(
      open.map(({ ruleId, path, line, lineNumber, outcome, suggestion }) => ({
        ruleId,
        path,
        line,
        lineNumber,
        outcome,
        suggestion,
      })),
      [
        {
          ruleId: rule.id,
          path: 'AGENTS.md',
          line: '- Install dependencies with `npm install`.',
          lineNumber: 4,
          outcome: 'overrules',
          suggestion: `- ${RULE}`,
        },
      ],
    );
    assert.match(open[0].reason, /the other rules it out/);
    // a decision on another rule leaves it open; the rule's own decision closes it
    const proposals = new ProposalStore(new WorkspaceState(store.dir));
    await proposals.save(proposal);
    const deps = { store, proposals, writer: fileWriter(workspace), warn: () => undefined };
    const others = proposal.rules.filter((r) => r.id !== rule.id).map((r) => r.id);
    assert.ok(others.length > 0, 'another rule to decide first');
    let now = (await decide(deps, proposal, { kind: 'reject-rules', ids: others })).proposal;
    assert.equal(openConflicts(now, (rel) => readWorkspaceFile(workspace, rel)).length, 1, 'still open');
    // and the rule's note says so still, where the rule is reviewed
    assert.ok(
      now.rules.find((r) => r.id === rule.id)?.notes?.some((n) => n.startsWith("contradicts the team's own text")),
      JSON.stringify(now.rules),
    );
    now = (await decide(deps, now, { kind: 'reject-rules', ids: [rule.id] })).proposal;
    assert.deepEqual(
      openConflicts(now, (rel) => readWorkspaceFile(workspace, rel)),
      [],
    );
  });

  it('a lesson the team line kept out is on the proposal, not only in a log line', async () => {
    const { workspace, store } = await workspaceWith('# Agents\n\nThis repo uses pnpm: never npm.\n', [
      makeTrace('claude-code:t4', [
        user('run the tests'),
        // a wrong way first, so the session names the way that worked
        ...shell('npm run tests', 'npm ERR! Missing script: "tests"', 1),
        ...shell('npm test', 'Tests 12 passed'),
      ]),
      protoFix('claude-code:p4'),
    ]);
    const { proposal } = await dryLearn(store, workspace);
    assert.ok(proposal, 'a proposal');
    assert.ok(!proposal.rules.some((r) => /npm test/.test(r.content ?? '')), 'the lesson is not proposed');
    const left = openConflicts(proposal, (rel) => readWorkspaceFile(workspace, rel));
    assert.equal(left.length, 1, JSON.stringify(proposal.teamConflicts));
    assert.equal(left[0].outcome, 'left-out');
    assert.match(left[0].content, /npm test/);
    assert.equal(left[0].line, 'This repo uses pnpm: never npm.');
    assert.equal(left[0].lineNumber, 2);
  });

  it('`combee learn --dry-run` names every open conflict, in its summary and its JSON', async () => {
    const { workspace, storeDir } = await workspaceWith(TEAM_NPM, [overruled('claude-code:u5')]);
    const text = capture();
    const args = ['learn', '--store', storeDir, '--workspace', workspace, '--provider', 'offline', '--dry-run'];
    assert.equal(await runCli(args, text), 0);
    const summary = text.stdout.join('\n');
    assert.match(summary, /1 conflict\(s\) with your team's own text/);
    assert.ok(summary.includes(`overrules AGENTS.md:5 ("- Install dependencies with \`npm install\`.")`), summary);
    assert.ok(summary.includes(`suggested: "- ${RULE}"`), summary);
    const json = capture();
    assert.equal(await runCli([...args, '--json'], json), 0);
    const parsed = JSON.parse(json.stdout.join('\n')) as { proposal: { teamConflicts: Array<{ path: string }> } };
    assert.deepEqual(
      parsed.proposal.teamConflicts.map((c) => c.path),
      ['AGENTS.md'],
    );
  });
});

describe('the Accept dialog', () => {
  it('names every open conflict, one a line, and says nothing when there is none', () => {
    const at = { content: RULE, path: 'AGENTS.md', reason: 'why', suggestion: `- ${RULE}` };
    const detail = conflictsDetail([
      { ...at, ruleId: 'conv-00001', line: '- one', lineNumber: 3, outcome: 'overrules' },
      { ...at, ruleId: 'conv-00002', line: '- two', lineNumber: 7, outcome: 'left-out' },
    ]);
    assert.equal(detail.split('\n').length, 3, detail);
    assert.match(detail, /^2 conflicts with your team's own text/);
    assert.ok(detail.includes('rule conv-00001') && detail.includes('AGENTS.md:4 ("- one")'), detail);
    assert.ok(detail.includes('AGENTS.md:8 ("- two")'), detail);
    assert.equal(conflictsDetail([]), '');
  });
});
