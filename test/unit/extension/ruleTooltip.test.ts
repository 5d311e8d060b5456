import assert from 'node:assert/strict';
import { proposedRuleTooltip } from '../../../src/extension/views/ruleTooltip';

const base = { content: 'Run `npm test` before a commit.', flags: [], notes: [], people: 0 };
/** Markdown's blocks: a paragraph or a list, separated by a blank line. */
const blocks = (markdown: string) => markdown.split('\n\n');

describe('the tooltip of a proposed rule', () => {
  it('lists the supporting sessions as a Markdown list of their own, after the heading, with a plain plural', () => {
    const markdown = proposedRuleTooltip({
      ...base,
      sessions: ['Fix the login (claude-code, 2026-11-03), step 4', 'Add a cache, steps 1, 2'],
    });
    const at = blocks(markdown).indexOf('Supported by 2 sessions:');
    assert.ok(at > 0, markdown);
    // a blank line before the list: without it the items run on in the heading's paragraph
    assert.deepEqual(blocks(markdown)[at + 1].split('\n'), [
      '- Fix the login \\(claude\\-code, 2026\\-11\\-03\\), step 4',
      '- Add a cache, steps 1, 2',
    ]);
  });

  it('says "1 session", not "1 session(s)"', () => {
    const markdown = proposedRuleTooltip({ ...base, sessions: ['One session, step 1'] });
    assert.ok(blocks(markdown).includes('Supported by 1 session:'), markdown);
    assert.doesNotMatch(markdown, /session\(s\)/);
  });

  it('marks notes with the info codicon, not a font glyph, and keeps a rule\'s own "$(…)" as text', () => {
    const markdown = proposedRuleTooltip({
      ...base,
      content: 'Print $(whoami) first',
      notes: ['near-duplicate of [r-2]: merged', 'costs $(zap) tokens'],
      sessions: [],
    });
    assert.doesNotMatch(markdown, /ⓘ/);
    assert.deepEqual(
      blocks(markdown).filter((b) => b.startsWith('$(info) ')),
      ['$(info) near\\-duplicate of \\[r\\-2\\]: merged', '$(info) costs \\\\$\\(zap\\) tokens'],
    );
    // `\\$\(` parses to `\$(`, which the icon pass leaves as text; a bare `$(` anywhere else would become an icon
    assert.ok(blocks(markdown).includes('Print \\\\$\\(whoami\\) first'), markdown);
    assert.equal((markdown.match(/(?<!\\)\$\(/g) ?? []).length, 2, 'only the two notes carry an icon');
  });

  it('lists the flags on lines of their own, their reasons as text', () => {
    const markdown = proposedRuleTooltip({
      ...base,
      flags: [{ kind: 'injection', reason: 'says [click](http://x)' }],
      sessions: [],
    });
    assert.ok(blocks(markdown).includes('- **injection**: says \\[click\\]\\(http://x\\)'), markdown);
  });

  it('says a change no session supports is such, instead of heading an empty list', () => {
    const markdown = proposedRuleTooltip({ ...base, sessions: [] });
    assert.ok(blocks(markdown).includes('No session supports this change directly.'), markdown);
    assert.doesNotMatch(markdown, /Supported by/);
  });
});
