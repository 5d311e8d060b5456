import assert from 'node:assert/strict';
import { createRedactor } from '../../../src/core/trace/redact';

// Planted secrets: every one must disappear. Built by concatenation so this file does not itself look like a leak.
const SECRETS: Array<[string, string]> = [
  ['openai', 'sk-proj-' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0'],
  ['openai legacy', 'sk-' + 'abcdefghijklmnopqrstuvwxyz012345'],
  ['anthropic', 'sk-ant-api03-' + 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe-dcba'],
  ['github classic', 'ghp_' + 'aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789'],
  ['github fine-grained', 'github_pat_' + '11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz'],
  ['aws access key', 'AKIA' + 'IOSFODNN7EXAMPLE'],
  ['google', 'AIza' + 'SyA-1234567890abcdefghijklmnopqrstu'],
  ['slack', 'xoxb-' + '123456789012-1234567890123-AbCdEfGhIjKlMnOp'],
  ['stripe', 'sk_live_' + '51H8abcdefghijklmnopqrstuv'],
  ['npm', 'npm_' + 'abcdefghijklmnopqrstuvwxyz0123456789'],
  ['jwt', 'eyJhbGciOiJIUzI1NiJ9.' + 'eyJzdWIiOiIxMjM0NTY3ODkwIn0.' + 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
];

const LOOK_ALIKES = [
  'commit 9fceb02d0ae598e95dc970b74767f19372d61af8',
  'session 50a7220d-7250-46f3-b38e-b716ce25032e',
  'msg_vrtx_01YY7H3tCjVRQYgmw8yWWcUn',
  'toolu_01A09q90qw90lq917835lq9',
  'image id img_5f2c9b7e1d3a4c8f',
  'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
  'TOKENIZER=cl100k_base',
  'see https://example.com/docs/sk-learn',
];

describe('redaction', () => {
  it('removes every planted provider key and token, and counts each', () => {
    const redactor = createRedactor();
    for (const [name, secret] of SECRETS) {
      const out = redactor.redact(`before ${secret} after`);
      assert.ok(!out.includes(secret), `${name} survived: ${out}`);
      assert.match(out, /^before \[REDACTED:[a-z-]+\] after$/, name);
    }
    assert.equal(redactor.count, SECRETS.length);
  });

  it('removes private-key blocks, URL credentials, Authorization headers and .env secrets', () => {
    const redactor = createRedactor();
    const text = [
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
      '-----END OPENSSH PRIVATE KEY-----',
      'DATABASE_URL=postgres://shop:hunter22@db.internal:5432/shop',
      'curl -H "Authorization: Bearer abc123def456ghi789" https://api.example.com',
      'export STRIPE_SECRET=whsec_live_value_123',
      'DB_PASSWORD="correct horse"',
      'API_TOKEN: tok-998877665544',
    ].join('\n');
    const out = redactor.redact(text);
    for (const leaked of [
      'b3BlbnNzaC1rZXkt',
      'hunter22',
      'abc123def456ghi789',
      'whsec_live_value_123',
      'tok-998877665544',
    ])
      assert.ok(!out.includes(leaked), `${leaked} survived:\n${out}`);
    assert.match(out, /postgres:\/\/\[REDACTED:url-credentials\]@db\.internal/);
    assert.match(out, /Authorization: Bearer \[REDACTED:authorization-header\]/);
    assert.match(out, /export STRIPE_SECRET=\[REDACTED:secret-assignment\]/);
  });

  it('keeps look-alikes: git hashes, UUIDs, message and tool ids, image ids, hashes, harmless settings', () => {
    const redactor = createRedactor({ homePaths: false });
    for (const text of LOOK_ALIKES) assert.equal(redactor.redact(text), text);
    assert.equal(redactor.count, 0);
  });

  it('shows home folders as ~ on Linux, macOS and Windows', () => {
    const redactor = createRedactor();
    assert.equal(redactor.redact('/home/alice/src/app and /Users/bob/x'), '~/src/app and ~/x');
    assert.equal(redactor.redact('C:\\Users\\Carol\\code'), '~\\code');
  });

  it('applies user patterns and reports invalid ones instead of throwing', () => {
    const invalid: string[] = [];
    const redactor = createRedactor({ extraPatterns: ['ACME-[0-9]{6}', '(unclosed'] }, (source) =>
      invalid.push(source),
    );
    assert.equal(redactor.redact('ticket ACME-123456'), 'ticket [REDACTED:custom]');
    assert.deepEqual(invalid, ['(unclosed']);
  });
});
