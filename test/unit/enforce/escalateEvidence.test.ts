import assert from 'node:assert/strict';
import { escalations } from '../../../src/core/assets/enforce/escalate';
import type { Word } from '../../../src/core/learn/rules/lifecycle';
import { ruleEvidence } from '../../../src/core/learn/rules/ruleEvidence';
import { parsePlaybook } from '../../../src/core/playbook/markdown';
import type { Trace } from '../../../src/core/trace/model';
import { makeTrace, shell, user } from '../../../testing/traces';

// From sessions to a hook: each session's word on a rule comes from rule evidence (the parsed commands), and the
// escalation tries the rule's matchers on those sessions. A prohibition broken in three sessions earns a hook; plain
// commands that the rules' flag conditions leave allowed earn none.

function wordsOn(rule: string, sessions: readonly Trace[]): Map<string, Word[]> {
  const words = sessions.map((t) => ({
    traceId: t.id,
    tag: ruleEvidence(t, [{ id: 'rule-00001', content: rule }])[0].tag,
  }));
  return new Map([['rule-00001', words]]);
}

function hooksFor(rule: string, sessions: readonly Trace[]) {
  const words = wordsOn(rule, sessions);
  const found = escalations({
    playbook: parsePlaybook(`## Setup\n[rule-00001] helpful=0 harmful=0 :: ${rule}\n`),
    words,
    traces: new Map(sessions.map((t) => [t.id, t])),
    held: new Set(),
    preCommit: false,
  });
  return { tags: words.get('rule-00001')!.map((w) => w.tag), found };
}

const session = (id: string, command: string) =>
  makeTrace(
    id,
    [
      user('add the date library to the web app'),
      ...shell(command, 'added 1 package in 2s'),
      user('No, never npm install in this repo: undo that, we use pnpm.'),
      ...shell('pnpm add dayjs', 'Done in 1.1s'),
    ],
    { agent: 'claude-code' },
  );

describe('escalation from parsed evidence', () => {
  it('three sessions that break "never run `npm install`" with `npm install <pkg>` make it violated and earn a hook', () => {
    const rule = 'Never run `npm install`.';
    const sessions = [
      session('s1', 'npm install dayjs'),
      session('s2', 'npm i -D dayjs'),
      session('s3', 'cd web && npm install --save-exact dayjs'),
    ];
    const { tags, found } = hooksFor(rule, sessions);
    assert.deepEqual(tags, ['violated', 'violated', 'violated']);
    assert.equal(found.length, 1);
    assert.deepEqual(found[0].spec, { 'claude-code': [['npm', 'install']] });
    assert.deepEqual(found[0].broke, { stopped: 3, of: 3 });
  });

  it('plain `git status`, `git commit -m` and `git push` under rules with flag conditions earn no hook', () => {
    const plain = (id: string, command: string) =>
      makeTrace(id, [user('commit and push the fix'), ...shell(command, 'ok'), user('thanks')], {
        agent: 'claude-code',
      });
    const cases: Array<[string, string]> = [
      ['Never run `git status` with `-uall`.', 'git status'],
      ['Never `git commit -m wip --no-verify`.', 'git commit -m "fix the cart total"'],
      ['Never `git push` without `--force-with-lease`.', 'git push --force-with-lease'],
    ];
    for (const [rule, command] of cases) {
      const sessions = [plain('g1', command), plain('g2', command), plain('g3', command)];
      const { tags, found } = hooksFor(rule, sessions);
      assert.ok(!tags.includes('violated'), `${rule}: ${tags.join(', ')}`);
      assert.deepEqual(found, [], rule);
    }
  });
});
