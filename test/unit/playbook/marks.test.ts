import assert from 'node:assert/strict';
import { enforcedMarkLine, enforcedRules, withEnforcedMark } from '../../../src/core/assets/enforce/mark';
import { makeFileChange } from '../../../src/core/assets/proposal';
import { applyDelta } from '../../../src/core/playbook/apply';
import { ruleAuthorships, withAuthorMarks } from '../../../src/core/playbook/authorMark';
import { parsePlaybook, serializePlaybook } from '../../../src/core/playbook/markdown';
import { markOf, markWarning, pinnedIds, withMark, withPin } from '../../../src/core/playbook/marks';
import { flagMarkText, markedIds } from '../../../src/core/trust/hold';

const HEADER = '<!-- combee:marks (one line per mark: kind [rule id] what it says; Combee rewrites this section)';

const RULES = `## Build and test
[build-00001] helpful=4 harmful=0 :: Run \`pnpm db:generate\` before \`pnpm test\`.
[build-00002] helpful=0 harmful=3 :: Never run \`npm install\` here.
`;

const FLAG = flagMarkText([{ kind: 'remote-code', reason: 'pipes a script into a shell' }]);

/** The same playbook as older versions wrote it: every kind of mark a comment line above its rule. */
const OLD = `# Playbook

## Build and test
<!-- combee:model [build-00001] written by openai gpt-4o-mini (prompt 1) -->
<!-- combee:corroborated [build-00001] 3 sessions from 2 people -->
<!-- combee:pinned [build-00001] kept by the team: Combee proposes neither retiring nor replacing it -->
[build-00001] helpful=4 harmful=0 :: Run \`pnpm db:generate\` before \`pnpm test\`.
<!-- combee:enforced [build-00002] claude-code: \`npm install\` (stops 2 of 2 sessions that broke it, 0 of 1 that followed it) -->
<!-- combee:flagged [build-00002] ${FLAG} -->
[build-00002] helpful=0 harmful=3 :: Never run \`npm install\` here.

## Test
[test-00003] helpful=1 harmful=0 :: Run \`pnpm test\` from the root.
`;

const NEW = `# Playbook

## Build and test
[build-00001] helpful=4 harmful=0 :: Run \`pnpm db:generate\` before \`pnpm test\`.
[build-00002] helpful=0 harmful=3 :: Never run \`npm install\` here.

## Test
[test-00003] helpful=1 harmful=0 :: Run \`pnpm test\` from the root.

${HEADER}
model [build-00001] written by openai gpt-4o-mini (prompt 1)
corroborated [build-00001] 3 sessions from 2 people
pinned [build-00001] kept by the team: Combee proposes neither retiring nor replacing it
enforced [build-00002] claude-code: \`npm install\` (stops 2 of 2 sessions that broke it, 0 of 1 that followed it)
flagged [build-00002] ${FLAG}
-->
`;

/** What each kind of mark says about the playbook's rules, as its readers see it. */
function readMarks(text: string) {
  const playbook = parsePlaybook(text);
  return {
    authors: [...ruleAuthorships(playbook)],
    corroborated: markOf(playbook, 'corroborated', 'build-00001'),
    pinned: [...pinnedIds(playbook)],
    flagged: [...markedIds(playbook)],
    enforced: [...enforcedRules(playbook)].map(([id, { spec }]) => [id, spec]),
  };
}

describe('marks on rules: one machine section at the end of the playbook', () => {
  it('a playbook with marks is its headings and rules, then one line per mark, keyed by rule id', () => {
    let playbook = withPin(parsePlaybook(RULES), 'build-00001', true);
    assert.ok(playbook);
    playbook = withMark(playbook, 'flagged', 'build-00002', FLAG);
    assert.equal(
      serializePlaybook(playbook),
      `${RULES}\n${HEADER}\npinned [build-00001] kept by the team: Combee proposes neither retiring nor replacing it\nflagged [build-00002] ${FLAG}\n-->\n`,
    );
  });

  it('render → parse → render is byte-identical, and the same playbook always gives the same bytes', () => {
    const rendered = serializePlaybook(parsePlaybook(OLD));
    assert.equal(rendered, NEW);
    assert.equal(serializePlaybook(parsePlaybook(rendered)), rendered);
    assert.equal(serializePlaybook(parsePlaybook(OLD)), rendered);
    assert.equal(parsePlaybook(NEW).markProblems, undefined, 'nothing to warn about in what Combee wrote');
    // marks set in another order are written in the same order
    const a = withMark(withMark(parsePlaybook(RULES), 'pinned', 'build-00002', 'x'), 'model', 'build-00001', 'y');
    const b = withMark(withMark(parsePlaybook(RULES), 'model', 'build-00001', 'y'), 'pinned', 'build-00002', 'x');
    assert.equal(serializePlaybook(a), serializePlaybook(b));
  });

  it('an older playbook’s marks above its rules are each read the same, and written in the section', () => {
    const expected = {
      authors: [['build-00001', { written: { provider: 'openai', model: 'gpt-4o-mini', promptVersion: '1' } }]],
      corroborated: '3 sessions from 2 people',
      pinned: ['build-00001'],
      flagged: ['build-00002'],
      enforced: [['build-00002', { 'claude-code': [['npm', 'install']] }]],
    };
    assert.deepEqual(readMarks(OLD), expected);
    assert.deepEqual(readMarks(NEW), expected);
    const body = NEW.slice(0, NEW.indexOf(HEADER));
    assert.ok(!body.includes('<!--'), 'the part a person reads holds headings and rules');
  });

  it('a retired rule takes its marks with it', () => {
    const { playbook } = applyDelta(parsePlaybook(NEW), {
      ops: [{ op: 'REMOVE', id: 'build-00002', reason: 'retired', support: [] }],
      tags: [],
    });
    const text = serializePlaybook(playbook);
    assert.ok(!text.includes('build-00002'), text);
    assert.ok(text.includes('pinned [build-00001]'));
  });

  it('a mark whose rule is gone is dropped, with a counted warning', () => {
    const text = NEW.replace('-->\n', 'pinned [gone-00009] kept by the team\nflagged [gone-00010] x\n-->\n');
    const playbook = parsePlaybook(text);
    assert.deepEqual([...pinnedIds(playbook)], ['build-00001']);
    assert.equal(serializePlaybook(playbook), NEW);
    const warning = markWarning(playbook, '.combee/playbook.md');
    assert.match(
      warning ?? '',
      /^\.combee\/playbook\.md: 2 mark problems \(the pinned mark of gone-00009 names no rule/,
    );
  });

  it('a hand-damaged section is read as far as it goes, warned about, and nothing in it is lost', () => {
    const damaged = NEW.replace('corroborated [build-00001]', 'nonsense here\nshouted [build-00001]').replace(
      '-->\n',
      'flagged [build-00002] a different reason\n[test-00004] helpful=0 harmful=0 :: A rule typed into the section.\n',
    );
    const playbook = parsePlaybook(damaged);
    const problems = playbook.markProblems ?? [];
    assert.ok(
      problems.some((p) => p.includes('no closing -->')),
      problems.join('\n'),
    );
    assert.ok(problems.some((p) => p.includes('nonsense here')));
    assert.ok(problems.some((p) => p.includes('second flagged mark of build-00002')));
    assert.deepEqual([...markedIds(playbook)], ['build-00002'], 'the first flag still holds');
    assert.ok(
      playbook.sections.some((s) => s.lines.some((l) => l.kind === 'bullet' && l.bullet.id === 'test-00004')),
      'a rule typed inside the section is kept as a rule',
    );
    const again = serializePlaybook(playbook);
    assert.equal(serializePlaybook(parsePlaybook(again)), again, 'rewritten whole, it reads back the same');
  });

  it('an older mark not above the rule it names is dropped, as it held nothing there', () => {
    const stray = RULES.replace(
      '## Build and test\n',
      '## Build and test\n<!-- combee:pinned [build-00001] kept by the team -->\n\n',
    ).replace('[build-00002]', '<!-- combee:flagged [build-00009] x -->\n[build-00002]');
    const playbook = parsePlaybook(stray);
    assert.deepEqual([...pinnedIds(playbook)], []);
    assert.deepEqual([...markedIds(playbook)], []);
    assert.equal(playbook.markProblems?.length, 2);
    assert.ok(!serializePlaybook(playbook).includes('combee:'));
  });

  it('a mark’s text cannot close the section early, and code fences showing marks are left alone', () => {
    const hostile = withMark(parsePlaybook(RULES), 'pinned', 'build-00001', 'see --> <b>x</b>\nnext line');
    const text = serializePlaybook(hostile);
    assert.equal(text.split('-->').length, 2, text);
    assert.equal(markOf(parsePlaybook(text), 'pinned', 'build-00001'), 'see -> <b>x</b> next line');
    const fenced = `${RULES}\n\`\`\`\n<!-- combee:marks\n<!-- combee:pinned [build-00001] x -->\n[build-00001] helpful=0 harmful=0 :: y\n\`\`\`\n`;
    const parsed = parsePlaybook(fenced);
    assert.equal(serializePlaybook(parsed), fenced);
    assert.equal(parsed.markProblems, undefined);
  });

  it('an enforcement a proposal stored as a whole older mark line is written as the same mark', () => {
    const said = enforcedMarkLine({ 'claude-code': [['npm', 'install']] }, 'stops 2 of 2');
    const stored = `<!-- combee:enforced [build-00002] ${said} -->`;
    const fresh = serializePlaybook(withEnforcedMark(parsePlaybook(RULES), 'build-00002', said));
    assert.equal(serializePlaybook(withEnforcedMark(parsePlaybook(RULES), 'build-00002', stored)), fresh);
    assert.match(fresh, /^enforced \[build-00002\] claude-code: `npm install` \(stops 2 of 2\)$/m);
  });

  it('a review diff of a new rule is its one line and its line in the section', () => {
    const added = applyDelta(parsePlaybook(NEW), {
      tags: [],
      ops: [{ op: 'ADD', section: 'Test', content: 'Run `pnpm e2e` last.', support: [] }],
    });
    const id = added.applied[0].id as string;
    const author = { provider: 'openai', model: 'gpt-4o-mini', promptVersion: '1' };
    const after = serializePlaybook(withAuthorMarks(added.playbook, new Map([[id, { op: 'ADD' as const, author }]])));
    const change = makeFileChange('.combee/playbook.md', NEW, after);
    const changed = (change?.diff ?? '').split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l));
    assert.deepEqual(changed, [
      `+[${id}] helpful=0 harmful=0 :: Run \`pnpm e2e\` last.`,
      `+model [${id}] written by openai gpt-4o-mini (prompt 1)`,
    ]);
  });
});
