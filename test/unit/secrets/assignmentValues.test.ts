import assert from 'node:assert/strict';
import { secretFileSpans } from '../../../src/core/secrets/secretFiles';
import { createRedactor } from '../../../src/core/trace/redact';

const redact = (text: string) => createRedactor({ homePaths: false }).redact(text);

describe('assignments: values, not code', () => {
  it('keeps code that reads a value and names that are no value', () => {
    for (const code of [
      'const password = formData.get("password") as string;',
      "password = os.environ['DB_PASSWORD']",
      '5-11-change-password: done',
      'permissions:\n  id-token: write',
      'TEST_USER_PASSWORD=your-test-password',
      'token: MISSING',
      'password: passwordValue,',
    ])
      assert.equal(redact(code), code);
  });

  it('still removes literal values: chosen passwords and generated keys', () => {
    assert.equal(redact('password = "hunter2xyz"'), 'password = "[REDACTED:secret-assignment]"');
    assert.equal(redact('password: Passw0rd!'), 'password: [REDACTED:secret-assignment]');
    assert.equal(redact('API_KEY=abcd1234efgh5678ijkl'), 'API_KEY=[REDACTED:secret-assignment]');
    assert.equal(redact('{"client_secret": "xQ7vLp2NwR9tKb4M"}'), '{"client_secret": "[REDACTED:secret-assignment]"}');
  });
});

describe("a secret-bearing file's text", () => {
  it('keeps relative paths made of words and takes random values', () => {
    const text = 'modified: .claude/settings.json\nmodified: docs/SETUP-LOCAL.md\nAPI=Zq8vR2mK9xLp4TnB7wYc';
    const spans = secretFileSpans(text, 'values').map(([s, e]) => text.slice(s, e));
    assert.deepEqual(spans, ['Zq8vR2mK9xLp4TnB7wYc']);
  });
});
