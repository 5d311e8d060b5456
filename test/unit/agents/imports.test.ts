import assert from 'node:assert/strict';
import { importedPaths, importLine, importsFile } from '../../../src/core/agents/imports';

describe('@path imports', () => {
  it('reads imports at a line start or after white space, resolved from the importing file', () => {
    const text = '# Team\n\n@AGENTS.md\nSee @docs/style.md for style.\n@./shared/x.md\n';
    assert.deepEqual(importedPaths(text, 'CLAUDE.md'), ['AGENTS.md', 'docs/style.md', 'shared/x.md']);
    assert.deepEqual(importedPaths('@../AGENTS.md\n@AGENTS.md\n', 'services/CLAUDE.md'), [
      'AGENTS.md',
      'services/AGENTS.md',
    ]);
  });

  it('leaves out code, addresses, and paths outside the workspace', () => {
    const text = [
      'Mail dev@example.com, or `@AGENTS.md` in a span.',
      '```',
      '@AGENTS.md',
      '```',
      '@~/.claude/mine.md',
      '@/etc/rules.md',
      '@../../outside.md',
    ].join('\r\n');
    assert.deepEqual(importedPaths(text, 'CLAUDE.md'), []);
  });

  it('knows a file that already imports AGENTS.md however it is written', () => {
    assert.ok(importsFile('Intro.\n\n@./AGENTS.md\n', 'CLAUDE.md', 'AGENTS.md'));
    assert.ok(!importsFile('See AGENTS.md.\n', 'CLAUDE.md', 'AGENTS.md'));
  });

  it('writes the import line relative to the importing file', () => {
    assert.equal(importLine('CLAUDE.md', 'AGENTS.md'), '@AGENTS.md');
    assert.equal(importLine('services/billing/CLAUDE.md', 'services/billing/AGENTS.md'), '@AGENTS.md');
    assert.equal(importLine('.gemini/GEMINI.md', 'AGENTS.md'), '@../AGENTS.md');
  });
});
