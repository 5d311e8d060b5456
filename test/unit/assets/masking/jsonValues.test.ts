import assert from 'node:assert/strict';
import { jsonMaskedValues } from '../../../../src/core/assets/masking/jsonValues';
import { showPath } from '../../../../src/core/assets/masking/secretNames';

// The JSON reader finds every value under env and headers at any depth, and the strings under secret names.

const masked = (text: string) =>
  jsonMaskedValues(text)?.map((v) => `${showPath(v.path)} ${text.slice(v.start, v.end)}`);

describe('JSON values to mask', () => {
  it('env and headers at any depth, secret names, and nothing of a hook entry', () => {
    const text = `{
  // comments and a trailing comma are read
  "env": { "A": "a", "N": 3 },
  "mcpServers": {
    "gh": { "command": "npx", "args": ["-y"], "env": { "GITHUB_TOKEN": "g" } },
    "docs": { "httpUrl": "https://x", "headers": { "Authorization": "Bearer b" }, "timeout": 30 }
  },
  "security": { "auth": { "selectedType": "api-key" } },
  "apiKeyHelper": "/bin/key",
  "maxTokens": 4096,
  "accessTokens": ["t1", "t2"],
  "hooks": { "BeforeTool": [{ "matcher": "run_shell_command", "hooks": [{ "type": "command", "command": "node x" }] }] },
}`;
    assert.deepEqual(masked(text), [
      'env.A "a"',
      'env.N 3',
      'mcpServers.gh.env.GITHUB_TOKEN "g"',
      'mcpServers.docs.headers.Authorization "Bearer b"',
      'security.auth.selectedType "api-key"',
      'apiKeyHelper "/bin/key"',
      'accessTokens[0] "t1"',
      'accessTokens[1] "t2"',
    ]);
  });

  it('a text that is not a JSON object is unreadable', () => {
    for (const text of ['{ "env": { "A": "a" ', '[1]', `${'['.repeat(100)}${']'.repeat(100)}`])
      assert.equal(jsonMaskedValues(text), undefined);
  });
});
