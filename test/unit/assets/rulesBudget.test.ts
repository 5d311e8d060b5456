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
  it('keeps the new rule in, and names the rule that leaves for it instead of dropping either silently', () => {
    const budgetTokens = 210;
    const first = renderAgentsMd({
      playbook: parsePlaybook(playbook(false)),
      playbookPath: '.combee/playbook.md',
      scopes: new Map(),
      readFile: () => undefined,
      budgetTokens,
      local: countedAsWritten(parsePlaybook(playbook(false))),
    });
    const before = first[0]?.after ?? '';
    assert.ok(before.includes('[conv-00001]') && !before.includes('[conv-00006]'), 'the block was already full');
    const warnings: string[] = [];
    const [change] = renderAgentsMd({
      playbook: parsePlaybook(playbook(true)),
      playbookPath: '.combee/playbook.md',
      scopes: new Map(),
      readFile: (path) => (path === 'AGENTS.md' ? before : undefined),
      budgetTokens,
      local: countedAsWritten(parsePlaybook(playbook(true))),
      fresh: new Set(['conv-00007']),
      warn: (m) => warnings.push(m),
    });
    assert.ok(change.after.includes('[conv-00007]'), 'the new rule has its place');
    const shownBefore = [...before.matchAll(/\[(conv-\d+)\]/g)].map((m) => m[1]);
    const left = shownBefore.filter((id) => !change.after.includes(`[${id}]`));
    assert.ok(left.length >= 1, 'a rule made room');
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0], /^AGENTS\.md: its rules block is full \(210 tokens\): /);
    for (const id of left) assert.ok(warnings[0].includes(`[${id}]`), `${id} is named`);
    assert.ok(left.includes(shownBefore.at(-1) ?? ''), 'the least helpful shown rule leaves first');
  });
});
