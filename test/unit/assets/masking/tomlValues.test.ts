import assert from 'node:assert/strict';
import { tomlMaskedValues } from '../../../../src/core/assets/masking/tomlValues';
import { showPath } from '../../../../src/core/assets/masking/secretNames';

// The TOML reader finds exactly the one-line strings under env and headers tables and secret names, wherever the
// file's syntax puts them, and reads nothing out of comments or multi-line strings.

const masked = (text: string) =>
  tomlMaskedValues(text)?.map((v) => `${showPath(v.path)} ${text.slice(v.start, v.end)}`);

describe('TOML values to mask', () => {
  it('tables, inline tables, dotted and quoted keys, and secret names', () => {
    const text = [
      'model = "gpt-5.5"',
      'model_max_output_tokens = 4096 # a number under a secret-like name stays',
      '',
      '[mcp_servers.github]',
      'command = "npx"',
      'args = ["-y", "server-github"]',
      '',
      '[ mcp_servers . "github" . env ]',
      'GITHUB_TOKEN = "gh-value" # the team\'s',
      "'LOG LEVEL' = 'debug'",
      '',
      '[mcp_servers.docs]',
      'env = { DOCS_KEY = "dk-value", REGION = \'eu\' }',
      '"http_headers" = { "X-Api-Key" = "xk-value" }',
      'bearer_token_env_var = "DOCS_KEY"',
      'nested.api_key = "nested-value"',
      '',
    ].join('\n');
    assert.deepEqual(masked(text), [
      'mcp_servers.github.env.GITHUB_TOKEN "gh-value"',
      'mcp_servers.github.env."LOG LEVEL" \'debug\'',
      'mcp_servers.docs.env.DOCS_KEY "dk-value"',
      "mcp_servers.docs.env.REGION 'eu'",
      'mcp_servers.docs.http_headers.X-Api-Key "xk-value"',
      'mcp_servers.docs.bearer_token_env_var "DOCS_KEY"',
      'mcp_servers.docs.nested.api_key "nested-value"',
    ]);
  });

  it('arrays of tables by index, a sub-table of the last element, arrays over lines', () => {
    const text = [
      '[[team.agents]]',
      'name = "one"',
      'token = "t-one"',
      '[[team.agents]]',
      'name = "two"',
      'token = "t-two"',
      '[team.agents.env]',
      'TWO = "e-two"',
      '[[team.agents.hooks]]',
      'secret = "h-two"',
      '[other]',
      'passwords = [',
      '  "p-one", # first',
      "  'p-two',",
      ']',
    ].join('\r\n');
    assert.deepEqual(masked(text), [
      'team.agents[0].token "t-one"',
      'team.agents[1].token "t-two"',
      'team.agents[1].env.TWO "e-two"',
      'team.agents[1].hooks[0].secret "h-two"',
      'other.passwords[0] "p-one"',
      "other.passwords[1] 'p-two'",
    ]);
  });

  it('reads nothing out of comments and multi-line strings, and no comment out of a string', () => {
    const text = [
      '# [mcp_servers.x.env]',
      '# KEY = "commented"',
      'notes = """',
      '[mcp_servers.y.env]',
      'KEY = "inside a string \\""" still"',
      '"""',
      "raw = '''",
      "token = 'inside'",
      "''''",
      '[a.env]',
      'K = "v # not a comment"',
      'M = """two',
      'lines"""',
    ].join('\n');
    assert.deepEqual(masked(text), ['a.env.K "v # not a comment"']);
  });

  it('a text it cannot read is unreadable, never half read', () => {
    for (const text of [
      '[a.env]\nK = "unclosed\n',
      '[a.env\nK = "v"\n',
      'K = "v" trailing\n',
      'K = <<EOF\n',
      `K = ${'['.repeat(5_000)}`,
      'K = """never closed\n',
    ])
      assert.equal(tomlMaskedValues(text), undefined, text.slice(0, 40));
  });
});
