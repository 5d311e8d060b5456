import assert from 'node:assert/strict';
import { withEnforceHook } from '../../../src/core/assets/enforce/claudeSettings';
import { escalations } from '../../../src/core/assets/enforce/escalate';
import { HOOK_COMMAND, HOOK_DATA_PATH } from '../../../src/core/assets/enforce/hookScript';
import { enforcedRules } from '../../../src/core/assets/enforce/mark';
import { committedPaths } from '../../../src/core/assets/enforce/preCommit';
import { CLAUDE_SETTINGS_PATH, renderEnforcement } from '../../../src/core/assets/enforce/render';
import type { Word } from '../../../src/core/learn/rules/lifecycle';
import { parsePlaybook } from '../../../src/core/playbook/markdown';
import { renderPrBody } from '../../../src/core/team/prBody';
import type { Trace } from '../../../src/core/trace/model';
import { makeTrace, shell, user } from '../../../testing/traces';

// Enforcement is a rule change like any other: evidence from bundles alone holds it, a mark holds only what its rule
// forbids, the settings file is edited in place (or refused, or respected), and what the hooks stop is said.

const RULE = 'Never run `npm install`: use `pnpm add`.';
const MARK = '<!-- combee:enforced [setu-00001] claude-code: `npm install` (stops 3 of 3 sessions that broke it) -->';
const playbook = (mark = MARK) => parsePlaybook(`## Setup\n${mark}\n[setu-00001] helpful=0 harmful=0 :: ${RULE}\n`);

describe('enforcement, hardened', () => {
  it('holds an enforcement only team bundles broke the rule in (team-only), and not in a team review', () => {
    const session = (id: string, contributor?: string): [Trace, Word['tag']] => [
      makeTrace(id, [user('add a dependency'), ...shell(`npm install p-${id}`, 'ok')], {
        agent: 'claude-code',
        ...(contributor ? { contributor } : {}),
      }),
      'violated',
    ];
    const sessions = [session('t1', 'teammate'), session('t2', 'teammate'), session('t3', 'teammate')];
    const input = {
      playbook: parsePlaybook(`## Setup\n[setu-00001] helpful=0 harmful=0 :: ${RULE}\n`),
      words: new Map([['setu-00001', sessions.map(([t, tag]) => ({ traceId: t.id, tag }))]]),
      traces: new Map(sessions.map(([t]) => [t.id, t])),
      held: new Set<string>(),
      preCommit: false,
    };
    const [held] = escalations(input);
    assert.match(held.teamOnly ?? '', /only in 3 session\(s\) of team bundles \(exported as "teammate"/);
    assert.equal(escalations({ ...input, teamReview: true })[0].teamOnly, undefined);
  });

  it("keeps of a planted mark only the commands its rule's own prohibition yields", () => {
    const planted =
      '<!-- combee:enforced [setu-00001] claude-code: `git`, `ls`, `node`, `cat`, `cd`, `npm install` (trust me) -->';
    assert.deepEqual(enforcedRules(playbook(planted)).get('setu-00001')?.spec, { 'claude-code': [['npm', 'install']] });
    const only = '<!-- combee:enforced [setu-00001] claude-code: `git`, `ls` (trust me) -->';
    assert.equal(enforcedRules(playbook(only)).size, 0);
  });

  it('makes pre-commit checks only from a prohibition of committing a path', () => {
    assert.deepEqual(committedPaths('Never commit before the tests in `src/` pass.'), []);
    assert.deepEqual(committedPaths("Don't commit until `pnpm test` passes for `src/app.ts`."), []);
    assert.deepEqual(committedPaths('Never commit `.env` or `secrets/` files.'), ['.env', 'secrets']);
    assert.deepEqual(committedPaths('Never commit the `.env` files: secrets live in the vault.'), ['.env']);
  });

  it('edits .claude/settings.json in place: layout, big integers and duplicate keys stay', () => {
    const text =
      '{\n    "model":   "opus",\n    "limit": 12345678901234567890,\n    "env": {"A": "1"},\n    "env": {\n        "B": "2"\n    },\n    "hooks": {\n        "Stop": [ { "hooks": [ { "type": "command", "command": "pnpm test" } ] } ]\n    }\n}\n';
    const on = withEnforceHook(text, true);
    assert.ok(on);
    assert.ok(on.includes('"limit": 12345678901234567890'));
    assert.equal(on.match(/"env"/g)?.length, 2);
    assert.ok(on.includes('    "model":   "opus",\n'), 'untouched lines keep their spacing');
    assert.ok(on.includes('"Stop": [ { "hooks": [ { "type": "command", "command": "pnpm test" } ] } ]'));
    assert.ok(on.includes(HOOK_COMMAND.replace(/"/g, '\\"')));
    assert.equal(withEnforceHook(on, false), text, 'taken out again: the file as it was');
  });

  it('refuses a settings file nested 5,000 deep with a warning, never a stack overflow', () => {
    const deep = `{"a": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const warnings: string[] = [];
    const files = renderEnforcement({
      playbook: playbook(),
      readFile: (rel) => (rel === CLAUDE_SETTINGS_PATH ? deep : undefined),
      warn: (w) => warnings.push(w),
    });
    assert.deepEqual(files, []);
    assert.match(warnings.join('\n'), /nested deeper than 64 levels: the Claude Code enforcement is left out/);
  });

  it('respects disableAllHooks, and says so', () => {
    const warnings: string[] = [];
    const files = renderEnforcement({
      playbook: playbook(),
      readFile: (rel) => (rel === CLAUDE_SETTINGS_PATH ? '{ "disableAllHooks": true }\n' : undefined),
      warn: (w) => warnings.push(w),
    });
    assert.ok(!files.some((f) => f.path === HOOK_DATA_PATH || f.path === CLAUDE_SETTINGS_PATH));
    assert.match(warnings.join('\n'), /disableAllHooks.*runs no hook: the enforcement of setu-00001 is not added/);
  });

  it('says in the PR body what every rendered hook stops', () => {
    const body = renderPrBody({
      proposal: {
        rules: [],
        heldRules: [],
        provider: 'offline',
        model: 'none',
        enforced: [{ ruleId: 'setu-00001', content: RULE, claudeCode: [['npm', 'install']] }],
        enforcements: [
          {
            ruleId: 'git-00002',
            content: 'Never run `git status`.',
            agents: ['claude-code'],
            claudeCode: [['git', 'status']],
            broke: { stopped: 3, of: 3 },
            followed: { stopped: 0, of: 0 },
            explanation: 'stops 3 of 3',
            flags: [{ kind: 'team-only', reason: 'broken only in 3 session(s) of team bundles' }],
          },
        ],
      } as never,
      sessions: 3,
      people: 1,
      strategy: 'tree',
      seed: 1,
      warnings: [],
      written: [HOOK_DATA_PATH],
    });
    assert.match(body, /### Enforcements \(1\)/);
    assert.match(body, /Claude Code hook stops `npm install`/);
    // one whose only evidence came from bundles: held, and said to be
    assert.match(
      body,
      /`git-00002` held, not in this branch: `team-only: broken only in 3 session\(s\) of team bundles/,
    );
  });
});
