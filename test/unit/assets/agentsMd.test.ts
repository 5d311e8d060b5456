import assert from 'node:assert/strict';
import { renderAgentsMd, resolveScopes } from '../../../src/core/assets/agentsMd';
import { findManagedBlock, readManagedBlock } from '../../../src/core/assets/managedBlock';
import { renderAssets } from '../../../src/core/assets/targets';
import type { Lesson } from '../../../src/core/learn/types';
import { parsePlaybook } from '../../../src/core/playbook/markdown';
import { countTokens } from '../../../src/core/util/tokens';
import { countedAsWritten } from '../../support/countedRules';

const PLAYBOOK = parsePlaybook(`# Playbook

## Build and test
[bat-00001] helpful=2 harmful=0 :: Run \`pnpm test\` for the unit tests.
[bat-00003] helpful=5 harmful=1 :: Run \`pnpm db:generate\` before \`pnpm test\`.

## Pitfalls
[pit-00002] helpful=0 harmful=3 :: Use npm.
[pit-00004] helpful=0 harmful=0 :: Never edit \`src/api/generated/\` by hand.
`);

const files = (map: Record<string, string>) => (path: string) => map[path];

/** Hand-written AGENTS.md files of several shapes; the bytes outside the block must survive. */
const SHAPES: Record<string, string> = {
  'LF with a trailing newline': '# AGENTS\n\nUse pnpm.\n',
  CRLF: '# AGENTS\r\n\r\n- Be nice.\r\n- Write tests.\r\n',
  'no trailing newline': '# AGENTS\n\nNo newline at the end',
  'existing block in the middle':
    '# AGENTS\n\nintro\n\n<!-- combee:begin old -->\n- [bat-00009] gone\n<!-- combee:end -->\n\n## After\n\ntrailer text\n',
  'CRLF existing block, no trailing newline': 'top\r\n<!-- combee:begin -->\r\nold\r\n<!-- combee:end -->\r\nbottom',
  'only whitespace': '\n\n',
};

describe('AGENTS.md renderer', () => {
  for (const [shape, text] of Object.entries(SHAPES)) {
    it(`leaves hand-written content byte-identical outside the block: ${shape}`, () => {
      const [change] = renderAgentsMd({
        playbook: PLAYBOOK,
        playbookPath: '.combee/playbook.md',
        scopes: new Map(),
        readFile: files({ 'AGENTS.md': text }),
      });
      assert.equal(change.path, 'AGENTS.md');
      assert.equal(change.kind, 'modify');
      const before = findManagedBlock(text);
      const after = findManagedBlock(change.after);
      assert.ok(after);
      if (before) {
        assert.equal(change.after.slice(0, after.start), text.slice(0, before.start));
        assert.equal(change.after.slice(after.end), text.slice(before.end));
      } else {
        assert.ok(change.after.startsWith(text));
      }
      if (text.includes('\r\n')) assert.doesNotMatch(change.after, /[^\r]\n/, 'CRLF kept');
      // Rendering again against the accepted file proposes nothing.
      assert.deepEqual(
        renderAgentsMd({
          playbook: PLAYBOOK,
          playbookPath: '.combee/playbook.md',
          scopes: new Map(),
          readFile: files({ 'AGENTS.md': change.after }),
        }),
        [],
      );
    });
  }

  it('cites ids, says where the playbook is, groups by section and leaves out rules found harmful', () => {
    const [change] = renderAgentsMd({
      playbook: PLAYBOOK,
      playbookPath: '.combee/playbook.md',
      scopes: new Map(),
      readFile: files({}),
      local: countedAsWritten(PLAYBOOK),
    });
    assert.equal(change.kind, 'create');
    const block = readManagedBlock(change.after) ?? '';
    assert.match(block, /\[\.combee\/playbook\.md\]\(\.combee\/playbook\.md\)/);
    assert.match(block, /cite its id .*"\[bat-00001\]"/);
    assert.match(
      block,
      /### Build and test\n- \[bat-00001\] Run `pnpm test` for the unit tests\.\n- \[bat-00003\] Run `pnpm db:generate` before `pnpm test`\.\n\n### Pitfalls\n- \[pit-00004\]/,
    );
    assert.doesNotMatch(block, /pit-00002/);
    assert.doesNotMatch(block, /helpful=/, 'no counters: a counter change does not touch AGENTS.md');
  });

  it('keeps the block within the token budget, most helpful first, then in playbook order (never the newest first)', () => {
    const lines = ['## Conventions'];
    for (let i = 1; i <= 300; i++)
      lines.push(
        `[conv-${String(i).padStart(5, '0')}] helpful=${i === 7 ? 40 : i % 3} harmful=0 :: Rule number ${i}: keep modules small and name files after their single export, as the team does.`,
      );
    const playbook = parsePlaybook(`${lines.join('\n')}\n`);
    for (const budget of [300, 1500]) {
      const [change] = renderAgentsMd({
        playbook,
        playbookPath: '.combee/playbook.md',
        scopes: new Map(),
        readFile: files({}),
        budgetTokens: budget,
        local: countedAsWritten(playbook),
      });
      const block = readManagedBlock(change.after) ?? '';
      assert.ok(countTokens(block) <= budget, `${countTokens(block)} > ${budget}`);
      assert.match(block, /\[conv-00007\]/, 'the most helpful rule is in');
      assert.match(block, /\[conv-00002\]/, 'helpful=2 and first in the playbook');
      assert.doesNotMatch(block, /\[conv-00299\]/, 'helpful=2 and newest: no place for its age');
      assert.doesNotMatch(block, /\[conv-00003\]/, 'helpful=0 is out');
      assert.match(block, /more rule\(s\) are in the playbook/);
      const shown = [...block.matchAll(/\[conv-(\d+)\]/g)].map((m) => Number(m[1]));
      assert.deepEqual(
        shown.slice(1),
        [...shown.slice(1)].sort((a, b) => a - b),
        'playbook order inside a section',
      );
    }
  });

  it("ranks by the counters this machine counted: a cloned playbook's forged ones earn no place and hide no rule", () => {
    const lines = ['## Conventions'];
    for (let i = 1; i <= 300; i++)
      lines.push(
        `[conv-${String(i).padStart(5, '0')}] helpful=${i === 7 ? 40 : i % 3} harmful=0 :: Rule number ${i}: keep modules small and name files after their single export, as the team does.`,
      );
    const playbook = parsePlaybook(`${lines.join('\n')}\n`);
    const render = (book: typeof playbook, except: string[]) =>
      readManagedBlock(
        renderAgentsMd({
          playbook: book,
          playbookPath: '.combee/playbook.md',
          scopes: new Map(),
          readFile: files({}),
          budgetTokens: 300,
          local: countedAsWritten(book, except),
        })[0].after,
      ) ?? '';
    // conv-00007 claims helpful=40, counted by no session here: an old rule with nothing counted, left out
    assert.doesNotMatch(render(playbook, ['conv-00007']), /\[conv-00007\]/, 'a claimed helpful=40 is not preferred');
    assert.match(render(playbook, []), /\[conv-00007\]/, 'counted here, it is first');
    // pit-00002 claims harmful=3: only counted harm leaves it out
    assert.match(render(PLAYBOOK, ['pit-00002']), /\[pit-00002\]/, 'a claimed harm hides nothing');
    assert.doesNotMatch(render(PLAYBOOK, []), /\[pit-00002\]/);
  });

  it("puts rules scoped to a folder into that folder's AGENTS.md, with a relative link to the playbook", () => {
    const support = [{ traceId: 't1', steps: [3] }];
    const lessons: Lesson[] = [
      {
        section: 'Pitfalls',
        content: 'Never edit `src/api/generated/` by hand.',
        kind: 'pitfall',
        evidence: { traceId: 't1', steps: [3] },
        scope: 'src/api',
      },
    ];
    const out = renderAssets({
      workspace: '/w/acme',
      playbook: PLAYBOOK,
      rules: [
        {
          id: 'pit-00004',
          op: 'ADD',
          section: 'Pitfalls',
          content: 'Never edit `src/api/generated/` by hand.',
          support,
        },
        {
          id: 'bat-00003',
          op: 'ADD',
          section: 'Build and test',
          content: 'Run `pnpm db:generate` before `pnpm test`.',
          support,
          scope: './web/',
        },
      ],
      lessons,
      readFile: files({ 'AGENTS.md': '# Team\n', '.combee/playbook.md': 'x' }),
    });
    const byPath = new Map(out.map((f) => [f.path, f]));
    const api = readManagedBlock(byPath.get('src/api/AGENTS.md')?.after) ?? '';
    const web = readManagedBlock(byPath.get('web/AGENTS.md')?.after) ?? '';
    const root = readManagedBlock(byPath.get('AGENTS.md')?.after) ?? '';
    assert.match(api, /## Learned rules for `src\/api\/`/);
    assert.match(api, /\[pit-00004\]/);
    assert.match(api, /\(\.\.\/\.\.\/\.combee\/playbook\.md\)/);
    assert.match(web, /\[bat-00003\]/);
    assert.match(root, /\[bat-00001\]/);
    assert.doesNotMatch(root, /pit-00004|bat-00003/);
    assert.equal(byPath.get('src/api/AGENTS.md')?.kind, 'create');
  });

  it('keeps rules where an earlier run put them (nested blocks) unless this run says otherwise', () => {
    const nested = '# API\n\n<!-- combee:begin -->\n- [pit-00004] Never edit by hand.\n<!-- combee:end -->\n';
    const scopes = resolveScopes({
      rules: [],
      lessons: [],
      nestedFolders: ['src/api'],
      readFile: files({ 'src/api/AGENTS.md': nested }),
    });
    assert.equal(scopes.get('pit-00004'), 'src/api');
    const out = renderAgentsMd({
      playbook: PLAYBOOK,
      playbookPath: '.combee/playbook.md',
      scopes,
      nestedFolders: ['src/api'],
      readFile: files({ 'src/api/AGENTS.md': nested }),
    });
    const api = out.find((f) => f.path === 'src/api/AGENTS.md');
    assert.ok(api?.after.startsWith('# API\n\n'));
    assert.match(readManagedBlock(api?.after) ?? '', /\[pit-00004\] Never edit `src\/api\/generated\/` by hand\./);
  });

  it('reports broken markers and leaves that file out of the proposal', () => {
    const warnings: string[] = [];
    const out = renderAssets({
      workspace: '/w/acme',
      playbook: PLAYBOOK,
      rules: [],
      lessons: [],
      readFile: files({ 'AGENTS.md': '<!-- combee:begin -->\n<!-- combee:begin -->\n<!-- combee:end -->\n' }),
      warn: (m) => warnings.push(m),
    });
    assert.deepEqual(
      out.map((f) => f.path),
      ['.combee/playbook.md'],
    );
    assert.match(warnings.join('\n'), /^acme: AGENTS\.md: 2 combee:begin and 1 combee:end markers/);
  });

  it('proposes nothing for a file without a block when no rule belongs there', () => {
    const empty = parsePlaybook('## Conventions\n');
    assert.deepEqual(
      renderAgentsMd({
        playbook: empty,
        playbookPath: '.combee/playbook.md',
        scopes: new Map(),
        readFile: files({ 'AGENTS.md': '# hi\n' }),
      }),
      [],
    );
  });
});
