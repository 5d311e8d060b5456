import type { RepoSpec, Step } from '../types';
import { bare, notPrescribed } from './negation';

// A pnpm/TypeScript storefront (Next.js, Prisma, vitest). The team's text says pnpm only, yet its playbook still
// says to install with npm: a contradiction the sessions' user settles.

const VITEST_OK =
  ' RUN  v2.1.4\n\n ✓ src/cart/total.test.ts (6 tests) 14ms\n ✓ src/cart/shipping.test.ts (5 tests) 9ms\n ✓ src/orders/date.test.ts (4 tests) 7ms\n ✓ src/checkout/checkout.spec.ts (9 tests) 412ms\n\n Test Files  14 passed (14)\n      Tests  87 passed (87)\n   Start at  10:02:11\n   Duration  2.31s';
const PRISMA_MISSING =
  " RUN  v2.1.4\n\n FAIL  src/cart/total.test.ts [ src/cart/total.test.ts ]\nError: Cannot find module '.prisma/client/default'\nRequire stack:\n- node_modules/@prisma/client/default.js\n ❯ src/db/client.ts:1:1\n\n Test Files  9 failed | 5 passed (14)\n      Tests  31 passed (31)\n ELIFECYCLE  Test failed. See above for more details.";
const GENERATED =
  '> web-shop@0.4.0 db:generate\n> prisma generate\n\nPrisma schema loaded from prisma/schema.prisma\n\n✔ Generated Prisma Client (v5.22.0) to ./node_modules/@prisma/client in 143ms';
const DATE_FAIL =
  " FAIL  src/orders/date.test.ts > orderDay > places an order at 23:30 UTC on that day\nAssertionError: expected '2026-11-04' to be '2026-11-05' // Object.is equality\n ❯ src/orders/date.test.ts:18:32\n\n Test Files  1 failed | 13 passed (14)\n      Tests  1 failed | 86 passed (87)\n ELIFECYCLE  Test failed. See above for more details.";
const NPM_FAIL =
  'npm error code EUNSUPPORTEDPROTOCOL\nnpm error Unsupported URL Type "workspace:": workspace:*\nnpm error A complete log of this run can be found in: /home/dev/.npm/_logs/2026-11-04T10_12_44_102Z-debug-0.log';
const LINT_GENERATED =
  "> web-shop@0.4.0 lint\n> eslint .\n\n/src/generated/prisma/index.d.ts\n     1:1  error  Definition for rule '@typescript-eslint/ban-types' was not found\n  4411:5  error  Unexpected any  @typescript-eslint/no-explicit-any\n\n✖ 4012 problems (4012 errors, 0 warnings)\n ELIFECYCLE  Command failed with exit code 1.";
const LINT_SRC_OK = '> web-shop@0.4.0 lint:src\n> eslint src --ignore-pattern src/generated\n';
const TYPECHECK_OK = '> web-shop@0.4.0 typecheck\n> tsc --noEmit -p tsconfig.json\n';
const ENV_MISSING =
  '> web-shop@0.4.0 dev\n> next dev\n\nError: Missing environment file .env.local (STRIPE_PUBLISHABLE_KEY, DATABASE_URL).\nRun `cp .env.example .env.local` first, then restart `pnpm dev`.';
const DEV_OK =
  '> web-shop@0.4.0 dev\n> next dev\n\n  ▲ Next.js 15.0.3\n  - Local:        http://localhost:3000\n\n ✓ Ready in 1.8s';
const FORMAT_FAIL = (file: string) =>
  `> web-shop@0.4.0 format:check\n> prettier --check .\n\nChecking formatting...\n[warn] ${file}\n[warn] Code style issues found in the above file. Run Prettier with --write to fix.`;
const FORMAT_OK =
  '> web-shop@0.4.0 format:check\n> prettier --check .\n\nChecking formatting...\nAll matched files use Prettier code style!';

const run = (command: string, out: string, code = 0): Step => ({ run: command, out, code });

export const webShop: RepoSpec = {
  name: 'web-shop',
  ecosystem: 'pnpm/TypeScript',
  agentsText: [
    '# web-shop',
    '',
    'Storefront and checkout API: TypeScript, Next.js 15, Prisma on Postgres, vitest.',
    '',
    '## Working here',
    '',
    '- Use pnpm for everything; never npm or yarn (the lockfile is `pnpm-lock.yaml`).',
    '- Keep pull requests small: one feature per branch, rebased on `main`.',
    '- Components live in `src/components/`, one per file, named like the file.',
    '',
  ].join('\n'),
  claudeText: ['# web-shop for Claude Code', '', 'Read AGENTS.md first: it has the project notes.', ''].join('\n'),
  files: {
    'package.json': JSON.stringify(
      {
        name: 'web-shop',
        version: '0.4.0',
        private: true,
        packageManager: 'pnpm@9.12.3',
        scripts: {
          dev: 'next dev',
          test: 'vitest run',
          typecheck: 'tsc --noEmit -p tsconfig.json',
          lint: 'eslint .',
          'lint:src': 'eslint src --ignore-pattern src/generated',
          format: 'prettier --write .',
          'format:check': 'prettier --check .',
          'db:generate': 'prisma generate',
        },
      },
      null,
      2,
    ),
    'src/lib/http.ts':
      "export async function apiFetch<T>(path: string, init?: RequestInit): Promise<T> {\n  const res = await fetch(`/api${path}`, { ...init, headers: { ...init?.headers, 'x-csrf': csrfToken() } });\n  if (!res.ok) throw new ApiError(res.status);\n  return res.json() as Promise<T>;\n}\n",
    'src/cart/total.ts':
      'export function cartTotalCents(lines: Line[], discountPct: number): number {\n  const gross = lines.reduce((sum, l) => sum + l.priceCents * l.qty, 0);\n  return Math.floor(gross * (1 - discountPct / 100));\n}\n',
    '.env.example': 'DATABASE_URL=postgres://localhost:5432/shop\nSTRIPE_PUBLISHABLE_KEY=pk_test_example\n',
  },
  teamRules: [
    {
      id: 'bat-00001',
      section: 'Build and test',
      content: 'Typecheck with `pnpm typecheck` before you push.',
      expected: 'helpful',
      label: 'shop-typecheck',
    },
    {
      id: 'bat-00002',
      section: 'Build and test',
      content: 'Install dependencies with `npm install`.',
      expected: 'harmful',
      label: 'shop-npm-install',
    },
    {
      id: 'bat-00003',
      section: 'Build and test',
      content: 'The root `pnpm lint` is broken (it lints the generated Prisma client); lint with `pnpm lint:src`.',
      expected: 'helpful',
      label: 'shop-lint-src',
    },
    {
      id: 'conv-00004',
      section: 'Conventions',
      content: 'Format with `pnpm format` after editing files.',
      expected: 'violated',
      label: 'shop-format',
    },
    {
      id: 'conv-00005',
      section: 'Conventions',
      content: 'Feature flags are read from `src/flags.ts`, never from `process.env` directly.',
      expected: 'untouched',
      label: 'shop-flags',
    },
  ],
  labels: [
    {
      id: 'shop-prereq',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Run `pnpm db:generate` before `pnpm test`: the tests import the generated Prisma client.',
      paraphrases: [
        'Generate the Prisma client with `pnpm db:generate` before running the tests.',
        '`pnpm test` fails with "Cannot find module \'.prisma/client/default\'" until `pnpm db:generate` has run.',
      ],
      match: { all: [/db:generate|prisma generate/i, /\btests?\b/i] },
    },
    {
      id: 'shop-tz',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Run the tests with `TZ=UTC pnpm test`: the order date tests assume UTC.',
      paraphrases: [
        'The date tests only pass in UTC: use `TZ=UTC pnpm test`.',
        'Set `TZ=UTC` when running `pnpm test` (src/orders/date.test.ts fails in other time zones).',
      ],
      match: { all: [/TZ=UTC/] },
    },
    {
      id: 'shop-apifetch',
      kind: 'lesson',
      section: 'Conventions',
      text: 'API calls go through `apiFetch` in `src/lib/http.ts`, never a raw `fetch`.',
      paraphrases: [
        'Use `apiFetch` from `src/lib/http.ts` for every API call instead of `fetch`.',
        'Never call `fetch` directly for the API: go through `apiFetch` (it adds the CSRF header).',
      ],
      match: { all: [/apiFetch/] },
    },
    {
      id: 'shop-env',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Before `pnpm dev`, create `.env.local` with `cp .env.example .env.local`.',
      paraphrases: [
        '`pnpm dev` needs `.env.local`: copy it from `.env.example` first.',
        'Run `cp .env.example .env.local` once before starting the dev server.',
      ],
      match: { all: [/\.env\.(local|example)/] },
    },
    {
      id: 'shop-pnpm-install',
      kind: 'lesson',
      section: 'Build and test',
      corrects: 'bat-00002',
      text: 'Install dependencies with `pnpm install`, not `npm install`.',
      paraphrases: [
        'This is a pnpm workspace: add and install packages with `pnpm install` / `pnpm add`, never npm.',
        '`npm install` fails on the `workspace:*` protocol; use `pnpm install`.',
      ],
      match: { all: [/pnpm (install|add|i)\b/] },
    },
    { id: 'shop-test', kind: 'fact', text: 'Run the tests with `pnpm test`.', match: { all: [/pnpm (run )?test\b/] } },
    {
      id: 'shop-typecheck',
      kind: 'fact',
      text: 'Typecheck with `pnpm typecheck`.',
      match: { all: [/pnpm typecheck/] },
    },
    { id: 'shop-lint-src', kind: 'fact', text: 'Lint with `pnpm lint:src`.', match: { all: [/lint:src/] } },
    {
      id: 'shop-format',
      kind: 'fact',
      text: 'Format with `pnpm format`.',
      match: { all: [/pnpm format\b|prettier/i] },
    },
    { id: 'shop-flags', kind: 'fact', text: 'Feature flags come from `src/flags.ts`.', match: { all: [/flags\.ts/] } },
    {
      id: 'shop-pnpm',
      kind: 'fact',
      text: 'Use pnpm for everything, never npm or yarn.',
      match: { all: [/pnpm/, /\b(never|not|only|always)\b/i] },
    },
    {
      id: 'shop-npm-install',
      kind: 'wrong',
      text: 'Install dependencies with `npm install`.',
      match: { all: [bare('npm (install|i|ci)\\b')], none: notPrescribed('npm') },
    },
    {
      id: 'shop-npm-test',
      kind: 'wrong',
      text: 'Run the tests with `npm test`.',
      match: { all: [bare('npm (run )?test\\b')], none: notPrescribed('npm') },
    },
  ],
  noise: [
    { id: 'test-file', match: { all: [/\S+\.test\.ts|\S+\.spec\.ts/] } },
    { id: 'typo', match: { all: [/pnmp/] } },
    { id: 'one-off-path', match: { all: [/src\/(cart|orders|checkout|account|email)\/\S+\.tsx?/] } },
    { id: 'flaky', match: { all: [/flak|re-?run|retry|timed out/i] } },
    { id: 'question', match: { all: [/\bcache\b/i] } },
    {
      id: 'task',
      match: { all: [/rounding|discount|coupon|reorder|ShippingZone|DeliveryZone|invoice|expected 1699/i] },
    },
  ],
  conflicts: [
    {
      id: 'npm-vs-pnpm',
      a: { all: [bare('npm (install|i|ci|test|run)\\b')], none: notPrescribed('npm') },
      b: { all: [/pnpm/, /\b(never|not|only)\b[^.;]*\bnpm\b|pnpm for everything/i] },
      why: 'a rule prescribes npm where the team and the user say pnpm only',
    },
  ],
  sessions: [
    {
      key: 'shop-01',
      agent: 'claude-code',
      day: 2,
      hour: 9,
      lessons: ['shop-prereq'],
      tags: { 'bat-00001': 'helpful' },
      steps: [
        { user: 'The cart total test fails after my discount change, can you fix the rounding?' },
        run('pnpm test', PRISMA_MISSING, 1),
        { say: 'The Prisma client is not generated in this checkout; generating it first.' },
        run('pnpm db:generate', GENERATED),
        run(
          'pnpm test',
          ' FAIL  src/cart/total.test.ts > cartTotalCents > applies a 15% discount\nAssertionError: expected 1699 to be 1700\n\n Test Files  1 failed | 13 passed (14)\n ELIFECYCLE  Test failed.',
          1,
        ),
        {
          read: 'src/cart/total.ts',
          out: 'export function cartTotalCents(lines: Line[], discountPct: number): number {\n  return Math.floor(gross * (1 - discountPct / 100));\n}',
        },
        { edit: 'src/cart/total.ts', old: 'Math.floor(gross', new: 'Math.round(gross' },
        run(
          'pnpm vitest run src/cart/total.test.ts',
          ' ✓ src/cart/total.test.ts (6 tests) 12ms\n\n Test Files  1 passed (1)',
        ),
        run('pnpm test', VITEST_OK),
        run('pnpm typecheck', TYPECHECK_OK),
        { say: 'Fixed: the discount is rounded to the nearest cent instead of floored.' },
        { user: 'thanks' },
      ],
    },
    {
      key: 'shop-02',
      agent: 'codex',
      day: 3,
      hour: 14,
      lessons: ['shop-prereq'],
      tags: {},
      steps: [
        { user: 'Add a unit test for free shipping on orders over 50 EUR.' },
        run('pnpm test', PRISMA_MISSING, 1),
        run('pnpm db:generate', GENERATED),
        {
          read: 'src/cart/shipping.ts',
          out: 'export const FREE_SHIPPING_CENTS = 5000;\nexport function shippingCents(totalCents: number): number {\n  return totalCents >= FREE_SHIPPING_CENTS ? 0 : 490;\n}',
        },
        {
          edit: 'src/cart/shipping.test.ts',
          old: "describe('shippingCents', () => {",
          new: "describe('shippingCents', () => {\n  it('is free from 50 EUR', () => expect(shippingCents(5000)).toBe(0));",
        },
        run(
          'pnpm vitest run src/cart/shipping.test.ts -t "is free from 50 EUR"',
          ' ✓ src/cart/shipping.test.ts (6 tests) 8ms\n\n Test Files  1 passed (1)',
        ),
        run('pnpm test', VITEST_OK),
        { say: 'Added the free-shipping test; the suite passes.' },
      ],
    },
    {
      key: 'shop-03',
      agent: 'claude-code',
      day: 4,
      hour: 10,
      lessons: ['shop-pnpm-install'],
      tags: { 'bat-00002': 'harmful', 'bat-00001': 'helpful' },
      steps: [
        { user: 'Add a coupon code field to the checkout form.' },
        { say: 'Installing dependencies first, as the playbook says.' },
        run('npm install', NPM_FAIL, 1),
        { user: 'No, this repo uses pnpm, not npm. Run pnpm install.' },
        run(
          'pnpm install',
          'Lockfile is up to date, resolution step is skipped\nPackages: +812\nProgress: resolved 812, reused 812, downloaded 0, added 812, done\nDone in 4.2s',
        ),
        {
          read: 'src/checkout/CheckoutForm.tsx',
          out: 'export function CheckoutForm() {\n  return (\n    <form onSubmit={submit}>\n      <AddressFields />\n    </form>\n  );\n}',
        },
        {
          edit: 'src/checkout/CheckoutForm.tsx',
          old: '<AddressFields />',
          new: '<AddressFields />\n      <CouponField />',
        },
        run('pnpm typecheck', TYPECHECK_OK),
        { say: 'Added the coupon field to the checkout form.' },
      ],
    },
    {
      key: 'shop-04',
      agent: 'codex',
      day: 5,
      hour: 11,
      lessons: ['shop-pnpm-install'],
      tags: { 'bat-00002': 'harmful', 'bat-00001': 'helpful' },
      steps: [
        { user: 'Upgrade zod to 3.24 and fix any type errors.' },
        run('npm install zod@3.24.1', NPM_FAIL, 1),
        { user: "Please don't use npm in this repo, it's a pnpm workspace. Use pnpm add / pnpm install." },
        run(
          'pnpm add zod@3.24.1',
          'Packages: +1 -1\nProgress: resolved 813, reused 812, downloaded 1, added 1, done\n\ndependencies:\n- zod 3.23.8\n+ zod 3.24.1\n\nDone in 3.1s',
        ),
        run('pnpm typecheck', TYPECHECK_OK),
        { say: 'zod is on 3.24.1 and the typecheck is clean.' },
      ],
    },
    {
      key: 'shop-05',
      agent: 'claude-code',
      day: 6,
      hour: 9,
      lessons: ['shop-tz'],
      tags: { 'bat-00003': 'helpful' },
      steps: [
        { user: 'Orders placed just before midnight show the wrong day in the order history. Please look.' },
        run('pnpm test', DATE_FAIL, 1),
        {
          read: 'src/orders/date.test.ts',
          out: "// fixtures are UTC timestamps: run with TZ=UTC\nit('places an order at 23:30 UTC on that day', () => {\n  expect(orderDay('2026-11-05T23:30:00Z')).toBe('2026-11-05');\n});",
        },
        { say: 'The date tests assume UTC and this machine is on Europe/Berlin; running them in UTC.' },
        run('TZ=UTC pnpm test', VITEST_OK),
        {
          edit: 'src/orders/format.ts',
          old: 'toLocaleDateString()',
          new: "toLocaleDateString('en-GB', { timeZone: order.timeZone })",
        },
        run('TZ=UTC pnpm test', VITEST_OK),
        run('pnpm lint', LINT_GENERATED, 1),
        run('pnpm lint:src', LINT_SRC_OK),
        { say: 'The order history now formats the day in the order’s own time zone.' },
      ],
    },
    {
      key: 'shop-06',
      agent: 'codex',
      day: 9,
      hour: 15,
      lessons: ['shop-tz'],
      tags: {},
      steps: [
        { user: 'Show the delivery date in the order confirmation email.' },
        run('pnmp test', 'bash: pnmp: command not found', 127),
        run('pnpm test', DATE_FAIL, 1),
        run('TZ=UTC pnpm test', VITEST_OK),
        {
          edit: 'src/email/confirmation.ts',
          old: '<p>Thanks for your order</p>',
          new: '<p>Thanks for your order</p>\n<p>Delivery: ${deliveryDay(order)}</p>',
        },
        run('TZ=UTC pnpm test', VITEST_OK),
        { say: 'The confirmation email shows the delivery date.' },
      ],
    },
    {
      key: 'shop-07',
      agent: 'claude-code',
      day: 10,
      hour: 10,
      lessons: ['shop-apifetch'],
      tags: { 'bat-00001': 'helpful', 'bat-00003': 'helpful' },
      steps: [
        {
          user: "Add a 'reorder' button to the order page. Remember: all API calls go through apiFetch in src/lib/http.ts, never call fetch directly.",
        },
        {
          read: 'src/lib/http.ts',
          out: 'export async function apiFetch<T>(path: string, init?: RequestInit): Promise<T> {',
        },
        {
          edit: 'src/orders/ReorderButton.tsx',
          old: '',
          new: "import { apiFetch } from '../lib/http';\nexport function ReorderButton({ id }: { id: string }) {\n  return <button onClick={() => apiFetch(`/orders/${id}/reorder`, { method: 'POST' })}>Reorder</button>;\n}",
        },
        run('pnpm typecheck', TYPECHECK_OK),
        run('pnpm lint:src', LINT_SRC_OK),
        { say: 'Added the Reorder button; it posts through apiFetch.' },
      ],
    },
    {
      key: 'shop-08',
      agent: 'codex',
      day: 11,
      hour: 13,
      lessons: ['shop-apifetch'],
      tags: { 'bat-00003': 'helpful' },
      steps: [
        { user: 'Load the saved addresses on the account page.' },
        {
          edit: 'src/account/addresses.ts',
          old: '',
          new: "export async function savedAddresses() {\n  const res = await fetch('/api/addresses');\n  return res.json();\n}",
        },
        {
          user: 'Please use apiFetch from src/lib/http.ts instead of fetch. Every API call goes through it, it adds the CSRF header and the retries.',
        },
        {
          edit: 'src/account/addresses.ts',
          old: "const res = await fetch('/api/addresses');\n  return res.json();",
          new: "return apiFetch<Address[]>('/addresses');",
        },
        run('pnpm lint', LINT_GENERATED, 1),
        run('pnpm lint:src', LINT_SRC_OK),
        { say: 'The account page loads the saved addresses through apiFetch.' },
      ],
    },
    {
      key: 'shop-09',
      agent: 'claude-code',
      day: 12,
      hour: 9,
      lessons: ['shop-env'],
      tags: {},
      steps: [
        { user: 'How does the cache work? The product page seems to show stale prices after an update.' },
        {
          read: 'src/products/cache.ts',
          out: 'export const productCache = new LRU<string, Product>({ max: 500, ttl: 60_000 });',
        },
        {
          say: 'Product pages are cached in an in-memory LRU for 60 seconds (src/products/cache.ts); a price update is visible after at most a minute. Let me start the dev server to check.',
        },
        run('pnpm dev', ENV_MISSING, 1),
        run('cp .env.example .env.local', ''),
        run('pnpm dev', DEV_OK),
        { say: 'The dev server runs; the prices refresh after the 60 s TTL as described.' },
      ],
    },
    {
      key: 'shop-10',
      agent: 'codex',
      day: 13,
      hour: 16,
      lessons: ['shop-env'],
      tags: { 'conv-00004': 'violated' },
      steps: [
        { user: "Add the 'Pay by bank transfer' option to checkout." },
        run('pnpm dev', ENV_MISSING, 1),
        run('cp .env.example .env.local', ''),
        run('pnpm dev', DEV_OK),
        {
          edit: 'src/checkout/PaymentOptions.tsx',
          old: '<Option value="card" />',
          new: '<Option value="card" />\n<Option value=\'bank-transfer\'  />',
        },
        run('pnpm format:check', FORMAT_FAIL('src/checkout/PaymentOptions.tsx'), 1),
        run('pnpm format', 'src/checkout/PaymentOptions.tsx 41ms'),
        run('pnpm format:check', FORMAT_OK),
        { say: 'Added bank transfer to the payment options.' },
      ],
    },
    {
      key: 'shop-11',
      agent: 'claude-code',
      day: 16,
      hour: 11,
      lessons: [],
      tags: { 'conv-00004': 'violated' },
      steps: [
        { user: 'Rename the ShippingZone type to DeliveryZone across the code.' },
        { edit: 'src/cart/zones.ts', old: 'export type ShippingZone =', new: 'export type DeliveryZone =' },
        run(
          'pnpm test',
          ' FAIL  src/checkout/checkout.spec.ts > submits the order\nError: Test timed out in 5000ms.\n\n Test Files  1 failed | 13 passed (14)\n ELIFECYCLE  Test failed.',
          1,
        ),
        run('pnpm test', VITEST_OK),
        run('pnpm format:check', FORMAT_FAIL('src/cart/zones.ts'), 1),
        run('pnpm format', 'src/cart/zones.ts 22ms'),
        run('pnpm format:check', FORMAT_OK),
        { say: 'Renamed ShippingZone to DeliveryZone everywhere.' },
        { user: 'thanks' },
      ],
    },
  ],
};
