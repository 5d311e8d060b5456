import assert from 'node:assert/strict';
import { evidenceOf, rankRules, type SelectedRule } from '../../../src/core/assets/agentsMd';
import { renderAssets } from '../../../src/core/assets/targets';
import { parsePlaybook } from '../../../src/core/playbook/markdown';

const rule = (id: string, helpful: number, harmful = 0, sessions?: number): SelectedRule => ({
  bullet: { id, helpful, harmful, content: `Rule ${id}.` },
  counted: { helpful, harmful },
  section: 'Build and test',
  ...(sessions === undefined ? {} : { sessions }),
});

describe("ranking the rules that reach the agents' files", () => {
  it('ranks by evidence: sessions behind it and sessions it helped in, less those it hurt in; never by age', () => {
    const rules = [
      rule('bat-00001', 1),
      rule('bat-00009', 0, 0, 2), // new, from two sessions
      rule('bat-00002', 5, 2),
      rule('bat-00003', 4),
      rule('bat-00010', 0, 0, 6), // new, from six sessions
      rule('bat-00004', 3, 0),
    ];
    assert.deepEqual(rules.map(evidenceOf), [1, 2, 3, 4, 6, 3]);
    assert.deepEqual(
      rankRules(rules).map((r) => r.bullet.id),
      // 6, 4; then 3 twice: bat-00002 helped in more sessions; then 2, 1
      ['bat-00010', 'bat-00003', 'bat-00002', 'bat-00004', 'bat-00009', 'bat-00001'],
    );
  });

  it('breaks ties by the playbook order, then the id, whatever order the rules come in', () => {
    const tied = [rule('bat-00007', 2), rule('bat-00002', 2), rule('bat-00005', 2)];
    assert.deepEqual(
      rankRules(tied).map((r) => r.bullet.id),
      ['bat-00007', 'bat-00002', 'bat-00005'],
    );
    const sameIdTwice = [rule('pit-00003', 1), rule('bat-00003', 1)];
    assert.deepEqual(rankRules(sameIdTwice), rankRules(sameIdTwice), 'deterministic');
  });

  it("a proposal's rules reach AGENTS.md and CLAUDE.md by the sessions behind them, within the budget", () => {
    const book = parsePlaybook(
      [
        '## Build and test',
        ...Array.from(
          { length: 8 },
          (_, i) =>
            `[bat-0000${i + 1}] helpful=0 harmful=0 :: Rule ${i + 1}: run \`make check-${i + 1}\` before pushing a change to services/${i + 1}, as the CI does.`,
        ),
        '',
      ].join('\n'),
    );
    const support = (n: number) => Array.from({ length: n }, (_, s) => ({ traceId: `s${s}`, steps: [1] }));
    // the newest rule has the most sessions behind it, the oldest the fewest
    const rules = Array.from({ length: 8 }, (_, i) => ({
      id: `bat-0000${i + 1}`,
      op: 'ADD' as const,
      content: `Rule ${i + 1}`,
      support: support(i + 1),
    }));
    const files = renderAssets({
      workspace: '/w',
      playbook: book,
      rules,
      lessons: [],
      readFile: () => undefined,
      settings: { targets: ['agents-md', 'claude-md'], budgetTokens: 260 },
    });
    // CLAUDE.md imports AGENTS.md; alone, it holds the budgeted rules itself
    assert.equal(files.find((f) => f.path === 'CLAUDE.md')?.after, '@AGENTS.md\n');
    const alone = renderAssets({
      workspace: '/w',
      playbook: book,
      rules,
      lessons: [],
      readFile: () => undefined,
      settings: { targets: ['claude-md'], budgetTokens: 260 },
    });
    for (const [name, text] of [
      ['AGENTS.md', files.find((f) => f.path === 'AGENTS.md')?.after ?? ''],
      ['CLAUDE.md', alone.find((f) => f.path === 'CLAUDE.md')?.after ?? ''],
    ]) {
      const shown = [...text.matchAll(/\[(bat-\d+)\]/g)].map((m) => m[1]).filter((id, i, all) => all.indexOf(id) === i);
      assert.ok(shown.length > 0 && shown.length < 8, `${name}: the budget leaves some out (${shown.join(', ')})`);
      assert.ok(shown.includes('bat-00008'), `${name}: the best-supported rule is in`);
      assert.ok(!shown.includes('bat-00001'), `${name}: the least-supported rule is out`);
    }
  });
});
