import assert from 'node:assert/strict';
import { MAX_TOML_TEXT, tomlMaskedValues } from '../../../../src/core/assets/masking/tomlValues';
import { maskText, unmaskText } from '../../../../src/core/assets/masking/maskedText';
import { showPath } from '../../../../src/core/assets/masking/secretNames';

// The TOML reader finds exactly the strings under env and headers tables and secret names, wherever the file's syntax
// puts them, and reads nothing out of comments or out of the text inside strings.

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

  it('reads nothing out of comments or the text of multi-line strings, and no comment out of a string', () => {
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
    assert.deepEqual(masked(text), ['a.env.K "v # not a comment"', 'a.env.M """two\nlines"""']);
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

  it('dates, numbers and booleans beside the strings, arrays over lines with comments, dotted keys in inline tables', () => {
    const text = [
      'released = 1979-05-27T07:32:00-08:00',
      'at = 1979-05-27 07:32:00Z',
      'day = 1979-05-27',
      'alarm = 07:32:00.999',
      '[mcp_servers.docs]',
      'startup_timeout_sec = 2.5e1',
      'enabled = true',
      'env = { PORT = 8080, SINCE = 2024-01-01, "KEY" = "k-value" }',
      'auth = { bearer.token = "b-value", scheme . "name" = "plain" }',
      'tokens = [',
      '  # the first',
      '  "t-one", # a comment after it',
      '',
      '  [ "t-two", 0x1F ],',
      '  { inner.password = "p-value" },',
      ']',
    ].join('\n');
    assert.deepEqual(masked(text), [
      'mcp_servers.docs.env.KEY "k-value"',
      'mcp_servers.docs.auth.bearer.token "b-value"',
      'mcp_servers.docs.auth.scheme.name "plain"',
      'mcp_servers.docs.tokens[0] "t-one"',
      'mcp_servers.docs.tokens[1][0] "t-two"',
      'mcp_servers.docs.tokens[2].inner.password "p-value"',
    ]);
  });

  it('multi-line strings under a secret name are masked whole, and the real text comes back byte for byte', () => {
    const text = [
      '[mcp_servers.vault]',
      'command = """',
      'vault-mcp"""',
      'private_key = """',
      '-----BEGIN KEY-----\\',
      '   abc "quoted" \\"""',
      'def""""',
      "client_secret = '''line one",
      "line 'two'''''",
      '[mcp_servers.vault.env]',
      'NOTE = """a""" # after it',
      '',
    ].join('\r\n');
    assert.deepEqual(
      tomlMaskedValues(text)?.map((v) => showPath(v.path)),
      ['mcp_servers.vault.private_key', 'mcp_servers.vault.client_secret', 'mcp_servers.vault.env.NOTE'],
    );
    const stored = maskText(text, tomlMaskedValues);
    assert.equal(
      stored,
      [
        '[mcp_servers.vault]',
        'command = """',
        'vault-mcp"""',
        'private_key = "[REDACTED:config-secret]"',
        'client_secret = "[REDACTED:config-secret]"',
        '[mcp_servers.vault.env]',
        'NOTE = "[REDACTED:settings-env]" # after it',
        '',
      ].join('\r\n'),
    );
    assert.deepEqual(unmaskText(stored, text, tomlMaskedValues), { text });
  });

  it('reads TOML 1.1 as before: inline tables over lines with a trailing comma, the \\e escape', () => {
    const text = ['[mcp_servers.x]', 'env = {', '  A = "a-value", # why', '  B = "\\e[0m",', '}', ''].join('\n');
    assert.deepEqual(masked(text), ['mcp_servers.x.env.A "a-value"', 'mcp_servers.x.env.B "\\e[0m"']);
  });

  it('a file that is not TOML is unreadable, though a looser reader would have read on', () => {
    for (const text of [
      '[a.env]\nK = "one"\nK = "two"\n',
      '[a.env]\nK = "v"\n[a.env]\nL = "w"\n',
      '[a.env]\nK = hello world\n',
      '[a.env]\nK = "v" # \u0001\n',
    ])
      assert.equal(tomlMaskedValues(text), undefined, text);
  });

  it('arrays and inline tables nest 64 deep at most, and any depth is answered without overflowing', () => {
    const nested = (depth: number) => `[a.env]\nK = ${'['.repeat(depth)}"v"${']'.repeat(depth)}\n`;
    assert.deepEqual(
      tomlMaskedValues(nested(64))?.map((v) => v.path.length),
      [3 + 64],
    );
    assert.equal(tomlMaskedValues(nested(65)), undefined);
    // read by the parser, then too deep here; then too deep for the parser itself
    assert.equal(tomlMaskedValues(nested(2_000)), undefined);
    assert.equal(tomlMaskedValues(nested(20_000)), undefined);
    const tables = (depth: number) => `env = ${'{ a = '.repeat(depth)}"v"${' }'.repeat(depth)}\n`;
    assert.equal(tomlMaskedValues(tables(64))?.length, 1);
    assert.equal(tomlMaskedValues(tables(65)), undefined);
    assert.equal(tomlMaskedValues(tables(5_000)), undefined);
  });

  it('a text up to 64 KiB is read, long strings and all; a longer one is unreadable', () => {
    const text = (length: number) => {
      const head = '[a.env]\nK = "';
      return `${head}${'x'.repeat(length - head.length - 2)}"\n`;
    };
    assert.equal(text(MAX_TOML_TEXT).length, MAX_TOML_TEXT);
    assert.deepEqual(
      tomlMaskedValues(text(MAX_TOML_TEXT))?.map((v) => v.end - v.start),
      [MAX_TOML_TEXT - '[a.env]\nK = '.length - '\n'.length],
    );
    assert.equal(tomlMaskedValues(text(MAX_TOML_TEXT + 1)), undefined);
  });
});
