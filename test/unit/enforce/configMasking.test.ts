import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AGENT_HOOKS, sharedHookCommand } from '../../../src/core/assets/enforce/agentHooks';
import { CODEX_TOML_PATH, withTomlHookBlock } from '../../../src/core/assets/enforce/codexToml';
import { withHookEntry } from '../../../src/core/assets/enforce/hookConfig';
import { makeFileChange, type Proposal } from '../../../src/core/assets/proposal';
import { EDITED_CONFIGS } from '../../../src/core/assets/enforce/editedConfigs';
import { storedMasked } from '../../../src/core/assets/storedText';
import { planReview, type ReviewDeps } from '../../../src/core/service/review/decide';
import { fileWriter } from '../../../src/core/service/review/fileWriter';
import { UndoStack } from '../../../src/core/service/review/undo';
import { reviewFixture, type ReviewFixture } from '../../support/reviewProposal';

// Every agent config Combee edits in place is stored with the team's secrets masked, in the proposal and the undo
// stack; accepting writes the real values from the file on disk, undoing puts them back, and a file whose values no
// longer line up with what was reviewed is not written. All the secrets below are made up for these tests.

const GH = 'ghp_Xq7Lm2Vr9Tz4Kp8Ws3Yb6Nc1Fh5Gj0Da2Qe';
const BEARER = 'Bearer mcp-4f9K2xQz7LmT-docs-2Vr9Tz4K';
const PASSWORD = 'pw-team-8Ws3Yb6Nc1Fh5';
const PROJ = 'sk-proj-Rt5Yu8Io2Pa4Sd6Fg9Hj1Kl3Zx7Cv0Bn';
const BEARER_TOKEN = 'sk-shop-5Gj0Da2Qe7Lm2Vr9Tz4Kp8Ws';
const LITERAL = 'key-literal-Nc1Fh5Gj0Da2';

interface Case {
  path: string;
  /** The team's file as it is on disk. */
  team: string;
  /** Combee's edit: its hook entry added. */
  hooked: (text: string) => string;
  secrets: string[];
  /** A team edit away from Combee's entry, with every secret rotated. */
  since: (text: string) => string;
}

const rotated = (text: string, secrets: string[]) =>
  secrets.reduce((t, s) => t.replaceAll(s, `${s.slice(0, -4)}ROT8`), text);

const gemini = AGENT_HOOKS['gemini-cli'].shape!;
const codexJson = AGENT_HOOKS.codex.shape!;

const CASES: Case[] = [
  {
    path: '.gemini/settings.json',
    team: `{
  // the team's Gemini CLI settings
  "general": { "vimMode": true },
  "ui": { "theme": "GitHub" },
  "security": { "auth": { "selectedType": "gemini-api-key" } },
  "telemetry": { "enabled": false, "otlpPassword": "${PASSWORD}" },
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "${GH}" }
    },
    "docs": {
      "httpUrl": "https://mcp.docs.example/mcp",
      "headers": { "Authorization": "${BEARER}", "X-Team": "shop" },
      "timeout": 30000
    }
  }
}
`,
    hooked: (text) => withHookEntry(text, true, gemini)!,
    secrets: [GH, BEARER, PASSWORD],
    since: (text) => rotated(text.replace('"vimMode": true', '"vimMode": false'), [GH, BEARER, PASSWORD]),
  },
  {
    path: CODEX_TOML_PATH,
    team: [
      "# the team's Codex config; the old key was " + PROJ.replace('Rt5', 'Qq1'),
      'model = "gpt-5.5"',
      'model_max_output_tokens = 4096',
      '',
      '[model_providers.shop]',
      'name = "Shop proxy"',
      'base_url = "https://llm.shop.example/v1"',
      `experimental_bearer_token = "${BEARER_TOKEN}"`,
      `http_headers = { "X-Api-Key" = '${LITERAL}', Team = "shop" }`,
      '',
      '[mcp_servers.github]',
      'command = "npx"',
      'args = ["-y", "@modelcontextprotocol/server-github"]',
      '',
      '[mcp_servers.github.env]',
      `GITHUB_PERSONAL_ACCESS_TOKEN = "${GH}" # rotated monthly`,
      '',
      '[profiles.ci]',
      'developer_instructions = """',
      `Use the CI key ${PROJ} only here.`,
      '"""',
      '',
      '[hooks]',
      '',
      '[[hooks.Stop]]',
      'matcher = "*"',
      '',
    ].join('\n'),
    hooked: (text) => withTomlHookBlock(text, true, sharedHookCommand('codex'))!,
    secrets: [BEARER_TOKEN, LITERAL, GH, PROJ, PROJ.replace('Rt5', 'Qq1')],
    since: (text) => rotated(text.replace('model = "gpt-5.5"', 'model = "gpt-5.6"'), [BEARER_TOKEN, LITERAL, GH, PROJ]),
  },
  {
    path: '.codex/hooks.json',
    team: `{
  "hooks": {
    "SessionStart": [
      {
        "hooks": [{ "type": "command", "command": "echo start" }]
      }
    ],
    "Stop": [
      {
        "hooks": [
          { "type": "command", "command": "curl -s -H 'Authorization: Bearer ${PROJ}' https://notify.shop.example" }
        ]
      }
    ]
  }
}
`,
    hooked: (text) => withHookEntry(text, true, codexJson)!,
    secrets: [PROJ],
    since: (text) => rotated(text.replace('echo start', 'echo started'), [PROJ]),
  },
];

/** The service as the CLI runs it: plain file writes into the workspace. */
const depsOf = (fx: ReviewFixture): ReviewDeps => ({
  store: fx.store,
  proposals: fx.proposals,
  writer: fileWriter(fx.workspace),
  warn: () => undefined,
});

/** Every file of the store, read as text, that holds one of the secrets. */
function leaks(dir: string, secrets: string[]): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return leaks(full, secrets);
    const text = readFileSync(full, 'latin1');
    return secrets.some((s) => text.includes(s)) ? [full] : [];
  });
}

async function proposing(c: Case): Promise<{ fx: ReviewFixture; proposal: Proposal; deps: ReviewDeps }> {
  const fx = await reviewFixture();
  mkdirSync(join(fx.workspace, dirname(c.path)), { recursive: true });
  writeFileSync(join(fx.workspace, c.path), c.team);
  const change = makeFileChange(c.path, c.team, c.hooked(c.team))!;
  const made: Proposal = { ...fx.proposal, id: 'hooks-1', files: [change], rules: [], ops: [], tags: [] };
  await fx.proposals.save(made);
  const proposal = (await fx.proposals.load(fx.workspace, made.id))!;
  return { fx, proposal, deps: depsOf(fx) };
}

const readFile = (fx: ReviewFixture, path: string) => readFileSync(join(fx.workspace, path), 'utf8');

describe('agent config secrets, stored masked', () => {
  it('every agent config Combee edits in place, and none of the files it creates whole', () => {
    assert.deepEqual([...EDITED_CONFIGS.entries()].sort(), [
      ['.claude/settings.json', 'json'],
      ['.codex/config.toml', 'toml'],
      ['.codex/hooks.json', 'json'],
      ['.cursor/hooks.json', 'json'],
      ['.gemini/settings.json', 'json'],
      ['.windsurf/hooks.json', 'json'],
    ]);
    for (const own of [
      '.github/hooks/combee-enforce.json',
      '.combee/hooks/combee-enforce.json',
      '.claude/hooks/combee-enforce.json',
    ])
      assert.equal(storedMasked(own), false, own);
  });

  for (const c of CASES) {
    it(`${c.path}: masked in the proposal and the undo stack, written and put back real, byte for byte`, async () => {
      const { fx, proposal, deps } = await proposing(c);
      const [stored] = proposal.files;
      for (const text of [stored.before, stored.after, stored.diff])
        assert.ok(!c.secrets.some((s) => text.includes(s)), text);
      assert.ok(stored.after.includes('[REDACTED:'), stored.after);
      // Combee's own entry is there to review
      assert.ok(stored.diff.includes('combee-enforce.mjs'), stored.diff);
      assert.deepEqual(leaks(fx.store.dir, c.secrets), []);

      const stack = new UndoStack(fx.store.dir, fx.workspace);
      const accepted = await stack.commit(
        deps,
        await planReview(deps, proposal, { kind: 'accept-file', path: c.path }),
      );
      assert.ok(accepted.decided, JSON.stringify(accepted.outcome.conflicts));
      assert.equal(readFile(fx, c.path), c.hooked(c.team));
      assert.deepEqual(leaks(fx.store.dir, c.secrets), [], 'the undo stack holds no secret');

      assert.equal((await stack.undo(deps)).kind, 'undone');
      assert.equal(readFile(fx, c.path), c.team);
    });

    it(`${c.path}: onto a file edited and its secrets rotated since, re-based, and undone around the edit`, async () => {
      const { fx, proposal, deps } = await proposing(c);
      const edited = c.since(c.team);
      assert.notEqual(edited, c.team);
      writeFileSync(join(fx.workspace, c.path), edited);
      const stack = new UndoStack(fx.store.dir, fx.workspace);
      const accepted = await stack.commit(
        deps,
        await planReview(deps, proposal, { kind: 'accept-file', path: c.path }),
      );
      assert.ok(accepted.decided, JSON.stringify(accepted.outcome.conflicts));
      assert.deepEqual(accepted.outcome.rebased, [c.path]);
      assert.equal(readFile(fx, c.path), c.hooked(edited), 'the team’s edit and its new secrets, and Combee’s entry');
      assert.deepEqual(leaks(fx.store.dir, [...c.secrets, ...c.secrets.map((s) => rotated(s, c.secrets))]), []);

      // rotated once more after the accept: the undo keeps the newest values
      const again = rotated(
        c.hooked(edited),
        c.secrets.map((s) => rotated(s, c.secrets)),
      );
      writeFileSync(join(fx.workspace, c.path), again);
      assert.equal((await stack.undo(deps)).kind, 'undone');
      assert.equal(
        readFile(fx, c.path),
        rotated(
          edited,
          c.secrets.map((s) => rotated(s, c.secrets)),
        ),
      );
    });
  }
});
