import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withEnforceHook } from '../../../src/core/assets/enforce/claudeSettings';
import { ENV_VALUE_TAG } from '../../../src/core/assets/masking/secretNames';
import { makeFileChange, type Proposal } from '../../../src/core/assets/proposal';
import { rebaseChange } from '../../../src/core/assets/rebase';
import { CLAUDE_SETTINGS_PATH, restoredText, storedChange, storedText } from '../../../src/core/assets/storedText';
import { planReview } from '../../../src/core/service/review/decide';
import { fileWriter } from '../../../src/core/service/review/fileWriter';
import { restoreStep } from '../../../src/core/service/review/restore';
import { UndoStack } from '../../../src/core/service/review/undo';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { reviewFixture } from '../../support/reviewProposal';

// A settings file's env values are stored tagged and put back from the disk when the file is written or restored.

const maskSettingsEnv = (text: string) => storedText(CLAUDE_SETTINGS_PATH, text);
const unmaskSettingsEnv = (stored: string, real: string) => {
  const result = restoredText(CLAUDE_SETTINGS_PATH, stored, real);
  return 'text' in result ? result.text : undefined;
};

const KEY = 'sk-proj-T3BlbkFJ9xQz2LmW7vRsYb8NcD1fHj6G';
const SETTINGS = `{
  "model": "opus",
  "cleanupPeriodDays": 30,
  "includeCoAuthoredBy": false,
  "permissions": { "allow": [] },
  "env": {"OPENAI_API_KEY": "${KEY}", "MODE": "ci\\u0041", "N": 12345678901234567890},
  "statusLine": { "type": "command", "command": "echo" },
  "env": { "OPENAI_API_KEY": "second-${KEY}" }
}
`;

describe('settings env values, stored masked', () => {
  it('tags every env value, a duplicate env too, and nothing else', () => {
    const masked = maskSettingsEnv(SETTINGS);
    assert.ok(!masked.includes(KEY));
    assert.ok(!masked.includes('12345678901234567890'));
    assert.equal(masked.split(ENV_VALUE_TAG).length - 1, 4);
    assert.ok(masked.includes('"model": "opus"'));
    assert.equal(maskSettingsEnv(masked), masked, 'masking twice changes nothing');
  });

  it('puts each key’s values back from the file, byte for byte, in order', () => {
    assert.equal(unmaskSettingsEnv(maskSettingsEnv(SETTINGS), SETTINGS), SETTINGS);
    // a key gone from the file since cannot be filled
    assert.equal(unmaskSettingsEnv(maskSettingsEnv(SETTINGS), '{ "env": {} }'), undefined);
  });

  it('text it cannot read as JSON still has its secrets redacted', () => {
    const broken = `{ "env": { "OPENAI_API_KEY": "${KEY}" `;
    assert.ok(!maskSettingsEnv(broken).includes(KEY));
  });

  it('an accept writes the real values, also onto a file edited since, and an undo restores them', () => {
    const proposed = storedChange(makeFileChange(CLAUDE_SETTINGS_PATH, SETTINGS, withEnforceHook(SETTINGS, true)!)!);
    assert.ok(!JSON.stringify(proposed).includes(KEY));
    const unchanged = rebaseChange(proposed, SETTINGS);
    assert.equal(unchanged.kind, 'unchanged');
    assert.equal(unchanged.kind === 'unchanged' && unchanged.change.after, withEnforceHook(SETTINGS, true));
    // the key rotated since: the team's new key is what is written
    const rotated = SETTINGS.replaceAll(KEY, `${KEY}-rotated`);
    const same = rebaseChange(proposed, rotated);
    assert.equal(same.kind === 'unchanged' && same.change.after, withEnforceHook(rotated, true));
    // edited since away from the hook, and rotated: re-based, with the new key
    const edited = rotated.replace('"opus"', '"sonnet"');
    const rebased = rebaseChange(proposed, edited);
    assert.equal(rebased.kind, 'rebased');
    assert.equal(rebased.kind === 'rebased' && rebased.change.after, withEnforceHook(edited, true));
    // the key taken out since: nothing to put back, so nothing is written
    const gone = SETTINGS.replace(`"OPENAI_API_KEY": "${KEY}", `, '');
    assert.equal(rebaseChange(proposed, gone).kind, 'conflict');

    const written = withEnforceHook(SETTINGS, true)!;
    const stored = { path: CLAUDE_SETTINGS_PATH, before: maskSettingsEnv(SETTINGS), after: maskSettingsEnv(written) };
    assert.deepEqual(restoreStep(stored, written), { kind: 'write', text: SETTINGS, rebased: false });
  });
});

describe('settings env values, stored masked before every agent config was', () => {
  it('a proposal stored with only its env values tagged still accepts, and its undo puts the file back', async () => {
    const fx = await reviewFixture();
    const helper = '/usr/local/bin/team-key --profile ci';
    const team = SETTINGS.replace('"model": "opus",', `"model": "opus",\n  "apiKeyHelper": "${helper}",`);
    mkdirSync(join(fx.workspace, '.claude'), { recursive: true });
    const path = join(fx.workspace, CLAUDE_SETTINGS_PATH);
    writeFileSync(path, team);
    // as it was stored then: the env values tagged, the key helper (a secret name now) as it is
    const oldForm = (text: string) =>
      text
        .replace(`"${KEY}"`, JSON.stringify(ENV_VALUE_TAG))
        .replace('"ci\\u0041"', JSON.stringify(ENV_VALUE_TAG))
        .replace('12345678901234567890', JSON.stringify(ENV_VALUE_TAG))
        .replace(`"second-${KEY}"`, JSON.stringify(ENV_VALUE_TAG));
    const hooked = withEnforceHook(team, true)!;
    assert.ok(!oldForm(hooked).includes(KEY) && oldForm(hooked).includes(helper));
    const old: Proposal = {
      ...fx.proposal,
      id: 'old-1',
      files: [makeFileChange(CLAUDE_SETTINGS_PATH, oldForm(team), oldForm(hooked))!],
      rules: [],
      ops: [],
      tags: [],
    };
    writeFileSync(join(new WorkspaceState(fx.store.dir).proposalsDir(fx.workspace), 'old-1.json'), JSON.stringify(old));
    const proposal = (await fx.proposals.load(fx.workspace, 'old-1'))!;
    assert.equal(proposal.files[0].after, oldForm(hooked));

    const deps = { store: fx.store, proposals: fx.proposals, writer: fileWriter(fx.workspace), warn: () => undefined };
    const stack = new UndoStack(fx.store.dir, fx.workspace);
    const accepted = await stack.commit(
      deps,
      await planReview(deps, proposal, { kind: 'accept-file', path: CLAUDE_SETTINGS_PATH }),
    );
    assert.ok(accepted.decided, JSON.stringify(accepted.outcome.conflicts));
    assert.equal(readFileSync(path, 'utf8'), hooked);
    assert.equal((await stack.undo(deps)).kind, 'undone');
    assert.equal(readFileSync(path, 'utf8'), team);
  });
});
