import assert from 'node:assert/strict';
import {
  globalAggregationPrompt,
  localAggregationPrompt,
  PROMPT_VERSION,
  reflectionPrompt,
} from '../../../src/core/llm/prompts';
import { emptyPlaybook } from '../../../src/core/playbook/markdown';
import { sha256 } from '../../../src/core/util/hash';

// Every rule records the prompt version it was written with: editing a learning prompt without a new version would
// file rules of two prompts under one. The hash of each version's prompt text is pinned here; a new text fails this
// test until PROMPT_VERSION is raised and its hash added.

const PINNED: Record<string, string> = {
  '1': '89eba121e2fba82fe5439abd0e644f7de4db5489a9e67450d76bf3e42686cdf2',
  '2': '1e893aeb0588081f3c57663636e66674ea69924d32fed96b9a6a52fd32dc0f24',
};

/** The learning prompts as sent for a fixed session and lesson against an empty playbook. */
function promptText(): string {
  const items = [{ label: 'L1', text: 'lesson', sessions: 2 }];
  return JSON.stringify([
    reflectionPrompt('#1 USER hi', emptyPlaybook()),
    localAggregationPrompt(items, emptyPlaybook()),
    globalAggregationPrompt(items, emptyPlaybook()),
  ]);
}

describe('the learning prompts’ version', () => {
  it('is the one pinned to the prompts’ text: a changed prompt needs a new PROMPT_VERSION', () => {
    assert.equal(
      sha256(promptText()),
      PINNED[PROMPT_VERSION],
      `the learning prompts changed: raise PROMPT_VERSION (now ${PROMPT_VERSION}) and pin the new hash under it`,
    );
  });

  it('never pins one text to two versions', () => {
    assert.equal(new Set(Object.values(PINNED)).size, Object.keys(PINNED).length);
  });
});
