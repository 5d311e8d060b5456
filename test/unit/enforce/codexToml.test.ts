import assert from 'node:assert/strict';
import { sharedHookCommand } from '../../../src/core/assets/enforce/agentHooks';
import {
  codexHooksInToml,
  TOML_BLOCK_END,
  TOML_BLOCK_START,
  tomlHookProblem,
  withTomlHookBlock,
} from '../../../src/core/assets/enforce/codexToml';
import { renderEnforcement } from '../../../src/core/assets/enforce/render';
import { parsePlaybook } from '../../../src/core/playbook/markdown';

// Codex's hooks in `.codex/config.toml`: Combee's block is appended between its markers and cut out by them, the
// team's text byte for byte as it was; a file whose hooks an appended array of tables would clash with is left alone.

const COMMAND = sharedHookCommand('codex');
const TEAM = `model = "gpt-5.5"
approval_policy = "on-request"

[hooks]

[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = "pnpm lint"

[mcp_servers.docs]
command = "docs-server"
`;

describe("Codex hooks in the team's config.toml", () => {
  it('appends its block after everything, and taking it out gives the file back byte for byte', () => {
    const on = withTomlHookBlock(TEAM, true, COMMAND) ?? '';
    assert.ok(on.startsWith(TEAM), 'the team text untouched, the block after it');
    const added = on.slice(TEAM.length);
    assert.equal(
      added,
      `\n${TOML_BLOCK_START}\n[[hooks.PreToolUse]]\nmatcher = "Bash"\n\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = '${COMMAND}'\n${TOML_BLOCK_END}\n`,
    );
    assert.equal(withTomlHookBlock(on, true, COMMAND), on, 'present already: unchanged');
    assert.equal(withTomlHookBlock(on, false, COMMAND), TEAM);
    assert.equal(withTomlHookBlock(TEAM, false, COMMAND), TEAM, 'nothing to take out');
  });

  it('keeps the file line ends, and a file without a last line end gains only that', () => {
    const crlf = TEAM.replace(/\n/g, '\r\n');
    const on = withTomlHookBlock(crlf, true, COMMAND) ?? '';
    assert.ok(!/[^\r]\n/.test(on), 'CRLF throughout');
    assert.equal(withTomlHookBlock(on, false, COMMAND), crlf);
    const bare = TEAM.trimEnd();
    assert.equal(withTomlHookBlock(withTomlHookBlock(bare, true, COMMAND) ?? '', false, COMMAND), `${bare}\n`);
    assert.equal(withTomlHookBlock(withTomlHookBlock('', true, COMMAND) ?? '', false, COMMAND), '');
  });

  it('refuses a file whose PreToolUse an appended array of tables would redefine, or whose block was cut', () => {
    for (const [text, why] of [
      ['[hooks]\nPreToolUse = []\n', /PreToolUse/],
      ['hooks.PreToolUse = [{ matcher = "Bash" }]\n', /PreToolUse/],
      ['hooks = { Stop = [] }\n', /`hooks` inline/],
      ['[hooks.PreToolUse]\nmatcher = "Bash"\n', /\[hooks\.PreToolUse\]/],
      [`x = 1\n${TOML_BLOCK_START}\n[[hooks.PreToolUse]]\n`, /cut/],
    ] as const) {
      assert.match(tomlHookProblem(text) ?? '', why, text);
      assert.equal(withTomlHookBlock(text, true, COMMAND), undefined, text);
    }
    // the team's own array of PreToolUse tables takes one more
    assert.equal(tomlHookProblem('[[hooks.PreToolUse]]\nmatcher = "Edit"\n'), undefined);
    // a `[hooks]` line inside a multi-line string is text, not a table
    assert.equal(
      codexHooksInToml((rel) => (rel === '.codex/config.toml' ? 'notes = """\n[hooks]\n"""\n' : undefined)),
      false,
    );
  });

  it('goes where the repository keeps its Codex hooks: config.toml when they are there, hooks.json otherwise', () => {
    const playbook = parsePlaybook(
      '## Setup\n<!-- combee:enforced [setu-00001] codex: `npm install` (stops 3 of 3 sessions that broke it) -->\n[setu-00001] helpful=0 harmful=0 :: Use pnpm for packages, never `npm install`.\n',
    );
    const paths = (files: Record<string, string>) =>
      renderEnforcement({ playbook, readFile: (rel) => files[rel] })
        .map((c) => c.path)
        .sort();
    assert.deepEqual(paths({ '.codex/config.toml': TEAM }), [
      '.codex/config.toml',
      '.combee/hooks/combee-enforce.json',
      '.combee/hooks/combee-enforce.mjs',
    ]);
    // no hooks in config.toml, or a hooks.json already: hooks.json, config.toml left as it is
    for (const files of <Array<Record<string, string>>>[
      { '.codex/config.toml': 'model = "gpt-5.5"\n' },
      { '.codex/config.toml': TEAM, '.codex/hooks.json': '{ "hooks": {} }\n' },
    ])
      assert.deepEqual(paths(files), [
        '.codex/hooks.json',
        '.combee/hooks/combee-enforce.json',
        '.combee/hooks/combee-enforce.mjs',
      ]);
  });
});
