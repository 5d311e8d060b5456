import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { chooseTargets } from '../../../src/core/assets/agentTargets';
import { contextCost } from '../../../src/core/assets/contextCost';
import { readManagedBlock } from '../../../src/core/assets/managedBlock';
import { splitFrontMatter } from '../../../src/core/assets/skillSpec';
import { targetsHoldingRules } from '../../../src/core/assets/syncedTargets';
import { renderAssets, targetsOfFiles, type AssetTarget } from '../../../src/core/assets/targets';
import { parsePlaybook } from '../../../src/core/playbook/markdown';
import { runTargets } from '../../../src/core/service/learnRun/runTargets';
import { aiderReads, aiderRulesFile } from '../../../src/core/trust/aiderConfig';
import { countTokens } from '../../../src/core/util/tokens';

const PLAYBOOK_TEXT =
  '## Build and test\n[bat-00001] helpful=3 harmful=0 :: Run `pnpm test`.\n\n## Pitfalls\n[pit-00002] helpful=1 harmful=0 :: Never edit `generated/` by hand.\n';
const PLAYBOOK = parsePlaybook(PLAYBOOK_TEXT);
const TEAM = '# Conventions\n\nOur own words, kept as they are.\n';

function render(files: Record<string, string>, targets: AssetTarget[] | undefined, warnings: string[] = []) {
  return renderAssets({
    workspace: '/ws',
    playbook: PLAYBOOK,
    rules: [],
    lessons: [],
    readFile: (p) => files[p],
    settings: targets ? { targets } : {},
    warn: (m) => warnings.push(m),
  });
}
const fileOf = (changes: ReturnType<typeof render>, path: string) => changes.find((c) => c.path === path)?.after;

describe('Aider: the file its config has it read', () => {
  it('reads `read:` as a string or a list, each name once, relative names only', () => {
    const read = (text: string) => aiderReads((p) => (p === '.aider.conf.yml' ? text : undefined), '/ws');
    assert.deepEqual(read('read: CONVENTIONS.md\n').files, ['CONVENTIONS.md']);
    assert.deepEqual(read('model: x\nread:\n  - docs/style.md\n  - ./CONVENTIONS.md\n  - CONVENTIONS.md\n').files, [
      'docs/style.md',
      'CONVENTIONS.md',
    ]);
    assert.deepEqual(read('model: x\n').files, []);
    assert.equal(aiderRulesFile(['docs/style.md', 'CONVENTIONS.md']), 'CONVENTIONS.md', 'a CONVENTIONS file first');
    assert.equal(aiderRulesFile(['notes.txt', 'docs/style.md']), 'notes.txt');
  });

  it('confines every name to the workspace: absolute, climbing, home and environment paths are refused', () => {
    const reads = aiderReads(
      () => 'read: [../outside.md, /etc/passwd, "~/notes.md", "$HOME/x.md", docs/../../x.md, 42, ok.md]\n',
      '/ws',
    );
    assert.deepEqual(reads.files, ['ok.md']);
    assert.equal(reads.refused.length, 6, reads.refused.join('\n'));
    assert.ok(reads.refused.every((r) => r.startsWith('.aider.conf.yml')));
    assert.deepEqual(aiderReads(() => 'read: [unclosed\n', '/ws').files, []);
    assert.equal(aiderReads(() => 'read: [unclosed\n', '/ws').refused.length, 1, 'a broken config is said');
  });

  it('gets a managed block in the file the config names, the team text kept; nothing without such a config', () => {
    const files = { '.aider.conf.yml': 'read: docs/CONVENTIONS.md\n', 'docs/CONVENTIONS.md': TEAM };
    const changes = render(files, ['aider-conventions']);
    const after = fileOf(changes, 'docs/CONVENTIONS.md') ?? '';
    assert.ok(after.startsWith(TEAM), 'the team text stays');
    assert.match(readManagedBlock(after) ?? '', /- \[bat-00001\] Run `pnpm test`\./);
    assert.match(readManagedBlock(after) ?? '', /\.\.\/\.combee\/playbook\.md/, 'the playbook linked from its folder');
    assert.ok(!changes.some((c) => c.path === 'CONVENTIONS.md'));

    const warnings: string[] = [];
    const none = render({ 'CONVENTIONS.md': TEAM }, ['aider-conventions'], warnings);
    assert.deepEqual(
      none.map((c) => c.path),
      ['.combee/playbook.md'],
    );
    assert.ok(
      warnings.some((w) => /names no rules file/.test(w)),
      warnings.join('\n'),
    );
  });

  it('never writes outside the workspace, and says why', () => {
    const warnings: string[] = [];
    const changes = render({ '.aider.conf.yml': 'read: ../shared/CONVENTIONS.md\n' }, ['aider-conventions'], warnings);
    assert.deepEqual(
      changes.map((c) => c.path),
      ['.combee/playbook.md'],
    );
    assert.ok(
      warnings.some((w) => /climbs out/.test(w)),
      warnings.join('\n'),
    );
  });

  it('a config that has Aider read AGENTS.md is served by AGENTS.md, not a second block', () => {
    const changes = render({ '.aider.conf.yml': 'read: AGENTS.md\n' }, ['agents-md', 'aider-conventions']);
    assert.deepEqual(
      changes.map((c) => c.path),
      ['.combee/playbook.md', 'AGENTS.md'],
    );
    assert.equal(readManagedBlock(fileOf(changes, 'AGENTS.md'))?.match(/- \[bat-00001\]/g)?.length, 1);
  });
});

describe('Windsurf, Kiro and Qwen Code', () => {
  it('Windsurf and Kiro get a file of their own, always loaded by its front matter', () => {
    const changes = render({}, ['windsurf-rules', 'kiro-steering']);
    for (const [path, key, value] of [
      ['.windsurf/rules/combee.md', 'trigger', 'always_on'],
      ['.kiro/steering/combee.md', 'inclusion', 'always'],
    ] as const) {
      const text = fileOf(changes, path) ?? '';
      const split = splitFrontMatter(text);
      assert.deepEqual(parse(split?.yaml ?? ''), { [key]: value }, path);
      assert.match(split?.body ?? '', /^<!-- Generated by Combee from \.combee\/playbook\.md/);
      assert.match(split?.body ?? '', /- \[pit-00002\] Never edit `generated\/` by hand\./);
    }
  });

  it("QWEN.md gets a managed block after the team's text", () => {
    const after = fileOf(render({ 'QWEN.md': TEAM }, ['qwen-md']), 'QWEN.md') ?? '';
    assert.ok(after.startsWith(TEAM));
    assert.match(readManagedBlock(after) ?? '', /\[bat-00001\]/);
  });

  it('are chosen only in the settings: Combee reads no session of theirs', () => {
    const configured = chooseTargets(['windsurf-rules', 'kiro-steering', 'qwen-md'], []);
    assert.deepEqual(configured.targets, ['playbook', 'windsurf-rules', 'kiro-steering', 'qwen-md']);
    assert.deepEqual(configured.reasons, [
      '.windsurf/rules/combee.md: set in the settings',
      '.kiro/steering/combee.md: set in the settings',
      'QWEN.md: set in the settings',
    ]);
    const run = runTargets(['windsurf-rules', 'qwen-md'], [{ agent: 'codex' }], () => undefined);
    assert.deepEqual(run.agents, ['codex', 'windsurf', 'qwen-code'], 'their context cost is shown');
  });
});

describe('the new targets chosen from sessions, kept in sync, and counted', () => {
  it("Aider's sessions choose its own target, not AGENTS.md it does not load", () => {
    const choice = chooseTargets(undefined, [{ agent: 'aider' }, { agent: 'aider' }]);
    assert.deepEqual(choice.targets, ['playbook', 'agents-md', 'skills', 'aider-conventions']);
    assert.ok(choice.reasons.includes('CONVENTIONS.md: 2 Aider sessions'), choice.reasons.join('\n'));
  });

  it('a file already holding Combee’s rules keeps being rendered when its target is off', () => {
    const block = '<!-- combee:begin generated by Combee -->\n- [old-00009] Gone.\n<!-- combee:end -->\n';
    const owned = (fm: string) => `---\n${fm}\n---\n<!-- Generated by Combee from .combee/playbook.md -->\n- x\n`;
    const files: Record<string, string> = {
      '.aider.conf.yml': 'read: [CONVENTIONS.md]\n',
      'CONVENTIONS.md': `${TEAM}\n${block}`,
      'QWEN.md': `${TEAM}\n${block}`,
      '.windsurf/rules/combee.md': owned('trigger: always_on'),
      '.kiro/steering/combee.md': owned('inclusion: always'),
    };
    assert.deepEqual(targetsHoldingRules((p) => files[p]).sort(), [
      'aider-conventions',
      'kiro-steering',
      'qwen-md',
      'windsurf-rules',
    ]);
    const changes = render(files, []);
    for (const path of ['CONVENTIONS.md', 'QWEN.md', '.windsurf/rules/combee.md', '.kiro/steering/combee.md']) {
      const after = fileOf(changes, path) ?? '';
      assert.match(after, /\[bat-00001\]/, path);
      assert.doesNotMatch(after, /old-00009/, path);
    }
    assert.ok(fileOf(changes, 'CONVENTIONS.md')?.startsWith(TEAM));
    // a CONVENTIONS.md Aider is not configured to read is not Aider's file
    assert.deepEqual(
      targetsHoldingRules((p) => (p === 'CONVENTIONS.md' ? files[p] : undefined)),
      [],
    );
  });

  it("a proposal's files name their targets", () => {
    assert.deepEqual(
      targetsOfFiles(
        ['.combee/playbook.md', '.windsurf/rules/combee.md', '.kiro/steering/combee.md', 'QWEN.md', 'docs/CONV.md'],
        '.combee/playbook.md',
        'docs/CONV.md',
      ),
      ['playbook', 'windsurf-rules', 'kiro-steering', 'qwen-md', 'aider-conventions'],
    );
  });

  it("counts Combee's text in what each agent loads: Aider's configured file, Windsurf's rule beside AGENTS.md", () => {
    const changes = render({ '.aider.conf.yml': 'read: CONVENTIONS.md\n' }, [
      'agents-md',
      'aider-conventions',
      'windsurf-rules',
    ]);
    const after = (p: string) => fileOf(changes, p) ?? (p === '.aider.conf.yml' ? 'read: CONVENTIONS.md\n' : undefined);
    const [aider, windsurf] = contextCost(
      ['aider', 'windsurf'],
      (p) => (p === '.aider.conf.yml' ? after(p) : undefined),
      changes,
    );
    assert.equal(aider.before, 0);
    assert.equal(aider.after, countTokens(readManagedBlockWithMarkers(fileOf(changes, 'CONVENTIONS.md') ?? '')));
    assert.equal(
      windsurf.after,
      countTokens(readManagedBlockWithMarkers(fileOf(changes, 'AGENTS.md') ?? '')) +
        countTokens(fileOf(changes, '.windsurf/rules/combee.md') ?? ''),
    );
  });
});

/** A Markdown file's Combee block, markers included (what the context cost counts). */
function readManagedBlockWithMarkers(text: string): string {
  const start = text.indexOf('<!-- combee:begin');
  const endMarker = '<!-- combee:end -->';
  return text.slice(start, text.indexOf(endMarker) + endMarker.length);
}
