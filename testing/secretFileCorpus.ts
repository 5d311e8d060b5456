import { seededRandom } from '../src/core/learn/random';

/**
 * Secret-bearing files for the redaction tests and the secret benchmark: bare values with no secret-sounding name
 * and no provider prefix, which only the file's name marks as secrets, next to look-alikes that must be kept. Random
 * parts are generated at run time from a seed, so the repository holds no real-looking secret.
 */

export interface SecretFile {
  path: string;
  content: string;
  /** Random parts of the secrets: no 8-character piece may survive. */
  needles: string[];
  /** Text of the file that must arrive unchanged. */
  keep: string[];
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const BASE64 = `${ALNUM}+/`;

export function buildSecretFiles(seed = 20261204): SecretFile[] {
  const random = seededRandom(seed);
  const pick = (alphabet: string, n: number) => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(random() * alphabet.length)];
    return s;
  };
  // a letter first and last, and an upper-case letter and a digit inside: random, not a word by chance
  const rnd = (alphabet: string, n: number) => `${pick('ABCDEFGHJK', 1)}${pick(alphabet, n - 4)}7Q${pick('mnpqrs', 1)}`;
  const files: SecretFile[] = [];
  const lookAlikes = [
    'NODE_ENV=production',
    'PORT=3000',
    'DB_HOST=db.internal.example.com',
    'GIT_SHA=9fceb02d0ae598e95dc970b74767f19372d61af8',
    'CLIENT_ID=50a7220d-7250-46f3-b38e-b716ce25032e',
    'TOKENIZER=cl100k_base',
    'APP_NAME=MyShopBackend',
    'RELEASE=2.10.0-beta.1',
    'API_URL=https://shop.example.com/api',
    'CHECKSUM=sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'ROTATED_AT=2026-11-20T09:00:00.123Z',
    'OWNER=alice.smith@example.com',
    'SECRET_REF=projects/1234/secrets/db-password/versions/latest',
    // base64 of an ordinary sentence
    `MOTD=${Buffer.from('Welcome to the staging shop, please be nice').toString('base64')}`,
  ];
  {
    const [a, b, c] = [rnd(ALNUM, 32), rnd(HEX, 64), rnd(BASE64, 44)];
    files.push({
      path: '.env.production',
      content: ['# production', ...lookAlikes, `STRIPE=${a}`, `SESSION_SIGNING=${b}`, `UPSTREAM="${c}"`].join('\n'),
      needles: [a, b, c],
      keep: lookAlikes,
    });
  }
  {
    const a = rnd(ALNUM, 20);
    const keep = ['host db.internal', 'user deploy'];
    files.push({
      path: '/home/dev/.config/app/credentials',
      content: `[default]\nhost db.internal\nuser deploy\nvalue ${a}\n`,
      needles: [a],
      keep,
    });
  }
  {
    const a = rnd(ALNUM, 16);
    files.push({
      path: '~/.pgpass',
      content: `db.internal:5432:shop:app:${a}\n`,
      needles: [a],
      keep: ['db.internal:5432:shop:app:'],
    });
  }
  {
    const a = rnd(ALNUM, 18);
    files.push({
      path: '~/.netrc',
      content: `machine git.example.com\n  login deploy\n  password ${a}\n`,
      needles: [a],
      keep: ['machine git.example.com', 'login deploy'],
    });
  }
  {
    const a = rnd(ALNUM, 36);
    const keep = ['registry=https://registry.example.com/', 'always-auth=true'];
    files.push({
      path: 'frontend/.npmrc',
      content: `${keep[0]}\n${keep[1]}\n//registry.example.com/:_authToken=${a}\n`,
      needles: [a],
      keep,
    });
  }
  {
    const lines = [rnd(BASE64, 70), rnd(BASE64, 70), rnd(BASE64, 40)];
    files.push({
      path: 'deploy/id_ed25519',
      // the body alone, its armour lines cut away
      content: `${lines.join('\n')}\n`,
      needles: lines,
      keep: [],
    });
  }
  {
    const a = rnd(ALNUM, 40);
    files.push({
      path: 'config/secrets.yml',
      content: `production:\n  region: eu-west-1\n  upstream: ${a}\n  commit: 9fceb02d0ae598e95dc970b74767f19372d61af8\n`,
      needles: [a],
      keep: ['region: eu-west-1', 'commit: 9fceb02d0ae598e95dc970b74767f19372d61af8'],
    });
  }
  {
    const a = rnd(ALNUM, 24);
    files.push({
      path: 'certs/server.pem',
      content: `# issued by ops\nexpires: 2027-01-01\nbundle: ${a}\n`,
      needles: [a],
      keep: ['expires: 2027-01-01'],
    });
  }
  {
    const a = rnd(ALNUM, 30);
    files.push({
      path: 'token.json',
      content: JSON.stringify({ scope: 'read-only', value: a, issued: '2026-11-20' }, null, 2),
      needles: [a],
      keep: ['"scope": "read-only"', '"issued": "2026-11-20"'],
    });
  }
  return files;
}

/** Files whose names look secret-bearing but are not (source code, docs, a public key): values are kept. */
export const NOT_SECRET_FILES: Array<{ path: string; content: string }> = [
  { path: 'src/tokenizer.ts', content: 'const table = "Xk29fLq8ZpW3vRt7aaQ1bCdEfGh";' },
  { path: 'docs/secrets.md', content: 'Rotate with `vault write` (id Xk29fLq8ZpW3vRt7aaQ1bCdEfGh).' },
  {
    path: '~/.ssh/id_ed25519.pub',
    content: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIXk29fLq8ZpW3vRt7aaQ1bCdEfGh dev@laptop',
  },
  {
    path: 'package-lock.json',
    content: '"integrity": "sha512-Xk29fLq8ZpW3vRt7aaQ1bCdEfGhXk29fLq8ZpW3vRt7aaQ1bCdEfGh=="',
  },
];
