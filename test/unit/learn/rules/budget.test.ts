import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { budgetedTokens, budgetOps } from '../../../../src/core/learn/rules/budget';
import { confirmCounters } from '../../../../src/core/learn/rules/confirmedCounters';
import { ruleStandings } from '../../../../src/core/learn/rules/standings';
import { bullets, type Playbook } from '../../../../src/core/playbook/model';
import { countedAsWritten, ledgerConfirming } from '../../../support/countedRules';
import { offlineRoles } from '../../../../src/core/llm/providers';
import { parsePlaybook, serializePlaybook } from '../../../../src/core/playbook/markdown';
import { learnWorkspace } from '../../../../src/core/service/learnWorkspace';
import { ProposalStore } from '../../../../src/core/store/proposals';
import { TraceStore } from '../../../../src/core/store/traceStore';
import { WorkspaceState } from '../../../../src/core/store/workspaceState';
import { countTokens } from '../../../../src/core/util/tokens';
import { tempDir } from '../../../../testing/tmp';
import { makeTrace, shell, user } from '../../../../testing/traces';

/** A playbook of `n` conventions, the first ones most helpful. */
function playbook(n: number): string {
  const lines = Array.from(
    { length: n },
    (_, i) =>
      `[conv-${String(i + 1).padStart(5, '0')}] helpful=${n - i} harmful=0 :: Convention number ${i + 1}: keep module ${i + 1} free of side effects at import time.`,
  );
  return `# Playbook\n\n## Conventions\n${lines.join('\n')}\n`;
}

/** Standings whose counters this machine counted as written, but for the rules of `except`. */
function counted(book: Playbook, except: string[] = []) {
  const local = countedAsWritten(book, except);
  return ruleStandings(
    [],
    bullets(book).map((b) => ({ id: b.id, counters: confirmCounters(b, local(b.id)), flagged: false })),
  );
}

describe('the playbook’s token budget', () => {
  it('proposes retiring the least helpful rules until it fits, never a kept one, each saying what it makes room for', () => {
    const book = parsePlaybook(playbook(10));
    const total = countTokens(serializePlaybook(book));
    const budget = total - 40; // two or three rules too many
    const { ops, before, after } = budgetOps(book, budget, new Set(['conv-00010']), counted(book), ['conv-00010']);
    assert.equal(before, total);
    assert.ok(after <= budget, `${after} ≤ ${budget}`);
    assert.ok(ops.length >= 1 && ops.length <= 4, `${ops.length} retirements`);
    assert.deepEqual(
      ops.map((o) => (o.op === 'REMOVE' ? o.id : '')),
      ['conv-00009', 'conv-00008', 'conv-00007', 'conv-00006'].slice(0, ops.length),
      'the least helpful first; conv-00010 is kept',
    );
    for (const op of ops) assert.match(op.op === 'REMOVE' ? op.reason : '', /makes room for \[conv-00010\]/);
    assert.deepEqual(budgetOps(book, total, new Set(), counted(book), []).ops, [], 'within budget: nothing');
    // a cloned playbook claiming conv-00001 helped 10 times, when no session here said so: it is the first to go
    const forged = budgetOps(book, budget, new Set(['conv-00010']), counted(book, ['conv-00001']), ['conv-00010']);
    assert.equal(forged.ops[0]?.op === 'REMOVE' && forged.ops[0].id, 'conv-00001', 'a forged count keeps nothing');
    assert.match(forged.ops[0]?.op === 'REMOVE' ? forged.ops[0].reason : '', /\(\+0 −0\)/);
    const stuck = budgetOps(
      book,
      10,
      new Set(book.sections[0].lines.map((l) => (l.kind === 'bullet' ? l.bullet.id : ''))),
      new Map(),
      [],
    );
    assert.deepEqual(stuck.ops, []);
    assert.match(stuck.warning ?? '', /over its budget/);
  });

  it('counts the rules, not their marks: marking every rule retires nothing more', () => {
    const book = parsePlaybook(playbook(10));
    const marked = parsePlaybook(
      playbook(10).replace(
        /^\[(conv-\d+)\]/gm,
        '<!-- combee:model [$1] written by openai gpt-4o-mini (prompt 1) -->\n[$1]',
      ),
    );
    assert.ok(countTokens(serializePlaybook(marked)) > countTokens(serializePlaybook(book)) + 100, 'the marks weigh');
    const budget = countTokens(serializePlaybook(book)) - 40;
    const keep = new Set(['conv-00010']);
    const plain = budgetOps(book, budget, keep, counted(book), ['conv-00010']);
    const withMarks = budgetOps(marked, budget, keep, counted(marked), ['conv-00010']);
    assert.deepEqual(withMarks.ops, plain.ops);
    assert.equal(withMarks.before, plain.before);
  });

  it('a run whose new lesson overflows the budget proposes it with a replacement, not a silent drop', async () => {
    const root = tempDir('combee-budget-');
    const workspace = join(root, 'ws');
    mkdirSync(join(workspace, '.combee'), { recursive: true });
    const text = playbook(12);
    writeFileSync(join(workspace, '.combee', 'playbook.md'), text);
    const store = new TraceStore(join(root, 'store'));
    // counted by earlier runs on this machine
    await ledgerConfirming(new WorkspaceState(store.dir), workspace, parsePlaybook(text));
    const lesson = [
      user('the cart tests fail'),
      ...shell('pnpm test', "Error: Cannot find module '.prisma/client/default'", 1),
      ...shell('pnpm db:generate', 'Generated Prisma Client'),
      ...shell('pnpm test', 'Tests: 12 passed'),
    ];
    for (const id of ['codex:b1', 'codex:b2'])
      await store.saveTrace(makeTrace(id, lesson, { agent: 'codex', cwd: workspace }));
    const roles = offlineRoles();
    const budget = countTokens(text) - 10;
    const { proposal } = await learnWorkspace({
      store,
      proposals: new ProposalStore(new WorkspaceState(store.dir)),
      workspace,
      ...roles,
      provider: roles.info,
      seed: 2,
      dryRun: true,
      assets: { targets: ['agents-md'], playbookBudgetTokens: budget },
    });
    assert.ok(proposal);
    const added = proposal.ops.filter((o) => o.op.op === 'ADD').map((o) => o.ruleId);
    assert.ok(added.length > 0, 'the new lesson is proposed');
    const removed = proposal.ops.filter((o) => o.op.op === 'REMOVE');
    assert.ok(removed.length > 0, 'with what leaves for it');
    for (const o of removed) {
      assert.ok(o.op.op === 'REMOVE' && o.op.reason.includes(`makes room for [${added[0]}]`), JSON.stringify(o));
      assert.ok(!added.includes(o.ruleId));
    }
    assert.equal(removed[0].ruleId, 'conv-00012', 'the least helpful leaves first');
    const notes = proposal.rules.find((r) => r.id === added[0])?.notes ?? [];
    assert.ok(
      notes.some((n) => /token\(s\); the playbook is \d+ of its \d+-token budget/.test(n)),
      notes.join('\n'),
    );
    const after = proposal.files.find((f) => f.path === '.combee/playbook.md')?.after ?? '';
    // what the budget counts: the rules, not the model mark above each new one
    const measured = budgetedTokens(parsePlaybook(after));
    assert.ok(measured <= budget && measured < countTokens(after), `${measured} ≤ ${budget}`);
    assert.equal(readFileSync(join(workspace, '.combee', 'playbook.md'), 'utf8'), text, 'nothing written');
  });
});
