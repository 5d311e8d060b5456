import { seededRandom } from '../src/core/learn/random';
import type { SecretShape } from './secretCorpus';

/**
 * The held-out secret corpus: shapes and forms the rules were not written against — secrets in prose, secret-named
 * assignments with dotted values, and six shapes in the ways people write them (a CLI flag, a config file, an env
 * line, a sentence). Like the main corpus, every random part is generated here at run time from a seed; `needles`
 * are the random parts. Nameless tokens in code (`client.login("…")` with no name or prefix) are not in it: no
 * rule can tell them from any other random string without a name or a prefix, and the corpus says so rather than
 * hiding it.
 */

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const URLSAFE = `${ALNUM}_-`;
const BASE64 = `${ALNUM}+/`;
const HEX = '0123456789abcdef';
/** Words for chosen passphrases (diceware style). */
const WORDS = [
  'orbit',
  'lantern',
  'cactus',
  'velvet',
  'harbor',
  'pickle',
  'glacier',
  'tundra',
  'mosaic',
  'falcon',
  'quartz',
  'ember',
  'saffron',
  'walrus',
  'nimbus',
  'juniper',
];

export function buildHeldoutCorpus(seed = 20261207): SecretShape[] {
  const random = seededRandom(seed);
  const pick = (alphabet: string, n: number) => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(random() * alphabet.length)];
    return s;
  };
  // random parts start and end with a letter or digit
  const rnd = (alphabet: string, n: number) => pick(ALNUM, 1) + pick(alphabet, n - 2) + pick(ALNUM, 1);
  const uuid = () => [8, 4, 4, 4, 12].map((n) => pick(HEX, n)).join('-');
  const phrase = () =>
    Array.from({ length: 4 }, () => WORDS[Math.floor(random() * WORDS.length)]).join('-') + '-' + pick('0123456789', 2);
  /** A chosen password: letters, digits and a symbol. */
  const chosen = () => `${pick(ALNUM, 5)}!${pick(ALNUM, 5)}`;
  const shapes: SecretShape[] = [];
  const add = (name: string, text: (secret: string) => string, secret: string, needles = [secret]) =>
    shapes.push({ name, text: text(secret), needles });

  // Azure storage account keys: 64 bytes in base64 (86 characters and `==`); one starts with `/`
  const azure = () => `${rnd(BASE64, 86)}==`;
  add(
    'Azure storage key: --account-key',
    (k) => `az storage blob upload --account-name shopdata --account-key ${k} -f a.csv`,
    azure(),
  );
  add('Azure storage key: env line', (k) => `AZURE_STORAGE_KEY=${k}`, `/${rnd(BASE64, 85)}==`);
  add(
    'Azure storage key: appsettings.json',
    (k) =>
      `"Storage": "DefaultEndpointsProtocol=https;AccountName=shopdata;AccountKey=${k};EndpointSuffix=core.windows.net"`,
    azure(),
  );
  add('Azure storage key: prose', (k) => `the storage account key is ${k} (rotated monthly)`, azure());
  // Discord bot tokens: base64 of the bot's id, a time part and an HMAC, joined by dots
  const discord = () => `M${rnd(URLSAFE, 25)}.${pick(URLSAFE, 6)}.${rnd(URLSAFE, 38)}`;
  add('Discord bot token: config.json', (t) => `{"token": "${t}", "prefix": "!"}`, discord());
  add('Discord bot token: env line', (t) => `BOT_TOKEN=${t}`, discord());
  add('Discord bot token: Python', (t) => `TOKEN = '${t}'`, discord());
  add('Discord bot token: prose', (t) => `The bot token is ${t}, keep it out of git`, discord());
  // passphrases: chosen words, quoted
  add('quoted passphrase: export', (p) => `export GPG_PASSPHRASE="${p}"`, phrase());
  add('quoted passphrase: .env', (p) => `SSH_KEY_PASSPHRASE='${p}'`, phrase());
  add('quoted passphrase: YAML', (p) => `  signing_passphrase: "${p}"`, phrase());
  // Heroku's legacy API keys are UUIDs
  add('Heroku legacy key: env line', (k) => `HEROKU_API_KEY=${k}`, uuid());
  add('Heroku legacy key: .netrc', (k) => `machine api.heroku.com login dev@example.com password ${k}`, uuid());
  add('Heroku legacy key: prose', (k) => `my heroku api key is ${k}.`, uuid());
  add('Heroku legacy key: header', (k) => `curl -H "Authorization: Bearer ${k}" https://api.heroku.com/apps`, uuid());
  // Mapbox secret tokens: sk. + a short JSON payload in base64 + a signature
  const mapbox = () => `sk.eyJ1IjoiYWNtZSIsImEiOiJj${rnd(ALNUM, 20)}In0.${rnd(URLSAFE, 22)}`;
  add('Mapbox secret: env line', (t) => `MAPBOX_TOKEN=${t}`, mapbox());
  add('Mapbox secret: gradle.properties', (t) => `MAPBOX_DOWNLOADS_TOKEN=${t}`, mapbox());
  add('Mapbox secret: JavaScript', (t) => `mapboxgl.accessToken = '${t}';`, mapbox());
  // Twilio auth tokens: 32 hex characters
  add('Twilio auth token: env line', (t) => `TWILIO_AUTH_TOKEN=${t}`, pick(HEX, 32));
  add('Twilio auth token: JavaScript', (t) => `const authToken = '${t}';`, pick(HEX, 32));
  add(
    'Twilio auth token: curl -u',
    (t) => `curl -u AC${pick(HEX, 32)}:${t} https://api.twilio.com/2010-04-01/Accounts.json`,
    pick(HEX, 32),
  );
  add('Twilio auth token: prose', (t) => `The Twilio auth token is ${t}, rotate it after the demo`, pick(HEX, 32));
  // prose
  add(
    'prose: password for an environment',
    (p) => `The password for prod is ${p} because the old one leaked.`,
    chosen(),
  );
  add('prose: api key for a purpose', (k) => `the api key for billing is ${k} before the migration`, rnd(ALNUM, 32));
  add('prose: token with a colon', (k) => `Deploy token: ${k}`, rnd(URLSAFE, 40));
  // secret-named assignments with dotted values
  add('dotted value: API_KEY=sk.', (k) => `API_KEY=sk.${k}`, rnd(ALNUM, 32));
  add('dotted value: JSON', (k) => `{"secret": "live.${k}"}`, rnd(ALNUM, 28));
  return shapes;
}

/** Text that looks like the held-out forms and holds no secret: each must come out unchanged. */
export const HELDOUT_LOOK_ALIKES: string[] = [
  'The password for prod is stored in the vault because of the audit.',
  'the api key for billing is missing before the migration',
  'token = process.env.DISCORD_TOKEN',
  'export GPG_PASSPHRASE="$(pass show gpg)"',
  'password: "your-test-password"',
  'session 3c8e5f1a-9b2d-4e7f-a1c6-5d8e2f9b0a47 ended',
  'const password = formData.get("password") as string;',
  '5-11-change-password: done',
  'API_KEY=config.apiKey',
];
