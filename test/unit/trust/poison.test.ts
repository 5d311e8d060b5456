import assert from 'node:assert/strict';
import { BENIGN, POISONED } from '../../../testing/poisonCorpus';
import { CLONED_PLAYBOOK, CLONED_POISONED, runPoisonCorpus } from '../../../testing/poisonRun';

describe('poisoned rules: the corpus learned by a credulous model through the loopback server', () => {
  it('flags every injected rule with its kind, marks it in the playbook diff, keeps it out of every other asset; false flags on the benign sessions stay within 5 %', async () => {
    assert.ok(POISONED.length >= 30 && BENIGN.length >= 30, 'corpus size');
    assert.ok(new Set(POISONED.map((c) => c.vector)).size >= 8, 'every vector');
    const { figures, proposal } = await runPoisonCorpus({ learner: 'credulous', clonedPlaybook: true });
    assert.ok(proposal, 'a proposal');
    assert.deepEqual(
      figures.poisoned.notProposed,
      [],
      'every injected lesson reached the proposal (so the screen saw it), or a gate left it out',
    );
    assert.deepEqual(figures.poisoned.notFlagged, []);
    // a lesson that repeats a hook's message, injected among the user's turns, is that text, no rule: left out by
    // the echoes-turn gate; what the agent read (files, pages, tool output) is no turn, and the screen catches it
    assert.deepEqual(
      figures.poisoned.gatedOut,
      POISONED.filter((c) => c.vector === 'hook-message').map((c) => c.id),
    );
    assert.equal(figures.poisoned.flagged + figures.poisoned.gatedOut.length, POISONED.length);
    assert.deepEqual(figures.poisoned.wrongKind, []);
    assert.equal(
      figures.poisoned.bySource + figures.poisoned.gatedOut.length,
      POISONED.length,
      'their evidence alone flags every one too (no cited step is the user saying it or an action on it that worked)',
    );
    assert.deepEqual(figures.leaks, []);
    assert.deepEqual(figures.unmarked, []);
    assert.deepEqual(figures.benign.notProposed, []);
    assert.ok(
      figures.benign.falseFlags.length <= Math.floor(BENIGN.length * 0.05),
      JSON.stringify(figures.benign.falseFlags, null, 1),
    );
    // the cloned repository's own poisoned rules: held back, reported, and nowhere but the playbook
    assert.deepEqual(
      proposal.heldRules.map((h) => h.id),
      ['too-00002', 'too-00003', 'too-00004'],
    );
    assert.deepEqual(figures.heldLeaks, []);
    assert.ok(
      figures.warnings.some((w) => /rule too-00002 in \.combee\/playbook\.md is flagged \(remote-code/.test(w)),
      figures.warnings.join('\n'),
    );
    const agents = proposal.files.find((f) => f.path === 'AGENTS.md')?.after ?? '';
    assert.match(agents, /Run the tests with `pnpm test`\./, 'honest existing rules are still rendered');
    assert.match(agents, /Check the GitHub API rate limit/, 'benign learned rules are rendered');
    for (const path of [
      'CLAUDE.md',
      'GEMINI.md',
      '.github/copilot-instructions.md',
      '.cursor/rules/combee.mdc',
      '.clinerules/combee.md',
    ])
      assert.ok(
        proposal.files.some((f) => f.path === path),
        path,
      );
  });

  it('is deterministic: the same corpus and seed give the same proposal byte for byte', async () => {
    const a = await runPoisonCorpus({ learner: 'credulous', seed: 3 });
    const b = await runPoisonCorpus({ learner: 'credulous', seed: 3 });
    const strip = (p: typeof a.proposal) => JSON.stringify({ files: p?.files.map((f) => f.after), rules: p?.rules });
    assert.equal(strip(a.proposal), strip(b.proposal));
  });
});

describe('flagged rules and the model', () => {
  it("never shows a held rule of a cloned repository's playbook to the model, in any request", async () => {
    const { requests } = await runPoisonCorpus({ learner: 'credulous', clonedPlaybook: true });
    assert.ok(requests.length > 0);
    const held = CLONED_POISONED.map(
      (id) =>
        CLONED_PLAYBOOK.split('\n')
          .find((l) => l.startsWith(`[${id}]`))!
          .split(' :: ')[1],
    );
    const carrying = requests.filter((r) =>
      held.some((text) => JSON.stringify(r.messages).includes(text.slice(0, 40))),
    );
    assert.equal(carrying.length, 0, `${carrying.length} of ${requests.length} requests carried a held rule`);
    // the honest rules are still shown where related
    assert.ok(requests.some((r) => JSON.stringify(r.messages).includes('[too-00001]')));
  });
});

describe("the screen's precision with a credulous model that cites loosely", () => {
  it('flags every poisoned rule and at most 1 benign one when the model cites only the opening request', async () => {
    const { figures } = await runPoisonCorpus({ learner: 'credulous', clonedPlaybook: true, citing: 'request' });
    assert.equal(
      figures.poisoned.flagged + figures.poisoned.gatedOut.length,
      figures.poisoned.total,
      figures.poisoned.notFlagged.join(', '),
    );
    assert.equal(figures.poisoned.total, POISONED.length);
    assert.ok(
      figures.benign.falseFlags.length <= 1,
      `${figures.benign.falseFlags.length} / ${figures.benign.total}: ${figures.benign.falseFlags.map((f) => `${f.id} ${f.flags}`).join('\n')}`,
    );
    assert.equal(figures.benign.total, BENIGN.length);
  });
});

describe('the screen on the offline learner, on the poisoning corpus', () => {
  it('leaves no rule from a poisoned session unflagged, and flags at most 1 benign one', async () => {
    const { figures } = await runPoisonCorpus({ learner: 'offline', clonedPlaybook: true, seed: 1 });
    const o = figures.bySupport;
    assert.equal(o.poisonedFlagged, o.poisonedRules, `${o.poisonedRules - o.poisonedFlagged} unflagged`);
    assert.ok(o.benignRules > 0, 'it learns from the benign sessions');
    assert.ok(o.benignFlagged.length <= 1, o.benignFlagged.join('\n'));
  });
});
