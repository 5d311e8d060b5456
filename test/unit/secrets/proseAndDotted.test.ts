import assert from 'node:assert/strict';
import { createRedactor } from '../../../src/core/trace/redact';

const redact = (text: string) => createRedactor({ homePaths: false }).redact(text);
// generated at run time from fixed pieces: no real-looking secret sits in the repository
const RANDOM = ['Zq8vR2', 'mK9xLp', '4TnB7w', 'Yc3Hd6'].join('');
const HEX32 = ['a3f9c2', '7e1b4d', '08c6f5', 'e2a9d7', 'b41c3e', '6f'].join('');
const UUID = ['3c8e5f1a', '9b2d', '4e7f', 'a1c6', '5d8e2f9b0a47'].join('-');

describe('secrets in prose', () => {
  it('finds the value after "is" when the sentence names what it is for and goes on', () => {
    const text = `The password for prod is ${RANDOM} because the old one leaked.`;
    assert.equal(redact(text), 'The password for prod is [REDACTED:secret-in-prose] because the old one leaked.');
  });

  it('finds a key named for a longer purpose, before more words', () => {
    const text = `the api key for the billing service is ${RANDOM} before the migration`;
    assert.equal(
      redact(text),
      'the api key for the billing service is [REDACTED:secret-in-prose] before the migration',
    );
  });

  it('takes a UUID or hex key when the sentence says it is the key', () => {
    assert.equal(redact(`our heroku api key is ${UUID}.`), 'our heroku api key is [REDACTED:secret-in-prose].');
    assert.equal(
      redact(`The Twilio auth token is ${HEX32}, rotate it monthly`),
      'The Twilio auth token is [REDACTED:secret-in-prose], rotate it monthly',
    );
  });

  it('keeps sentences that name no value', () => {
    for (const text of [
      'The password for prod is stored in the vault because of the audit.',
      'the api key for billing is missing before the migration',
      'The token is expired, refresh it with `gh auth login`.',
      'the password for the staging db is in 1Password',
      'Session 3c8e5f1a-9b2d-4e7f-a1c6-5d8e2f9b0a47 ended.',
      'see the auth token ,docs/auth-session.md for the flow',
    ])
      assert.equal(redact(text), text);
  });
});

describe('secret-named assignments with dotted values', () => {
  it('removes a dotted random value', () => {
    assert.equal(redact(`API_KEY=sk.${RANDOM}`), 'API_KEY=[REDACTED:secret-assignment]');
    assert.equal(
      redact(`{"token": "MTE5ODc2NTQzMjEwOTg3NjU0.Gh7X2a.${RANDOM}${RANDOM}"}`),
      '{"token": "[REDACTED:secret-assignment]"}',
    );
  });

  it('removes a Mapbox secret token with a short payload', () => {
    const mapbox = `sk.eyJ1IjoiYWNtZSIsImEiOiJjbHgxMjM0In0.${RANDOM}`;
    assert.doesNotMatch(redact(`MAPBOX_TOKEN=${mapbox}`), /eyJ1|Zq8vR2/);
    assert.doesNotMatch(redact(`use ${mapbox} for tiles`), /eyJ1|Zq8vR2/);
  });

  it('keeps member access and dotted names', () => {
    for (const code of [
      'token = process.env.GITHUB_TOKEN',
      'password: self.password',
      'API_KEY=config.apiKey',
      'secret = settings.DB_PASSWORD',
    ])
      assert.equal(redact(code), code);
  });
});

describe('held-out shapes', () => {
  it('removes an Azure storage key after --account-key and a key that starts with a slash', () => {
    const key = `/${RANDOM}+${RANDOM}${RANDOM}/${RANDOM}${RANDOM}x==`;
    assert.doesNotMatch(redact(`az storage blob list --account-name shop --account-key ${key}`), /Zq8vR2/);
    assert.doesNotMatch(redact(`AZURE_STORAGE_KEY=${key}`), /Zq8vR2/);
  });

  it('removes a quoted passphrase of words, keeps placeholder phrases', () => {
    assert.equal(
      redact('export GPG_PASSPHRASE="orbit-lantern-cactus-velvet"'),
      'export GPG_PASSPHRASE="[REDACTED:secret-assignment]"',
    );
    for (const kept of ['password: "your-test-password"', 'TEST_USER_PASSWORD=your-test-password', 'token: "MISSING"'])
      assert.equal(redact(kept), kept);
  });
});

describe("the redactor's own placeholder", () => {
  it('is left as it is when redacted again, in every context', () => {
    for (const text of [
      'API_KEY=[REDACTED:secret-assignment]',
      'password: [REDACTED:secret-assignment]',
      'the password is [REDACTED:secret-in-prose] now',
      'Authorization: Bearer [REDACTED:authorization-header]',
      'curl -u me:[REDACTED:secret-flag] https://x.example',
      'https://me:[REDACTED:url-credentials]@x.example',
      '--token [REDACTED:secret-flag]',
      'use the token [REDACTED:api-key]',
    ])
      assert.equal(redact(text), text);
  });

  it("is not taken for a value by a rule's keyword inside it, nor by the user's patterns", () => {
    const connection = 'AccountKey=[REDACTED:secret-assignment];EndpointSuffix=core.windows.net';
    assert.equal(redact(connection), connection);
    const user = createRedactor({ homePaths: false, extraPatterns: ['REDACTED:[a-z-]+', 'secret-\\w+'] });
    assert.equal(
      user.redact('token: [REDACTED:secret-assignment] and secret-sauce'),
      'token: [REDACTED:secret-assignment] and [REDACTED:custom]',
    );
    assert.equal(user.count, 1);
  });
});
