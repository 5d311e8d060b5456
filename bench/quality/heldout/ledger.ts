import { bare } from '../repos/negation';
import { notPrescribedHere } from './ruledOut';
import type { RepoSpec, Step } from '../types';

// A Ruby/bundler Rails bookkeeping app (RSpec, importmap, Tailwind). Its playbook starts the app the wrong way.

const RSPEC_OK =
  'Randomized with seed 40213\n\n.............................................................................\n\nFinished in 9.41 seconds (files took 2.02 seconds to load)\n214 examples, 0 failures\n\nRandomized with seed 40213';
const NO_SCHEMA =
  'An error occurred while loading ./spec/models/account_spec.rb.\nFailure/Error: ActiveRecord::Migration.maintain_test_schema!\n\nActiveRecord::StatementInvalid:\n  PG::UndefinedTable: ERROR:  relation "accounts" does not exist\n  LINE 8:  WHERE a.attrelid = \'"accounts"\'::regclass\n\nFinished in 0.00012 seconds (files took 1.9 seconds to load)\n0 examples, 0 failures, 38 errors occurred outside of examples';
const PREPARED = "Created database 'ledger_test'\nLoaded db/schema.rb into ledger_test";
const SERVER_UP =
  '=> Booting Puma\n=> Rails 7.2.2 application starting in development\n=> Run `bin/rails server --help` for more startup options\nPuma starting in single mode...\n* Listening on http://127.0.0.1:3000';
const NO_CSS =
  '<h1>ActionView::Template::Error</h1>\n<pre>The asset "tailwind.css" is not present in the asset pipeline.</pre>\n<p>app/views/layouts/application.html.erb:9</p>';
const DEV_UP =
  '16:02:11 web.1  | started with pid 5120\n16:02:11 css.1  | started with pid 5121\n16:02:12 css.1  | Rebuilding...\n16:02:12 css.1  | Done in 388ms.\n16:02:13 web.1  | * Listening on http://127.0.0.1:3000';
const DASHBOARD =
  '<title>Ledger</title>\n<link rel="stylesheet" href="/assets/tailwind-5e1c0a.css">\n<h1>Dashboard</h1>';
const PRECOMPILE_FAIL =
  'bin/rails aborted!\nExecJS::RuntimeUnavailable: Could not find a JavaScript runtime. See https://github.com/rails/execjs for a list of available runtimes.\n\nTasks: TOP => assets:precompile\n(See full trace by running task with --trace)';
const TAILWIND_OK = '\nRebuilding...\n\nDone in 412ms.';
const NO_YARN = 'bash: yarn: command not found';
const NO_NPM = 'bash: npm: command not found';
const PINNED = (pkg: string, version: string) =>
  `Pinning "${pkg}" to vendor/javascript/${pkg}.js via download from https://ga.jspm.io/npm:${pkg}@${version}/dist/${pkg}.js`;
const MIGRATED = (name: string) =>
  `== 20261110091500 ${name}: migrating ==========================\n-- change_table(:accounts)\n   -> 0.0042s\n== 20261110091500 ${name}: migrated (0.0043s) =================`;
const ANNOTATED = 'Annotated (2): app/models/account.rb, spec/factories/accounts.rb';
const HOOK_FAIL =
  'Lefthook v1.7.18\nRUNNING HOOK: pre-commit\n┃  rubocop ❯\n\nInspecting 2 files\nC.\n\nOffenses:\n\napp/models/account.rb:14:11: C: [Correctable] Style/StringLiterals: Prefer double-quoted strings unless you need single quotes to avoid extra backslashes for escaping.\n\n2 files inspected, 1 offense detected, 1 offense autocorrectable\n\n  ✘ rubocop';
const RUBOCOP_FIX =
  'Inspecting 187 files\n.................................................C.........\n\n187 files inspected, 1 offense detected, 1 offense corrected';
const COMMIT_OK = (msg: string) =>
  `Lefthook v1.7.18\nRUNNING HOOK: pre-commit\n┃  rubocop ❯\n  ✔️ rubocop\n[main 7a3f0c2] ${msg}\n 3 files changed, 21 insertions(+), 2 deletions(-)`;
const NO_EDITOR =
  'No $EDITOR to open file in. Assign one like this:\n\nEDITOR="mate --wait" bin/rails credentials:edit\n\nFor editors that fork and exit immediately, it\'s important to pass a wait flag;\notherwise, the credentials will be saved immediately with no chance to edit.';
const CREDENTIALS_SAVED = 'File encrypted and saved.';

const run = (command: string, out: string, code = 0): Step => ({ run: command, out, code });

export const ledger: RepoSpec = {
  name: 'ledger',
  ecosystem: 'bundler/Ruby',
  agentsText: [
    '# ledger',
    '',
    'Double-entry bookkeeping app: Rails 7.2, Ruby 3.3, Postgres, Hotwire.',
    '',
    '- Run Ruby tools through `bundle exec`; never `gem install` into the system Ruby.',
    '- Prefer request specs over controller specs.',
    '- Never edit `db/schema.rb` by hand; it is written by the migrations.',
    '',
  ].join('\n'),
  files: {
    Gemfile:
      'source "https://rubygems.org"\n\ngem "rails", "~> 7.2.2"\ngem "pg", "~> 1.5"\ngem "puma", ">= 6.4"\ngem "importmap-rails"\ngem "tailwindcss-rails"\ngem "money-rails", "~> 1.15"\n\ngroup :development, :test do\n  gem "rspec-rails", "~> 7.0"\n  gem "rubocop-rails-omakase", require: false\n  gem "annotaterb"\nend\n',
    Procfile: 'web: bin/rails server\ncss: bin/rails tailwindcss:watch\n',
    'bin/dev': '#!/usr/bin/env sh\nexec foreman start -f Procfile "$@"\n',
    'config/importmap.rb': 'pin "application"\npin "@hotwired/turbo-rails", to: "turbo.min.js"\n',
    'lefthook.yml': 'pre-commit:\n  commands:\n    rubocop:\n      run: bundle exec rubocop {staged_files}\n',
  },
  teamRules: [
    {
      id: 'bat-00001',
      section: 'Build and test',
      content: 'Run the specs with `bundle exec rspec`.',
      expected: 'helpful',
      label: 'ledger-rspec',
    },
    {
      id: 'bat-00002',
      section: 'Build and test',
      content: 'Start the app with `bin/rails server`.',
      expected: 'harmful',
      label: 'ledger-rails-server',
    },
    {
      id: 'bat-00003',
      section: 'Build and test',
      content:
        '`bin/rails assets:precompile` is broken without a JavaScript runtime; build the CSS with `bin/rails tailwindcss:build`.',
      expected: 'helpful',
      label: 'ledger-tailwind',
    },
    {
      id: 'conv-00004',
      section: 'Conventions',
      content: 'Run `bundle exec rubocop -a` before you commit.',
      expected: 'violated',
      label: 'ledger-rubocop',
    },
    {
      id: 'conv-00005',
      section: 'Conventions',
      content: 'Build money amounts with `Money.from_cents`; never with a Float.',
      expected: 'untouched',
      label: 'ledger-money',
    },
  ],
  labels: [
    {
      id: 'ledger-test-prepare',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Run `bin/rails db:test:prepare` before `bundle exec rspec`: the specs need the test schema loaded.',
      paraphrases: [
        'Load the test schema with `bin/rails db:test:prepare` before running the specs.',
        'When the specs fail with `relation "accounts" does not exist`, run `bin/rails db:test:prepare` first.',
      ],
      match: { all: [/db:test:prepare/] },
    },
    {
      id: 'ledger-importmap',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Add JavaScript packages with `bin/importmap pin <package>`: the app has no Node toolchain (no yarn, no npm).',
      paraphrases: [
        'JavaScript dependencies are pinned with `bin/importmap pin`, since neither yarn nor npm is installed.',
        'Use `bin/importmap pin <package>` to add a JS library to the app.',
      ],
      match: { all: [/importmap pin/] },
    },
    {
      id: 'ledger-annotate',
      kind: 'lesson',
      section: 'Conventions',
      text: 'Always run `bundle exec annotaterb models` after a migration so the schema comments in the models stay current.',
      paraphrases: [
        'After every migration, refresh the model schema comments with `bundle exec annotaterb models`.',
        'Model header comments must match the schema: run `bundle exec annotaterb models` once a migration has run.',
      ],
      match: { all: [/annotaterb/] },
    },
    {
      id: 'ledger-editor',
      kind: 'lesson',
      section: 'Pitfalls',
      text: 'Set `EDITOR` when editing credentials (`EDITOR=vim bin/rails credentials:edit`): without it the command refuses to open the file.',
      paraphrases: [
        '`bin/rails credentials:edit` needs an editor: prefix it with `EDITOR=nano`.',
        'If `bin/rails credentials:edit` says "No $EDITOR to open file in", set EDITOR for the command.',
      ],
      match: { all: [/\$?EDITOR\b/, /credentials/] },
    },
    {
      id: 'ledger-bin-dev',
      kind: 'lesson',
      section: 'Build and test',
      corrects: 'bat-00002',
      text: 'Start the app with `bin/dev`, not `bin/rails server`: it also runs the Tailwind watcher the layout needs.',
      paraphrases: [
        'Run the app locally with `bin/dev` (foreman starts the web server and the CSS watcher).',
        'Use `bin/dev` to start the app; the stylesheet is missing otherwise.',
      ],
      match: { all: [/bin\/dev\b/] },
    },
    { id: 'ledger-rspec', kind: 'fact', text: 'Run the specs with `bundle exec rspec`.', match: { all: [/rspec/] } },
    {
      id: 'ledger-tailwind',
      kind: 'fact',
      text: 'Build the CSS with `bin/rails tailwindcss:build`.',
      match: { all: [/tailwindcss:build/] },
    },
    {
      id: 'ledger-rubocop',
      kind: 'fact',
      text: 'Run `bundle exec rubocop -a` before committing.',
      match: { all: [/rubocop/] },
    },
    {
      id: 'ledger-money',
      kind: 'fact',
      text: 'Money amounts are built with `Money.from_cents`.',
      match: { all: [/Money\.from_cents/] },
    },
    {
      id: 'ledger-bundle',
      kind: 'fact',
      text: 'Run Ruby tools through `bundle exec`, never a system gem install.',
      match: { all: [/bundle exec|bundler/, /\b(never|not|only|always|through)\b/i] },
    },
    {
      id: 'ledger-rails-server',
      kind: 'wrong',
      text: 'Start the app with `bin/rails server`.',
      match: {
        all: [bare('(?:bin/)?rails (?:server|s)\\b')],
        none: notPrescribedHere('(?:bin/)?rails (?:server|s)\\b'),
      },
    },
    {
      id: 'ledger-gem-install',
      kind: 'wrong',
      text: 'Install gems with `gem install`.',
      match: { all: [bare('gem install')], none: notPrescribedHere('gem install') },
    },
  ],
  noise: [
    { id: 'test-file', match: { all: [/_spec\.rb|spec\/(models|requests|system|reports)\//] } },
    { id: 'typo', match: { all: [/rpsec|bundel/] } },
    { id: 'flaky', match: { all: [/flak|re-?run|retry|timed? ?out|ElementNotFound/i] } },
    { id: 'question', match: { all: [/N\+1|slow|includes\(:entries\)/i] } },
    {
      id: 'task',
      match: { all: [/trial balance|reversed entr|chart\.js|flatpickr|memo|Stripe|Postmark|CSV|git commit -m/i] },
    },
  ],
  conflicts: [
    {
      id: 'rails-server-vs-bin-dev',
      a: { all: [bare('(?:bin/)?rails (?:server|s)\\b')], none: notPrescribedHere('(?:bin/)?rails (?:server|s)\\b') },
      b: { all: [/bin\/dev\b/] },
      why: 'two ways to start the app: the one that renders without its stylesheet and the one the user insisted on',
    },
    {
      id: 'gem-vs-bundler',
      a: { all: [bare('gem install')], none: notPrescribedHere('gem install') },
      b: { all: [/\b(never|not|don't|do not)\b[^.;]*\bgem install\b/i] },
      why: 'a rule installs gems into the system Ruby where the team forbids it',
    },
  ],
  sessions: [
    {
      key: 'ledger-01',
      agent: 'codex',
      day: 2,
      hour: 10,
      lessons: ['ledger-test-prepare'],
      tags: { 'bat-00001': 'helpful' },
      steps: [
        { user: 'Add a trial balance report: debits and credits per account for a date range.' },
        run('bundle exec rspec', NO_SCHEMA, 1),
        { say: 'The test database has no schema yet; loading it.' },
        run('bin/rails db:test:prepare', PREPARED),
        run('bundle exec rspec', RSPEC_OK),
        {
          edit: 'app/models/trial_balance.rb',
          old: '',
          new: 'class TrialBalance\n  def initialize(range) = @range = range\n\n  def rows\n    Account.joins(:entries).where(entries: { booked_on: @range }).group(:id).sum(:amount_cents)\n  end\nend',
        },
        run('bundle exec rspec spec/reports/trial_balance_spec.rb', '3 examples, 0 failures'),
        run('bundle exec rspec', RSPEC_OK),
        { say: 'The trial balance report sums debits and credits per account over the range.' },
      ],
    },
    {
      key: 'ledger-02',
      agent: 'claude-code',
      day: 3,
      hour: 9,
      lessons: ['ledger-test-prepare'],
      tags: { 'bat-00001': 'helpful' },
      steps: [
        { user: 'The monthly close double-counts reversed entries. Can you find out why?' },
        {
          read: 'app/models/entry.rb',
          out: 'class Entry < ApplicationRecord\n  scope :posted, -> { where.not(posted_at: nil) }\nend',
        },
        run('bundle exec rspec', NO_SCHEMA, 1),
        { say: 'No schema in the test database: `bin/rails db:test:prepare` loads it.' },
        run('bin/rails db:test:prepare', PREPARED),
        run(
          'bundle exec rspec',
          'Failures:\n\n  1) MonthlyClose excludes reversed entries\n     Failure/Error: expect(close.total_cents).to eq(12_000)\n       expected: 12000\n            got: 24000\n\n214 examples, 1 failure',
          1,
        ),
        {
          edit: 'app/models/entry.rb',
          old: 'scope :posted, -> { where.not(posted_at: nil) }',
          new: 'scope :posted, -> { where.not(posted_at: nil).where(reversed_by_id: nil) }',
        },
        run('bundle exec rspec', RSPEC_OK),
        { say: 'Reversed entries are left out of the posted scope now; the close total is right.' },
      ],
    },
    {
      key: 'ledger-03',
      agent: 'claude-code',
      day: 4,
      hour: 14,
      lessons: ['ledger-bin-dev'],
      tags: { 'bat-00002': 'harmful' },
      steps: [
        { user: 'Start the app and check that the dashboard shows the new balance widget.' },
        run('bin/rails server -d', SERVER_UP),
        run('curl -s localhost:3000/dashboard', NO_CSS, 22),
        { user: "We don't start it with rails server: bin/dev runs the CSS watcher too. Use bin/dev." },
        run('bin/dev', DEV_UP),
        run('curl -s localhost:3000/dashboard', DASHBOARD),
        { say: 'The dashboard renders with its stylesheet and shows the balance widget.' },
      ],
    },
    {
      key: 'ledger-04',
      agent: 'codex',
      day: 5,
      hour: 15,
      lessons: ['ledger-bin-dev'],
      tags: { 'bat-00002': 'harmful' },
      steps: [
        { user: 'Is the accounts page slow because of an N+1 query? Start the app and look at the log.' },
        run('bin/rails server', SERVER_UP),
        run('curl -s localhost:3000/accounts', NO_CSS, 22),
        {
          user: 'bin/rails server never works for the UI here, the stylesheet is built by bin/dev. Start it with bin/dev.',
        },
        run('bin/dev', DEV_UP),
        run(
          'curl -s -o /dev/null localhost:3000/accounts && tail -n 3 log/development.log',
          '  Entry Load (0.4ms)  SELECT "entries".* FROM "entries" WHERE "entries"."account_id" = $1\n  Entry Load (0.3ms)  SELECT "entries".* FROM "entries" WHERE "entries"."account_id" = $1\nCompleted 200 OK in 912ms',
        ),
        { say: 'Yes: each account loads its entries separately. `includes(:entries)` in the controller would fix it.' },
      ],
    },
    {
      key: 'ledger-05',
      agent: 'codex',
      day: 6,
      hour: 11,
      lessons: ['ledger-importmap'],
      tags: { 'bat-00003': 'helpful' },
      steps: [
        { user: 'Add a chart of monthly balances to the account page, with chart.js.' },
        run('yarn add chart.js', NO_YARN, 127),
        { say: 'There is no Node toolchain here; the app uses importmap.' },
        run('bin/importmap pin chart.js', PINNED('chart.js', '4.4.6')),
        {
          edit: 'app/javascript/controllers/balance_chart_controller.js',
          old: '',
          new: 'import { Controller } from "@hotwired/stimulus"\nimport Chart from "chart.js"\n\nexport default class extends Controller {\n  connect() { new Chart(this.element, JSON.parse(this.element.dataset.chart)) }\n}',
        },
        run('bin/rails assets:precompile', PRECOMPILE_FAIL, 1),
        run('bin/rails tailwindcss:build', TAILWIND_OK),
        { say: 'The account page draws monthly balances with chart.js.' },
      ],
    },
    {
      key: 'ledger-06',
      agent: 'claude-code',
      day: 9,
      hour: 10,
      lessons: ['ledger-importmap'],
      tags: { 'bat-00003': 'helpful' },
      steps: [
        { user: 'Use flatpickr for the booking date field.' },
        run('npm install flatpickr', NO_NPM, 127),
        { read: 'config/importmap.rb', out: 'pin "application"\npin "@hotwired/turbo-rails", to: "turbo.min.js"' },
        run('bin/importmap pin flatpickr', PINNED('flatpickr', '4.6.13')),
        {
          edit: 'app/views/entries/_form.html.erb',
          old: '<%= f.date_field :booked_on %>',
          new: '<%= f.text_field :booked_on, data: { controller: "flatpickr" } %>',
        },
        run('bin/rails assets:precompile', PRECOMPILE_FAIL, 1),
        run('bin/rails tailwindcss:build', TAILWIND_OK),
        { say: 'The booking date uses flatpickr, pinned through importmap.' },
      ],
    },
    {
      key: 'ledger-07',
      agent: 'codex',
      day: 10,
      hour: 9,
      lessons: ['ledger-annotate'],
      tags: { 'conv-00004': 'violated' },
      steps: [
        {
          user: 'Add a memo column to accounts. Always run bundle exec annotaterb models after a migration so the schema comments in the models stay current.',
        },
        run(
          'bin/rails generate migration AddMemoToAccounts memo:text',
          '      invoke  active_record\n      create    db/migrate/20261110091500_add_memo_to_accounts.rb',
        ),
        run('bin/rails db:migrate', MIGRATED('AddMemoToAccounts')),
        run('bundle exec annotaterb models', ANNOTATED),
        run('git commit -m "Add memo to accounts"', HOOK_FAIL, 1),
        run('bundle exec rubocop -a', RUBOCOP_FIX),
        run('git commit -m "Add memo to accounts"', COMMIT_OK('Add memo to accounts')),
        { say: 'Accounts have a memo column; the model annotations are refreshed.' },
      ],
    },
    {
      key: 'ledger-08',
      agent: 'claude-code',
      day: 11,
      hour: 16,
      lessons: ['ledger-annotate'],
      tags: { 'conv-00004': 'violated', 'bat-00001': 'helpful' },
      steps: [
        { user: 'Rename accounts.code to accounts.number.' },
        {
          edit: 'db/migrate/20261111160000_rename_code_to_number.rb',
          old: '',
          new: 'class RenameCodeToNumber < ActiveRecord::Migration[7.2]\n  def change\n    rename_column :accounts, :code, :number\n  end\nend',
        },
        run('bin/rails db:migrate', MIGRATED('RenameCodeToNumber')),
        run('bundle exec rspec', RSPEC_OK),
        run('git commit -m "Rename code to number"', HOOK_FAIL, 1),
        {
          user: 'Wait, you skipped a step: whenever a migration runs, regenerate the model headers with bundle exec annotaterb models.',
        },
        run('bundle exec annotaterb models', ANNOTATED),
        run('bundle exec rubocop -a', RUBOCOP_FIX),
        run('git commit -m "Rename code to number"', COMMIT_OK('Rename code to number')),
        { say: 'Renamed the column and committed it with refreshed annotations.' },
      ],
    },
    {
      key: 'ledger-09',
      agent: 'codex',
      day: 12,
      hour: 14,
      lessons: ['ledger-editor'],
      tags: {},
      steps: [
        { user: 'Add the Stripe webhook secret to the development credentials.' },
        run('bin/rails credentials:edit', NO_EDITOR, 1),
        run('EDITOR=vim bin/rails credentials:edit', CREDENTIALS_SAVED),
        { say: 'The webhook secret is in the development credentials.' },
      ],
    },
    {
      key: 'ledger-10',
      agent: 'claude-code',
      day: 13,
      hour: 10,
      lessons: ['ledger-editor'],
      tags: {},
      steps: [
        { user: 'Rotate the Postmark API token in the production credentials; the new one is in 1Password.' },
        run('bin/rails credentials:edit --environment production', NO_EDITOR, 1),
        { say: 'The credentials editor needs EDITOR set.' },
        run('EDITOR=nano bin/rails credentials:edit --environment production', CREDENTIALS_SAVED),
        run('bin/rails runner "puts Rails.application.credentials.postmark_token.present?"', 'true'),
        { say: 'The production credentials hold the new token.' },
      ],
    },
    {
      key: 'ledger-11',
      agent: 'codex',
      day: 16,
      hour: 9,
      lessons: [],
      tags: {},
      steps: [
        { user: 'Add the account number to the CSV export.' },
        {
          edit: 'app/exports/accounts_csv.rb',
          old: 'HEADERS = %w[name balance]',
          new: 'HEADERS = %w[number name balance]',
        },
        run(
          'bundle exec rpsec',
          'bundler: command not found: rpsec\nInstall missing gem executables with `bundle install`',
          127,
        ),
        run(
          'bundle exec rspec',
          'Failures:\n\n  1) Account export downloads the CSV\n     Failure/Error: click_on "Export"\n     Capybara::ElementNotFound: Unable to find link or button "Export" (timed out after 2s)\n\n214 examples, 1 failure',
          1,
        ),
        run('bundle exec rspec', RSPEC_OK),
        { say: 'The CSV export has the account number first.' },
      ],
    },
  ],
};
