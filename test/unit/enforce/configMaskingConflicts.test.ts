import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AGENT_HOOKS } from '../../../src/core/assets/enforce/agentHooks';
import { withHookEntry } from '../../../src/core/assets/enforce/hookConfig';
import { makeFileChange, type Proposal } from '../../../src/core/assets/proposal';
import { rebaseChange } from '../../../src/core/assets/rebase';
import { restoredText, storedChange, storedText } from '../../../src/core/assets/storedText';
import { planReview } from '../../../src/core/service/review/decide';
import { fileWriter } from '../../../src/core/service/review/fileWriter';
import { restoreStep } from '../../../src/core/service/review/restore';
import { UndoStack } from '../../../src/core/service/review/undo';
import { reviewFixture } from '../../support/reviewProposal';

// What is written must mask to exactly what was reviewed: when the file on disk no longer has a masked value the
// stored text needs, or its secrets no longer line up, the conflict is named and nothing is written.

const GEMINI = '.gemini/settings.json';
const gemini = AGENT_HOOKS['gemini-cli'].shape!;

describe('agent config secrets, conflicts', () => {
  it('a value taken out on disk where the proposal edits: nothing is written, the conflict named', async () => {
    const fx = await reviewFixture();
    const team = '{"mcpServers":{"docs":{"env":{"DOCS_TOKEN":"dt-Xq7Lm2Vr9Tz4"}}}}\n';
    mkdirSync(join(fx.workspace, dirname(GEMINI)), { recursive: true });
    const path = join(fx.workspace, GEMINI);
    writeFileSync(path, team);
    const made: Proposal = {
      ...fx.proposal,
      id: 'hooks-1',
      files: [makeFileChange(GEMINI, team, withHookEntry(team, true, gemini)!)!],
      rules: [],
      ops: [],
      tags: [],
    };
    await fx.proposals.save(made);
    const proposal = (await fx.proposals.load(fx.workspace, made.id))!;
    const since = '{"mcpServers":{"docs":{"env":{}}}}\n';
    writeFileSync(path, since);
    const deps = { store: fx.store, proposals: fx.proposals, writer: fileWriter(fx.workspace), warn: () => undefined };
    const result = await new UndoStack(fx.store.dir, fx.workspace).commit(
      deps,
      await planReview(deps, proposal, { kind: 'accept-file', path: GEMINI }),
    );
    assert.equal(result.decided, false);
    assert.deepEqual(
      result.outcome.conflicts.map((c) => c.path),
      [GEMINI],
    );
    assert.equal(readFileSync(path, 'utf8'), since);
  });

  it('an accept that needs a value the file no longer has names its path', () => {
    // a change whose added lines hold a masked value (Combee's edit of a one-line file rewrites that line)
    const before = '{\n  "a": 1\n}\n';
    const after = '{\n  "a": 1,\n  "mcpServers": { "x": { "headers": { "Authorization": "Bearer b-1" } } }\n}\n';
    const stored = storedChange(makeFileChange(GEMINI, before, after)!);
    assert.ok(!stored.after.includes('b-1'));
    const result = rebaseChange(stored, before);
    assert.equal(result.kind, 'conflict');
    assert.match(
      result.kind === 'conflict' ? result.reason : '',
      /^\.gemini\/settings\.json changed since the proposal: its masked value mcpServers\.x\.headers\.Authorization is no longer in the file$/,
    );
  });

  it('an undo that needs a value the file no longer has writes nothing', () => {
    const before = '{ "env": { "K": "v-1" }, "x": 1 }\n';
    const after = '{ "x": 1 }\n';
    const write = { path: GEMINI, before: storedText(GEMINI, before), after: storedText(GEMINI, after) };
    const step = restoreStep(write, after);
    assert.deepEqual(step, {
      kind: 'conflict',
      reason: `${GEMINI} was edited since the decision: its masked value env.K is no longer in the file`,
    });
  });

  it('secrets the redactor took out must line up with the file’s, in order', () => {
    const key = 'sk-proj-Rt5Yu8Io2Pa4Sd6Fg9Hj1Kl3Zx7Cv0Bn';
    const real = `{ "hooks": { "Stop": [{ "command": "curl -H 'Authorization: Bearer ${key}' x" }] } }\n`;
    const stored = storedText(GEMINI, real);
    assert.ok(!stored.includes(key));
    assert.deepEqual(restoredText(GEMINI, stored, real), { text: real });
    // the secret gone from the file: its tag can't be filled, and is never written
    const gone = real.replace(`Bearer ${key}`, 'Bearer');
    assert.deepEqual(restoredText(GEMINI, stored, gone), {
      problem: 'the secrets taken out of it no longer line up with the file',
    });
    // a text that holds the tag as written, which the file does not: never written into it
    assert.ok('problem' in restoredText(GEMINI, `${stored.trimEnd()}\n`.replace('x"', '[REDACTED:openai-key]"'), real));
  });

  it('a file that cannot be read: its secrets redacted, and put back only as the disk has them', () => {
    const key = 'sk-proj-Rt5Yu8Io2Pa4Sd6Fg9Hj1Kl3Zx7Cv0Bn';
    const broken = `{ "env": { "OPENAI_API_KEY": "${key}" `;
    const stored = storedText(GEMINI, broken);
    assert.ok(!stored.includes(key));
    assert.deepEqual(restoredText(GEMINI, stored, broken), { text: broken });
    assert.ok('problem' in restoredText(GEMINI, stored, '{ "env": {} }'));
  });
});
