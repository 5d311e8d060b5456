import { bare } from '../repos/negation';
import { notPrescribedHere } from './ruledOut';
import type { RepoSpec, Step } from '../types';

// A Deno command-line tool that checks the links of RSS and Atom feeds (JSR imports, deno.json tasks). Its playbook
// runs the CLI without the permissions it needs.

const TEST_OK =
  'running 6 tests from ./tests/parse_test.ts\nrunning 9 tests from ./tests/check_test.ts\nrunning 4 tests from ./tests/report_test.ts\n\nok | 19 passed | 0 failed (1s)';
const NO_FIXTURES =
  "running 9 tests from ./tests/check_test.ts\nchecks every link of an atom feed ... FAILED (4ms)\n\n ERRORS \n\nchecks every link of an atom feed => ./tests/check_test.ts:12:6\nerror: NotFound: No such file or directory (os error 2): readfile 'tests/fixtures/atom.xml'\n\nFAILED | 10 passed | 9 failed (212ms)";
const FIXTURES_OK = 'Task fixtures deno run --allow-write=tests/fixtures scripts/make_fixtures.ts\nwrote 5 feeds';
const RUN_DENIED =
  'error: Uncaught (in promise) NotCapable: Requires net access to "example.com:443", run again with the --allow-net flag\n    at mainFetch (ext:deno_fetch/26_fetch.js:170:43)';
const DEV_OK = (feed: string) =>
  `Task dev deno run --allow-net --allow-read=. main.ts "${feed}"\nchecked 42 links: 40 ok, 1 redirect, 1 broken\n  404 https://example.com/posts/2019/old-permalink`;
const LINT_VENDOR =
  'error[no-explicit-any]: `any` type is not allowed\n --> /srv/feedcheck/vendor/sax/mod.ts:88:21\n\nerror[no-var]: `var` keyword is not allowed.\n --> /srv/feedcheck/vendor/sax/mod.ts:140:3\n\nFound 61 problems\nChecked 23 files';
const LINT_OK = 'Checked 11 files';
const NO_PREFIX = 'error: @std/xml is missing a prefix. Did you mean `deno add jsr:@std/xml`?';
const ADDED = (pkg: string, version: string) => `Add jsr:${pkg}@${version}`;
const DOC_FAIL = 'error: --name is required when generating HTML documentation';
const DOC_OK = 'Written 14 files to "./docs/"';
const HOOK_FAIL =
  'pre-commit: deno fmt --check\n\nfrom /srv/feedcheck/src/report.ts:\n 12 | -  const width=Math.max(...rows.map(r=>r.url.length))\n 12 | +  const width = Math.max(...rows.map((r) => r.url.length));\n\nerror: Found 1 not formatted file in 11 files';
const FMT_OK = 'Checked 11 files';
const COMMIT_OK = (msg: string) =>
  `pre-commit: deno fmt --check\nChecked 11 files\n[main 2be91af] ${msg}\n 3 files changed, 44 insertions(+), 6 deletions(-)`;

const run = (command: string, out: string, code = 0): Step => ({ run: command, out, code });

export const feedcheck: RepoSpec = {
  name: 'feedcheck',
  ecosystem: 'Deno/TypeScript',
  agentsText: [
    '# feedcheck',
    '',
    'A Deno 2 command-line tool that checks every link of an RSS or Atom feed.',
    '',
    '- There is no npm and no node_modules: dependencies are JSR imports in `deno.json`.',
    '- The tasks live in `deno.json`; read it before inventing a command.',
    '- Keep the output stable: the report format is parsed by other tools.',
    '',
  ].join('\n'),
  files: {
    'deno.json':
      '{\n  "name": "@acme/feedcheck",\n  "version": "0.9.1",\n  "tasks": {\n    "dev": "deno run --allow-net --allow-read=. main.ts",\n    "test": "deno test --allow-read=tests --allow-net=127.0.0.1",\n    "fixtures": "deno run --allow-write=tests/fixtures scripts/make_fixtures.ts"\n  },\n  "imports": { "@std/assert": "jsr:@std/assert@^1.0.8" },\n  "exclude": ["docs/"]\n}\n',
    'main.ts': 'import { checkFeed } from "./src/check";\n\nawait checkFeed(Deno.args[0]);\n',
    'src/http.ts':
      'export async function fetchWithRetry(url: string, tries = 3): Promise<Response> {\n  return await fetch(url);\n}\n',
    '.githooks/pre-commit': '#!/bin/sh\ndeno fmt --check\n',
  },
  teamRules: [
    {
      id: 'bat-00001',
      section: 'Build and test',
      content: 'Run the tests with `deno task test`.',
      expected: 'helpful',
      label: 'feed-test',
    },
    {
      id: 'bat-00002',
      section: 'Build and test',
      content: 'Run the CLI with `deno run main.ts <feed-url>`.',
      expected: 'harmful',
      label: 'feed-deno-run',
    },
    {
      id: 'bat-00003',
      section: 'Build and test',
      content: '`deno lint` on the whole tree is broken by the vendored `vendor/` code; lint with `deno lint src`.',
      expected: 'helpful',
      label: 'feed-lint-src',
    },
    {
      id: 'conv-00004',
      section: 'Conventions',
      content: 'Run `deno fmt` before you commit.',
      expected: 'violated',
      label: 'feed-fmt',
    },
    {
      id: 'conv-00005',
      section: 'Conventions',
      content: 'Every HTTP request goes through `fetchWithRetry()` in `src/http.ts`.',
      expected: 'untouched',
      label: 'feed-fetch-retry',
    },
  ],
  labels: [
    {
      id: 'feed-fixtures',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Run `deno task fixtures` before `deno task test`: the tests read generated feed files.',
      paraphrases: [
        'Generate the test feeds with `deno task fixtures` before running the tests.',
        'If the tests fail with "No such file or directory" on a feed fixture, run `deno task fixtures` first.',
      ],
      match: { all: [/deno task fixtures/] },
    },
    {
      id: 'feed-jsr',
      kind: 'lesson',
      section: 'Pitfalls',
      text: 'Add dependencies with a `jsr:` prefix (`deno add jsr:@std/xml`); without it `deno add` refuses the package.',
      paraphrases: [
        '`deno add` needs the registry prefix: write `deno add jsr:@std/<name>`.',
        'Use `deno add jsr:<package>` when adding a JSR dependency.',
      ],
      match: { all: [/jsr:/] },
    },
    {
      id: 'feed-doc-name',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Generate the HTML docs with `deno doc --html --name=feedcheck src/mod.ts`; without `--name` it fails.',
      paraphrases: [
        '`deno doc --html` needs `--name=feedcheck` in this repository.',
        'Build the API docs with `deno doc --html --name=feedcheck src/mod.ts`.',
      ],
      match: { all: [/--name[= ]feedcheck/] },
    },
    {
      id: 'feed-changelog',
      kind: 'lesson',
      section: 'Conventions',
      text: 'Every user-visible change gets a line in `CHANGELOG.md` under "Unreleased".',
      paraphrases: [
        'Add an entry to the Unreleased section of `CHANGELOG.md` for each user-facing change.',
        'Record user-visible changes in `CHANGELOG.md` (Unreleased) as part of the change.',
      ],
      match: { all: [/CHANGELOG/] },
    },
    {
      id: 'feed-task-dev',
      kind: 'lesson',
      section: 'Build and test',
      corrects: 'bat-00002',
      text: 'Run the CLI with `deno task dev <feed-url>`, not `deno run main.ts`: the task grants the network and read permissions.',
      paraphrases: [
        'Start the tool with `deno task dev`, which passes the permissions it needs.',
        'Use `deno task dev <feed-url>` to run feedcheck locally.',
      ],
      match: { all: [/deno task dev/] },
    },
    { id: 'feed-test', kind: 'fact', text: 'Run the tests with `deno task test`.', match: { all: [/deno task test/] } },
    { id: 'feed-lint-src', kind: 'fact', text: 'Lint with `deno lint src`.', match: { all: [/deno lint src/] } },
    { id: 'feed-fmt', kind: 'fact', text: 'Run `deno fmt` before committing.', match: { all: [/deno fmt\b/] } },
    {
      id: 'feed-fetch-retry',
      kind: 'fact',
      text: 'HTTP requests go through `fetchWithRetry()`.',
      match: { all: [/fetchWithRetry/] },
    },
    {
      id: 'feed-no-npm',
      kind: 'fact',
      text: 'There is no npm here: dependencies are JSR imports in `deno.json`.',
      match: { all: [/\bnpm\b|node_modules|deno\.json/, /\b(no|never|not|only)\b/i] },
    },
    {
      id: 'feed-deno-run',
      kind: 'wrong',
      text: 'Run the CLI with `deno run main.ts`.',
      match: { all: [bare('deno run main\\.ts')], none: notPrescribedHere('deno run main\\.ts') },
    },
    {
      id: 'feed-skip-fmt',
      kind: 'wrong',
      text: 'Skip `deno fmt` before committing.',
      match: { all: [/\b(skip|no need|needn't|not needed)\b[^.;]*deno fmt|deno fmt[^.;]*\b(not needed|optional)\b/i] },
    },
  ],
  noise: [
    { id: 'test-file', match: { all: [/_test\.ts|--filter/] } },
    { id: 'typo', match: { all: [/dneo|tset/] } },
    { id: 'flaky', match: { all: [/flak|re-?run|\bretr(?:y|ied)\b|timed? ?out|ECONNRESET/i] } },
    { id: 'question', match: { all: [/redirect chain|how many redirects|slow/i] } },
    {
      id: 'task',
      match: { all: [/--json flag|CSV report|sitemap|relative links?|\b308\b|git commit -am|old-permalink/i] },
    },
  ],
  conflicts: [
    {
      id: 'deno-run-vs-task-dev',
      a: { all: [bare('deno run main\\.ts')], none: notPrescribedHere('deno run main\\.ts') },
      b: { all: [/deno task dev/] },
      why: 'two ways to run the CLI: without its permissions and the task the user insisted on',
    },
    {
      id: 'skip-fmt-vs-fmt',
      a: {
        all: [/\b(skip|no need|needn't|not needed)\b[^.;]*deno fmt|deno fmt[^.;]*\b(not needed|optional)\b/i],
      },
      b: { all: [/deno fmt\b/], none: [/\b(skip|no need|needn't|not needed|optional)\b/i] },
      why: 'a rule skips the formatting the team requires before every commit',
    },
  ],
  sessions: [
    {
      key: 'feed-01',
      agent: 'codex',
      day: 2,
      hour: 11,
      lessons: ['feed-fixtures'],
      tags: { 'bat-00001': 'helpful' },
      steps: [
        { user: 'Add a --json flag that prints the report as JSON.' },
        run('deno task test', NO_FIXTURES, 1),
        { say: 'The fixture feeds are generated, not committed; generating them.' },
        run('deno task fixtures', FIXTURES_OK),
        run('deno task test', TEST_OK),
        {
          edit: 'src/report.ts',
          old: 'export function render(rows: Row[]): string {',
          new: 'export function renderJson(rows: Row[]): string {\n  return JSON.stringify(rows, null, 2);\n}\n\nexport function render(rows: Row[]): string {',
        },
        run('deno test --allow-read=tests tests/report_test.ts', 'ok | 5 passed | 0 failed (31ms)'),
        run('deno task test', TEST_OK),
        { say: 'The report prints as JSON with --json.' },
      ],
    },
    {
      key: 'feed-02',
      agent: 'claude-code',
      day: 3,
      hour: 10,
      lessons: ['feed-fixtures'],
      tags: { 'bat-00001': 'helpful' },
      steps: [
        { user: 'Atom feeds with relative links are reported broken. They should resolve against the feed URL.' },
        run('deno task test', NO_FIXTURES, 1),
        run('deno task fixtures', FIXTURES_OK),
        run(
          'deno task test',
          'resolves relative links against the feed url ... FAILED (3ms)\nerror: AssertionError: Values are not equal.\n    -   /posts/1\n    +   https://example.com/posts/1\n\nFAILED | 18 passed | 1 failed (1s)',
          1,
        ),
        {
          edit: 'src/parse.ts',
          old: 'links.push(href);',
          new: 'links.push(new URL(href, feedUrl).href);',
        },
        run('deno task test', TEST_OK),
        { say: 'Relative links resolve against the feed URL now.' },
      ],
    },
    {
      key: 'feed-03',
      agent: 'claude-code',
      day: 4,
      hour: 15,
      lessons: ['feed-task-dev'],
      tags: { 'bat-00002': 'harmful' },
      steps: [
        { user: 'Run feedcheck on https://example.com/feed.xml and tell me which links are broken.' },
        run('deno run main.ts https://example.com/feed.xml', RUN_DENIED, 1),
        { user: 'Not like that, the permissions are in the task: use deno task dev.' },
        run('deno task dev https://example.com/feed.xml', DEV_OK('https://example.com/feed.xml')),
        { say: 'One link is broken: https://example.com/posts/2019/old-permalink returns 404.' },
      ],
    },
    {
      key: 'feed-04',
      agent: 'codex',
      day: 5,
      hour: 9,
      lessons: ['feed-task-dev'],
      tags: { 'bat-00002': 'harmful' },
      steps: [
        { user: 'How many redirects does https://example.com/atom.xml go through? Check it with the tool.' },
        run('deno run main.ts https://example.com/atom.xml', RUN_DENIED, 1),
        {
          user: 'deno run main.ts never has the permissions; run it with deno task dev https://example.com/atom.xml.',
        },
        run('deno task dev https://example.com/atom.xml', DEV_OK('https://example.com/atom.xml')),
        { say: 'One link redirects once (301 to https); there is no redirect chain longer than one.' },
      ],
    },
    {
      key: 'feed-05',
      agent: 'codex',
      day: 6,
      hour: 14,
      lessons: ['feed-jsr'],
      tags: { 'bat-00003': 'helpful' },
      steps: [
        { user: 'Parse feeds with @std/xml instead of the hand-written parser.' },
        run('deno add @std/xml', NO_PREFIX, 1),
        run('deno add jsr:@std/xml', ADDED('@std/xml', '0.1.0')),
        {
          edit: 'src/parse.ts',
          old: 'import { parse } from "../vendor/sax/mod";',
          new: 'import { parse } from "@std/xml";',
        },
        run('deno lint', LINT_VENDOR, 1),
        run('deno lint src', LINT_OK),
        { say: 'Feeds are parsed with @std/xml.' },
      ],
    },
    {
      key: 'feed-06',
      agent: 'claude-code',
      day: 9,
      hour: 11,
      lessons: ['feed-jsr'],
      tags: { 'bat-00003': 'helpful' },
      steps: [
        { user: 'Add a CSV report next to the text one, using @std/csv.' },
        run('deno add @std/csv', 'error: @std/csv is missing a prefix. Did you mean `deno add jsr:@std/csv`?', 1),
        { say: 'JSR packages need the jsr: prefix.' },
        run('deno add jsr:@std/csv', ADDED('@std/csv', '1.0.4')),
        {
          edit: 'src/report.ts',
          old: 'export function render(rows: Row[]): string {',
          new: 'export function renderCsv(rows: Row[]): string {\n  return stringify(rows, { columns: ["status", "url"] });\n}\n\nexport function render(rows: Row[]): string {',
        },
        run('deno lint', LINT_VENDOR, 1),
        run('deno lint src', LINT_OK),
        { say: 'The CSV report is available alongside the text one.' },
      ],
    },
    {
      key: 'feed-07',
      agent: 'codex',
      day: 10,
      hour: 10,
      lessons: ['feed-changelog'],
      tags: { 'conv-00004': 'violated' },
      steps: [
        {
          user: 'Follow sitemap.xml links too. Every user-visible change gets a line in CHANGELOG.md under Unreleased, so add one.',
        },
        {
          edit: 'src/check.ts',
          old: 'if (isFeed(body)) return parseFeed(body);',
          new: 'if (isSitemap(body)) return parseSitemap(body);\n  if (isFeed(body)) return parseFeed(body);',
        },
        { edit: 'CHANGELOG.md', old: '## Unreleased', new: '## Unreleased\n\n- Check the links of sitemap.xml files.' },
        run('git commit -am "Check sitemap links"', HOOK_FAIL, 1),
        run('deno fmt', FMT_OK),
        run('git commit -am "Check sitemap links"', COMMIT_OK('Check sitemap links')),
        { say: 'Sitemaps are followed; the changelog says so.' },
      ],
    },
    {
      key: 'feed-08',
      agent: 'claude-code',
      day: 11,
      hour: 15,
      lessons: ['feed-changelog'],
      tags: { 'conv-00004': 'violated', 'bat-00001': 'helpful' },
      steps: [
        { user: 'Show the HTTP status next to each broken link in the text report.' },
        {
          edit: 'src/report.ts',
          old: 'lines.push(`  ${row.url}`);',
          new: 'lines.push(`  ${row.status} ${row.url}`);',
        },
        run('deno task test', TEST_OK),
        run('git commit -am "Show status of broken links"', HOOK_FAIL, 1),
        {
          user: 'Users will notice this one, so it needs a CHANGELOG.md entry in the Unreleased section before you commit.',
        },
        {
          edit: 'CHANGELOG.md',
          old: '## Unreleased',
          new: '## Unreleased\n\n- The text report shows the HTTP status of each broken link.',
        },
        run('deno fmt', FMT_OK),
        run('git commit -am "Show status of broken links"', COMMIT_OK('Show status of broken links')),
        { say: 'The report shows the status and the change is in the changelog.' },
      ],
    },
    {
      key: 'feed-09',
      agent: 'codex',
      day: 12,
      hour: 13,
      lessons: ['feed-doc-name'],
      tags: {},
      steps: [
        { user: 'Generate the API docs so I can review the public functions.' },
        run('deno doc --html src/mod.ts', DOC_FAIL, 1),
        run('deno doc --html --name=feedcheck src/mod.ts', DOC_OK),
        { say: 'The HTML docs are in docs/.' },
      ],
    },
    {
      key: 'feed-10',
      agent: 'claude-code',
      day: 13,
      hour: 9,
      lessons: ['feed-doc-name'],
      tags: {},
      steps: [
        { user: 'Document checkFeed with an example and regenerate the docs.' },
        {
          edit: 'src/check.ts',
          old: 'export async function checkFeed(',
          new: '/**\n * Checks every link of a feed.\n *\n * @example\n * await checkFeed("https://example.com/feed.xml");\n */\nexport async function checkFeed(',
        },
        run('deno doc --html src/mod.ts', DOC_FAIL, 1),
        { say: 'HTML docs need a name for the package.' },
        run('deno doc --html --name=feedcheck src/mod.ts', DOC_OK),
        { say: 'checkFeed is documented with an example.' },
      ],
    },
    {
      key: 'feed-11',
      agent: 'codex',
      day: 16,
      hour: 10,
      lessons: [],
      tags: {},
      steps: [
        { user: 'Treat HTTP 308 as a redirect, not as broken.' },
        {
          edit: 'src/check.ts',
          old: 'const REDIRECTS = [301, 302, 307];',
          new: 'const REDIRECTS = [301, 302, 307, 308];',
        },
        run('dneo task test', 'bash: dneo: command not found', 127),
        run(
          'deno task test',
          'follows redirects ... FAILED (2s)\nerror: TypeError: error sending request: connection closed before message completed (ECONNRESET)\n\nFAILED | 18 passed | 1 failed (3s)',
          1,
        ),
        run('deno task test', TEST_OK),
        { say: '308 counts as a redirect now.' },
      ],
    },
  ],
};
