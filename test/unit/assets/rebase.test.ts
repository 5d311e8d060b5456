import assert from 'node:assert/strict';
import { makeFileChange } from '../../../src/core/assets/proposal';
import { rebaseChange } from '../../../src/core/assets/rebase';

const team =
  '# Notes\n\n## Architecture\n- money is integer cents\n- no floats\n- schema in prisma/\n- keep it simple\n\n## Review\n- small PRs\n- two reviewers\n- squash merges\n';
const block = '\n<!-- combee:begin x -->\n- [bat-00001] Run `pnpm db:generate` first.\n<!-- combee:end -->\n';

describe('re-basing a proposal onto a file edited during review', () => {
  const change = makeFileChange('AGENTS.md', team, team + block)!;

  it('keeps an unchanged file as proposed', () => {
    assert.equal(rebaseChange(change, team).kind, 'unchanged');
  });

  it('patches the proposal onto a file the team edited elsewhere, keeping their edit', () => {
    const edited = team.replace('- money is integer cents', '- money is integer cents, always');
    const result = rebaseChange(change, edited);
    assert.equal(result.kind, 'rebased');
    if (result.kind !== 'rebased') return;
    assert.equal(result.change.after, edited + block);
    assert.equal(result.change.before, edited);
  });

  it("reports a real conflict where the edit touches the proposal's own lines, and never guesses", () => {
    const modify = makeFileChange('p.md', 'a\nb\nc\n', 'a\nB\nc\n')!;
    assert.equal(rebaseChange(modify, 'a\nX\nc\n').kind, 'conflict');
    assert.equal(rebaseChange(modify, undefined).kind, 'conflict');
    assert.equal(rebaseChange(makeFileChange('new.md', undefined, 'x\n')!, 'someone else\n').kind, 'conflict');
  });

  it('recognizes a file that already has the change', () => {
    assert.equal(rebaseChange(change, team + block).kind, 'already-applied');
  });
});
