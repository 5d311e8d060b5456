import { bare } from '../repos/negation';
import { notPrescribedHere } from './ruledOut';
import type { RepoSpec, Step } from '../types';

// An Elixir/mix Phoenix app that tracks parcel deliveries (Ecto, Oban, Swoosh, ExCoveralls). Its playbook starts the
// server a way that never serves the endpoint.

const TEST_OK =
  'Running ExUnit with seed: 518220, max_cases: 4\n\n.......................................................................\nFinished in 3.2 seconds (1.1s async, 2.1s sync)\n126 tests, 0 failures';
const NO_SMTP =
  'Running ExUnit with seed: 9021, max_cases: 4\n\n  1) test out-for-delivery email is sent (Courier.NotifierTest)\n     ** (MatchError) no match of right hand side value: {:error, {:failed_to_connect, %{"localhost:1025" => :econnrefused}}}\n     stacktrace:\n       lib/courier/notifier.ex:31: Courier.Notifier.deliver/1\n\nFinished in 2.9 seconds\n126 tests, 14 failures';
const MAILPIT_UP = ' ✔ Container courier-mailpit-1  Started';
const MIX_RUN = 'Compiling 4 files (.ex)\nGenerated courier app';
const NOT_SERVING = "curl: (7) Failed to connect to localhost port 4000 after 0 ms: Couldn't connect to server";
const PHX_UP =
  '[info] Running CourierWeb.Endpoint with Bandit 1.5.7 at 127.0.0.1:4000 (http)\n[info] Access CourierWeb.Endpoint at http://localhost:4000\n[watch] build finished, watching for changes...';
const COVER_FAIL =
  '** (UndefinedFunctionError) function ExCoveralls.start/2 is undefined (module ExCoveralls is not available)\n    ExCoveralls.start("/srv/courier/_build/test/lib/courier/ebin", [])\n    (mix 1.17.3) lib/mix/tasks/test.ex:584: Mix.Tasks.Test.do_run/3';
const COVERALLS_OK = (pct: string) =>
  `Finished in 3.4 seconds\n126 tests, 0 failures\n----------------\nCOV    FILE                                        LINES RELEVANT   MISSED\n 91.3% lib/courier/tracking.ex                       212       46        4\n ${pct} lib/courier/notifier.ex                        88       24        ?\n[TOTAL]  87.9%`;
const DOCS_FAIL = '** (Mix) The task "docs" could not be found';
const DOCS_OK = 'Generating docs...\nView "html" docs at "doc/index.html"\nView "epub" docs at "doc/courier.epub"';
const EXTRACTED =
  'Extracted priv/gettext/default.pot\nWrote priv/gettext/de/LC_MESSAGES/default.po (1 new messages, 0 removed, 212 unchanged)';
const PUSH_FAIL = (warning: string) =>
  `pre-push: mix compile --warnings-as-errors\nCompiling 1 file (.ex)\n    warning: ${warning}\n\nCompilation failed due to warnings while using the --warnings-as-errors option\nerror: failed to push some refs to 'origin'`;
const COMPILE_OK = 'Compiling 1 file (.ex)\nGenerated courier app';
const PUSH_OK =
  'pre-push: mix compile --warnings-as-errors\nTo github.com:acme/courier.git\n   4e1a2b0..9c3d7f1  main -> main';
const UNCHECKED = (dep: string, want: string, got: string) =>
  `Unchecked dependencies for environment dev:\n* ${dep} (Hex package)\n  the dependency does not match the requirement "${want}", got "${got}"\n** (Mix) Can't continue due to errors on dependencies. Run "mix deps.get" to fetch them`;
const DEPS_OK = (dep: string, version: string) =>
  `Resolving Hex dependencies...\nResolution completed in 0.142s\nChanged:\n  ${dep} ${version}\n* Updating ${dep} (Hex package)`;

const run = (command: string, out: string, code = 0): Step => ({ run: command, out, code });

export const courier: RepoSpec = {
  name: 'courier',
  ecosystem: 'mix/Elixir',
  agentsText: [
    '# courier',
    '',
    'Parcel tracking app: Phoenix 1.7, Elixir 1.17, Postgres.',
    '',
    '- Dependencies are declared in `mix.exs`; commit `mix.lock` with them.',
    '- Contexts own their schemas; web modules never call `Repo` directly.',
    '- Prefer pattern matching in function heads over `cond`.',
    '',
  ].join('\n'),
  files: {
    'mix.exs':
      'defmodule Courier.MixProject do\n  use Mix.Project\n\n  def project do\n    [app: :courier, version: "0.14.0", elixir: "~> 1.17", test_coverage: [tool: ExCoveralls], deps: deps()]\n  end\n\n  defp deps do\n    [\n      {:phoenix, "~> 1.7.14"},\n      {:bandit, "~> 1.5"},\n      {:oban, "~> 2.18"},\n      {:swoosh, "~> 1.17"},\n      {:gettext, "~> 0.26"},\n      {:excoveralls, "~> 0.18", only: :test},\n      {:ex_doc, "~> 0.34", only: :docs, runtime: false}\n    ]\n  end\nend\n',
    'compose.yaml':
      'services:\n  db:\n    image: postgres:16\n  mailpit:\n    image: axllent/mailpit\n    ports: ["1025:1025", "8025:8025"]\n',
    '.git-hooks/pre-push': '#!/bin/sh\nmix compile --warnings-as-errors\n',
  },
  teamRules: [
    {
      id: 'bat-00001',
      section: 'Build and test',
      content: 'Run the tests with `mix test`.',
      expected: 'helpful',
      label: 'courier-test',
    },
    {
      id: 'bat-00002',
      section: 'Build and test',
      content: 'Start the server with `mix run --no-halt`.',
      expected: 'harmful',
      label: 'courier-mix-run',
    },
    {
      id: 'bat-00003',
      section: 'Build and test',
      content:
        '`mix docs` is broken in the default environment (ex_doc is only in `:docs`); build the docs with `MIX_ENV=docs mix docs`.',
      expected: 'helpful',
      label: 'courier-docs',
    },
    {
      id: 'conv-00004',
      section: 'Conventions',
      content: 'Run `mix compile --warnings-as-errors` before you push.',
      expected: 'violated',
      label: 'courier-warnings',
    },
    {
      id: 'conv-00005',
      section: 'Conventions',
      content: 'Background jobs are Oban workers under `lib/courier/workers/`.',
      expected: 'untouched',
      label: 'courier-oban',
    },
  ],
  labels: [
    {
      id: 'courier-mailpit',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Start Mailpit with `docker compose up -d mailpit` before `mix test`: the mailer tests deliver to it.',
      paraphrases: [
        'The notifier tests need the SMTP catcher: run `docker compose up -d mailpit` first.',
        'If `mix test` fails with `:econnrefused` on localhost:1025, start Mailpit (`docker compose up -d mailpit`).',
      ],
      match: { all: [/mailpit/i] },
    },
    {
      id: 'courier-deps-get',
      kind: 'lesson',
      section: 'Pitfalls',
      text: 'Run `mix deps.get` after `mix.lock` or `mix.exs` changes: the build stops with "Unchecked dependencies" until you do.',
      paraphrases: [
        'After pulling a new `mix.lock`, fetch the dependencies with `mix deps.get` before compiling.',
        'When mix reports "Unchecked dependencies", run `mix deps.get`.',
      ],
      match: { all: [/deps\.get/] },
    },
    {
      id: 'courier-coveralls',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Measure coverage with `mix coveralls`; `mix test --cover` fails because ExCoveralls is the configured coverage tool.',
      paraphrases: [
        'Coverage comes from ExCoveralls: run `mix coveralls`, not `mix test --cover`.',
        'Use `mix coveralls` for a coverage report.',
      ],
      match: { all: [/mix coveralls/] },
    },
    {
      id: 'courier-gettext',
      kind: 'lesson',
      section: 'Conventions',
      text: 'Wrap every user-facing string in `gettext` and run `mix gettext.extract --merge` after adding one.',
      paraphrases: [
        'User-visible text must be translatable: use `gettext` and re-extract with `mix gettext.extract --merge`.',
        'After adding a UI string, update the translation files with `mix gettext.extract --merge`.',
      ],
      match: { all: [/gettext/] },
    },
    {
      id: 'courier-phx-server',
      kind: 'lesson',
      section: 'Build and test',
      corrects: 'bat-00002',
      text: 'Start the server with `iex -S mix phx.server`, not `mix run --no-halt`: only phx.server starts the endpoint.',
      paraphrases: [
        'Run the web app with `mix phx.server` (or `iex -S mix phx.server`); `mix run` does not serve HTTP.',
        'Use `iex -S mix phx.server` to start Phoenix locally.',
      ],
      match: { all: [/phx\.server/] },
    },
    {
      id: 'courier-docs',
      kind: 'fact',
      text: 'Build the docs with `MIX_ENV=docs mix docs`.',
      match: { all: [/MIX_ENV=docs/] },
    },
    {
      id: 'courier-warnings',
      kind: 'fact',
      text: 'Run `mix compile --warnings-as-errors` before pushing.',
      match: { all: [/warnings-as-errors/] },
    },
    {
      id: 'courier-oban',
      kind: 'fact',
      text: 'Background jobs are Oban workers.',
      match: { all: [/\bOban\b/] },
    },
    { id: 'courier-test', kind: 'fact', text: 'Run the tests with `mix test`.', match: { all: [/\bmix test\b/] } },
    {
      id: 'courier-lock',
      kind: 'fact',
      text: 'Commit `mix.lock` with dependency changes.',
      match: { all: [/mix\.lock/, /commit/i] },
    },
    {
      id: 'courier-mix-run',
      kind: 'wrong',
      text: 'Start the server with `mix run --no-halt`.',
      match: { all: [bare('mix run --no-halt')], none: notPrescribedHere('mix run') },
    },
  ],
  noise: [
    { id: 'test-file', match: { all: [/_test\.exs|--only|--failed/] } },
    { id: 'typo', match: { all: [/tset/] } },
    { id: 'flaky', match: { all: [/flak|re-?run|retry|timed? ?out|:timeout/i] } },
    { id: 'question', match: { all: [/\bslow|how long|200 events/i] } },
    {
      id: 'task',
      match: { all: [/out for delivery|delivery window|delayed|driver|Bandit 1\.6|tracking page|git push/i] },
    },
  ],
  conflicts: [
    {
      id: 'mix-run-vs-phx-server',
      a: { all: [bare('mix run --no-halt')], none: notPrescribedHere('mix run') },
      b: { all: [/phx\.server/] },
      why: 'two ways to start the server: one that never serves the endpoint and the one the user insisted on',
    },
  ],
  sessions: [
    {
      key: 'courier-01',
      agent: 'codex',
      day: 2,
      hour: 9,
      lessons: ['courier-mailpit'],
      tags: { 'bat-00001': 'helpful' },
      steps: [
        { user: 'Email the customer when a parcel is out for delivery.' },
        run('mix test', NO_SMTP, 2),
        { say: 'The mailer tests send to a local SMTP catcher that is not running; starting it.' },
        run('docker compose up -d mailpit', MAILPIT_UP),
        run('mix test', TEST_OK),
        {
          edit: 'lib/courier/notifier.ex',
          old: 'def parcel_updated(%Parcel{} = parcel), do: :ok',
          new: 'def parcel_updated(%Parcel{status: :out_for_delivery} = parcel), do: deliver(out_for_delivery_email(parcel))\n  def parcel_updated(%Parcel{}), do: :ok',
        },
        run('mix test test/courier/notifier_test.exs', '14 tests, 0 failures'),
        run('mix test', TEST_OK),
        { say: 'Customers get an email when their parcel is out for delivery.' },
      ],
    },
    {
      key: 'courier-02',
      agent: 'claude-code',
      day: 3,
      hour: 14,
      lessons: ['courier-mailpit'],
      tags: { 'bat-00001': 'helpful' },
      steps: [
        { user: 'Put the delivery window in the email subject.' },
        run('mix test', NO_SMTP, 2),
        {
          read: 'compose.yaml',
          out: 'services:\n  db:\n    image: postgres:16\n  mailpit:\n    image: axllent/mailpit',
        },
        run('docker compose up -d mailpit', MAILPIT_UP),
        run(
          'mix test',
          '  1) test subject names the delivery window (Courier.NotifierTest)\n     Assertion with == failed\n     left:  "Your parcel is on its way"\n     right: "Your parcel arrives 14:00–16:00"\n\n126 tests, 1 failure',
          2,
        ),
        {
          edit: 'lib/courier/notifier.ex',
          old: '|> subject("Your parcel is on its way")',
          new: '|> subject("Your parcel arrives #{window(parcel)}")',
        },
        run('mix test', TEST_OK),
        { say: 'The subject names the delivery window.' },
      ],
    },
    {
      key: 'courier-03',
      agent: 'claude-code',
      day: 4,
      hour: 10,
      lessons: ['courier-phx-server'],
      tags: { 'bat-00002': 'harmful' },
      steps: [
        { user: 'Start the server and check that /track/ABC123 shows the last scan.' },
        run('mix run --no-halt &', MIX_RUN),
        run('curl -s localhost:4000/track/ABC123', NOT_SERVING, 7),
        { user: "mix run --no-halt doesn't start the endpoint. Start it with iex -S mix phx.server." },
        run('iex -S mix phx.server', PHX_UP),
        run('curl -s localhost:4000/track/ABC123', '<h1>Parcel ABC123</h1>\n<p>Last scan: Leipzig hub, 09:41</p>'),
        { say: 'The page shows the last scan (Leipzig hub, 09:41).' },
      ],
    },
    {
      key: 'courier-04',
      agent: 'codex',
      day: 5,
      hour: 16,
      lessons: ['courier-phx-server'],
      tags: { 'bat-00002': 'harmful' },
      steps: [
        { user: 'How long does the tracking page take to render for a parcel with 200 events?' },
        run('mix run --no-halt &', MIX_RUN),
        run('curl -s -o /dev/null -w "%{time_total}" localhost:4000/track/BIG200', NOT_SERVING, 7),
        { user: 'Never mix run for the web app; mix phx.server is what starts Phoenix here.' },
        run('mix phx.server &', PHX_UP),
        run('curl -s -o /dev/null -w "%{time_total}" localhost:4000/track/BIG200', '0.184'),
        { say: 'About 184 ms for 200 events; most of it is rendering the event list.' },
      ],
    },
    {
      key: 'courier-05',
      agent: 'codex',
      day: 6,
      hour: 11,
      lessons: ['courier-coveralls'],
      tags: { 'bat-00003': 'helpful' },
      steps: [
        { user: "What's the test coverage of the Tracking context? Then refresh the docs for it." },
        run('mix test --cover', COVER_FAIL, 1),
        run('mix coveralls', COVERALLS_OK('62.5%')),
        run('mix docs', DOCS_FAIL, 1),
        run('MIX_ENV=docs mix docs', DOCS_OK),
        { say: 'Tracking is at 91.3 % line coverage; the docs are regenerated.' },
      ],
    },
    {
      key: 'courier-06',
      agent: 'claude-code',
      day: 9,
      hour: 15,
      lessons: ['courier-coveralls'],
      tags: { 'bat-00003': 'helpful' },
      steps: [
        { user: 'The Notifier module is poorly covered. Add tests and show me the coverage before and after.' },
        run('mix test --cover', COVER_FAIL, 1),
        { say: 'This project measures coverage with ExCoveralls.' },
        run('mix coveralls', COVERALLS_OK('62.5%')),
        {
          edit: 'test/courier/notifier_test.exs',
          old: 'describe "parcel_updated/1" do',
          new: 'describe "parcel_updated/1" do\n    test "ignores parcels that are not out for delivery" do\n      assert :ok = Notifier.parcel_updated(build(:parcel, status: :sorted))\n    end\n',
        },
        run('mix coveralls', COVERALLS_OK('87.5%')),
        run('mix docs', DOCS_FAIL, 1),
        run('MIX_ENV=docs mix docs', DOCS_OK),
        { say: 'Notifier coverage went from 62.5 % to 87.5 %.' },
      ],
    },
    {
      key: 'courier-07',
      agent: 'codex',
      day: 10,
      hour: 10,
      lessons: ['courier-gettext'],
      tags: { 'conv-00004': 'violated' },
      steps: [
        {
          user: 'Add a "Parcel delayed" banner to the tracking page. Every user-facing string goes through gettext, and run mix gettext.extract --merge after adding one.',
        },
        {
          edit: 'lib/courier_web/live/track_live.html.heex',
          old: '<h1>Parcel <%= @parcel.code %></h1>',
          new: '<div :if={@parcel.delayed?} class="banner"><%= gettext("Parcel delayed") %></div>\n<h1>Parcel <%= @parcel.code %></h1>',
        },
        run('mix gettext.extract --merge', EXTRACTED),
        run(
          'git push',
          PUSH_FAIL(
            'variable "parcel" is unused (if the variable is not meant to be used, prefix it with an underscore)',
          ),
          1,
        ),
        {
          edit: 'lib/courier_web/live/track_live.ex',
          old: 'def handle_info({:scanned, parcel}, socket) do',
          new: 'def handle_info({:scanned, _parcel}, socket) do',
        },
        run('mix compile --warnings-as-errors', COMPILE_OK),
        run('git push', PUSH_OK),
        { say: 'The delayed banner is translatable and pushed.' },
      ],
    },
    {
      key: 'courier-08',
      agent: 'claude-code',
      day: 11,
      hour: 13,
      lessons: ['courier-gettext'],
      tags: { 'conv-00004': 'violated' },
      steps: [
        { user: "Show the driver's first name on the tracking page." },
        {
          edit: 'lib/courier_web/live/track_live.html.heex',
          old: '<h1>Parcel <%= @parcel.code %></h1>',
          new: '<h1>Parcel <%= @parcel.code %></h1>\n<p>Your driver is <%= @parcel.driver.first_name %></p>',
        },
        run('git push', PUSH_FAIL('unused alias Repo'), 1),
        {
          user: 'That label has to be translatable too: wrap it in gettext and re-extract with mix gettext.extract --merge.',
        },
        {
          edit: 'lib/courier_web/live/track_live.html.heex',
          old: '<p>Your driver is <%= @parcel.driver.first_name %></p>',
          new: '<p><%= gettext("Your driver is %{name}", name: @parcel.driver.first_name) %></p>',
        },
        run('mix gettext.extract --merge', EXTRACTED),
        { edit: 'lib/courier_web/live/track_live.ex', old: '  alias Courier.Repo\n', new: '' },
        run('mix compile --warnings-as-errors', COMPILE_OK),
        run('git push', PUSH_OK),
        { say: "The driver's first name shows in a translatable label." },
      ],
    },
    {
      key: 'courier-09',
      agent: 'codex',
      day: 12,
      hour: 9,
      lessons: ['courier-deps-get'],
      tags: {},
      steps: [
        { user: 'Pull main and check that the app still compiles.' },
        run('git pull --ff-only', 'Updating 9c3d7f1..b21e6a0\nFast-forward\n mix.exs  | 2 +-\n mix.lock | 4 ++--'),
        run('mix compile', UNCHECKED('req', '~> 0.5.6', '0.5.2'), 1),
        run('mix deps.get', DEPS_OK('req', '0.5.2 => 0.5.6')),
        run('mix compile', COMPILE_OK),
        { say: 'Main compiles after fetching the new req version.' },
      ],
    },
    {
      key: 'courier-10',
      agent: 'claude-code',
      day: 13,
      hour: 11,
      lessons: ['courier-deps-get'],
      tags: {},
      steps: [
        { user: 'Bump Bandit to 1.6.' },
        { edit: 'mix.exs', old: '{:bandit, "~> 1.5"}', new: '{:bandit, "~> 1.6"}' },
        run('mix compile', UNCHECKED('bandit', '~> 1.6', '1.5.7'), 1),
        { say: 'mix wants the new version fetched first.' },
        run('mix deps.get', DEPS_OK('bandit', '1.5.7 => 1.6.1')),
        run('mix compile', COMPILE_OK),
        { say: 'Bandit is on 1.6.1; mix.lock is updated.' },
      ],
    },
    {
      key: 'courier-11',
      agent: 'codex',
      day: 16,
      hour: 14,
      lessons: [],
      tags: {},
      steps: [
        { user: 'Hide the exact address on the public tracking page; show the city only.' },
        {
          edit: 'lib/courier_web/live/track_live.html.heex',
          old: '<p><%= @parcel.address %></p>',
          new: '<p><%= @parcel.city %></p>',
        },
        run('mix tset', '** (Mix) The task "tset" could not be found. Did you mean "test"?', 1),
        run(
          'mix test',
          '  1) test live updates push the new scan (CourierWeb.TrackLiveTest)\n     ** (exit) exited in: GenServer.call(#PID<0.912.0>, :render, 5000)\n         ** (EXIT) time out\n\n126 tests, 1 failure',
          2,
        ),
        run('mix test', TEST_OK),
        { say: 'The public page shows the city only.' },
      ],
    },
  ],
};
