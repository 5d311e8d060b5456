import assert from 'node:assert/strict';
import { contextCost } from '../../../src/core/assets/contextCost';
import { renderAssets } from '../../../src/core/assets/targets';
import { parsePlaybook } from '../../../src/core/playbook/markdown';

// Eight rules, the newest with the most sessions behind it: what a budget keeps is the best-evidenced.
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
const rules = Array.from({ length: 8 }, (_, i) => ({
  id: `bat-0000${i + 1}`,
  op: 'ADD' as const,
  content: `Rule ${i + 1}`,
  support: Array.from({ length: i + 1 }, (_, s) => ({ traceId: `s${s}`, steps: [1] })),
}));
const cited = (text: string) => [...new Set([...text.matchAll(/\[(bat-\d+)\]/g)].map((m) => m[1]))];

function render(settings: Parameters<typeof renderAssets>[0]['settings']) {
  const warnings: string[] = [];
  const files = renderAssets({
    workspace: '/w',
    playbook: book,
    rules,
    lessons: [],
    readFile: () => undefined,
    settings,
    warn: (m) => warnings.push(m),
  });
  return { files, warnings };
}

describe('a budget per agent', () => {
  it('an agent that loads two of Combee’s files gets the best-evidenced rules within its budget', () => {
    const targets: Array<'agents-md' | 'copilot-instructions'> = ['agents-md', 'copilot-instructions'];
    const free = render({ targets });
    const freeCost = contextCost(['copilot'], () => undefined, free.files)[0].after;
    assert.equal(cited(free.files.find((f) => f.path === 'AGENTS.md')?.after ?? '').length, 8, 'no agents: no limit');
    const { files, warnings } = render({ targets, agents: ['copilot'], agentBudgetTokens: Math.floor(freeCost / 2) });
    const cost = contextCost(['copilot'], () => undefined, files)[0].after;
    assert.ok(cost <= Math.floor(freeCost / 2), `${cost} within ${Math.floor(freeCost / 2)} (was ${freeCost})`);
    const kept = cited(files.find((f) => f.path === 'AGENTS.md')?.after ?? '');
    assert.ok(kept.length > 0 && kept.length < 8, kept.join(', '));
    assert.ok(kept.includes('bat-00008') && !kept.includes('bat-00001'), 'the best-evidenced first');
    assert.match(warnings.join('\n'), /so that each agent loads at most \d+ tokens of Combee's text/);
    // the playbook keeps every rule
    assert.equal(cited(files.find((f) => f.path === '.combee/playbook.md')?.after ?? '').length, 8);
  });

  it('one file per agent within the default budget: nothing changes', () => {
    const plain = render({ targets: ['agents-md', 'claude-md'] });
    const budgeted = render({ targets: ['agents-md', 'claude-md'], agents: ['claude-code', 'codex'] });
    assert.deepEqual(
      budgeted.files.map((f) => [f.path, f.after]),
      plain.files.map((f) => [f.path, f.after]),
    );
    assert.deepEqual(budgeted.warnings, plain.warnings);
  });
});
