import assert from 'node:assert/strict';
import { withEnforceHook } from '../../../src/core/assets/enforce/claudeSettings';
import { ENV_VALUE_TAG } from '../../../src/core/assets/masking/secretNames';
import { makeFileChange } from '../../../src/core/assets/proposal';
import { rebaseChange } from '../../../src/core/assets/rebase';
import { CLAUDE_SETTINGS_PATH, restoredText, storedChange, storedText } from '../../../src/core/assets/storedText';
import { restoreStep } from '../../../src/core/service/review/restore';

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
