import assert from 'node:assert/strict';
import { renderAgentsMd } from '../../../src/core/assets/agentsMd';
import { parsePlaybook } from '../../../src/core/playbook/markdown';
import { countedAsWritten } from '../../support/countedRules';

/** Six proven conventions, most helpful first, and optionally a new one with no counts yet. */
function playbook(withNew: boolean): string {
  const rules = Array.from(
    { length: 6 },
    (_, i) =>
      `[conv-0000${i + 1}] helpful=${9 - i} harmful=0 :: Convention ${i + 1}: keep the module ${i + 1} free of side effects when it is imported.`,
  );
  if (withNew)
    rules.push(
      '[conv-00007] helpful=0 harmful=0 :: Run `pnpm db:generate` before `pnpm test` whenever the Prisma schema or its migrations changed since the last run.',
    );
  return `## Conventions\n${rules.join('\n')}\n`;
}

describe('a full rules block in AGENTS.md', () => {
  const budgetTokens = 210;
  const full = () => {
    const first = renderAgentsMd({
      playbook: parsePlaybook(playbook(false)),
      playbookPath: '.combee/playbook.md',
      scopes: new Map(),
      readFile: () => undefined,
      budgetTokens,
      local: countedAsWritten(parsePlaybook(playbook(false))),
    });
    return first[0]?.after ?? '';
  };
  const withNewRule = (sessions: number, warnings: string[], before: string) =>
    renderAgentsMd({
      playbook: parsePlaybook(playbook(true)),
      playbookPath: '.combee/playbook.md',
      scopes: new Map(),
      readFile: (path) => (path === 'AGENTS.md' ? before : undefined),
      budgetTokens,
      local: countedAsWritten(parsePlaybook(playbook(true))),
      fresh: new Set(['conv-00007']),
      sessions: new Map([['conv-00007', sessions]]),
      warn: (m) => warnings.push(m),
    })[0];

  it('takes a new rule better evidenced than one it holds, and names the rule that leaves for it', () => {
    const before = full();
    assert.ok(before.includes('[conv-00001]') && !before.includes('[conv-00006]'), 'the block was already full');
    const warnings: string[] = [];
    const change = withNewRule(8, warnings, before);
    assert.ok(change.after.includes('[conv-00007]'), 'eight sessions outweigh the rules that helped in fewer');
    const shownBefore = [...before.matchAll(/\[(conv-\d+)\]/g)].map((m) => m[1]);
    const left = shownBefore.filter((id) => !change.after.includes(`[${id}]`));
    assert.ok(left.length >= 1, 'a rule made room');
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0], /^AGENTS\.md: its rules block is full \(210 tokens\): /);
    for (const id of left) assert.ok(warnings[0].includes(`[${id}]`), `${id} is named`);
    assert.ok(left.includes(shownBefore.at(-1) ?? ''), 'the least helpful shown rule leaves first');
    assert.ok(change.after.includes('[conv-00001]'), 'the best-evidenced rule stays');
  });

  it('keeps the better-evidenced rules over a new one from a single session, and says so', () => {
    const before = full();
    const warnings: string[] = [];
    const change = withNewRule(1, warnings, before);
    assert.ok(
      !change || !change.after.includes('[conv-00007]'),
      'one session is not more than rules that helped in four',
    );
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(
      warnings[0],
      /\[conv-00007\] does not fit its rules block \(210 tokens\) beside better-evidenced rules/,
    );
  });
});
