import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTING_DEFAULTS } from '../../../src/shared/settingsSchema';
import { REPO_ROOT } from '../../support/paths';

interface Manifest {
  contributes: {
    configuration: { properties: Record<string, { enum?: string[]; items?: { enum?: string[] } }> };
    walkthroughs: Array<{ steps: Array<{ id: string; description: string; media: { markdown: string } }> }>;
  };
}

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
const steps = manifest.contributes.walkthroughs.flatMap((w) => w.steps);
const step = (id: string) => {
  const found = steps.find((s) => s.id === id);
  assert.ok(found, `walkthrough step ${id}`);
  return { description: found.description, page: readFileSync(join(REPO_ROOT, found.media.markdown), 'utf8') };
};

/** How the walkthrough names each asset target's file. */
const TARGET_NAMES: Record<string, string> = {
  playbook: '.combee/playbook.md',
  'agents-md': 'AGENTS.md',
  skills: 'Skills',
  'claude-md': 'CLAUDE.md',
  'copilot-instructions': '.github/copilot-instructions.md',
  'cursor-rules': '.cursor/rules/combee.mdc',
  clinerules: '.clinerules/combee.md',
  'gemini-md': 'GEMINI.md',
  'aider-conventions': '.aider.conf.yml',
  'windsurf-rules': '.windsurf/rules/combee.md',
  'kiro-steering': '.kiro/steering/combee.md',
  'qwen-md': 'QWEN.md',
};

describe('the walkthrough tells what the defaults do', () => {
  it('names the default provider and what it does, and does not call the default offline unless it is', () => {
    const { description, page } = step('provider');
    const provider = SETTING_DEFAULTS.provider;
    assert.match(page, new RegExp(`\`combee.provider\` is \`${provider}\``));
    if (provider !== 'offline') {
      assert.doesNotMatch(`${description}\n${page}`, /offline by default/i);
      // each provider auto may choose is named
      for (const choice of ['VS Code language model', 'OpenAI-compatible endpoint', 'offline learner'])
        assert.ok(page.includes(choice), choice);
    }
  });

  it('names every file Combee may propose changes to, not only the playbook', () => {
    const targets = manifest.contributes.configuration.properties['combee.assets.targets'].items?.enum ?? [];
    assert.ok(targets.length > 0);
    const { description, page } = step('learn');
    for (const target of targets) {
      const name = TARGET_NAMES[target];
      assert.ok(name, `a name for the new target ${target} in this test and in media/walkthrough/learn.md`);
      assert.ok(page.includes(name), `${name} in the learn step`);
    }
    assert.match(description, /AGENTS\.md, Skills/);
  });
});
