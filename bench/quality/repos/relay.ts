import type { RepoSpec, Step } from '../types';
import { bare, notPrescribed } from './negation';

// A make/Go HTTP relay server. The team builds through the Makefile, but its playbook tests with a bare
// `go test ./...`, which misses the test configuration the Makefile's `test` target sets.

const PROTO_MISSING =
  'go build -o bin/relay ./cmd/relay\ninternal/api/server.go:9:2: no required module provides package relay/internal/api/relaypb; to add it:\n\tgo get relay/internal/api/relaypb\nmake: *** [Makefile:14: build] Error 1';
const PROTO_OK =
  'buf generate proto\nwrote internal/api/relaypb/relay.pb.go\nwrote internal/api/relaypb/relay_grpc.pb.go';
const BUILD_OK = 'go build -o bin/relay ./cmd/relay';
const MAKE_TEST_OK =
  'RELAY_CONFIG=testdata/relay.test.yaml go test -race ./...\nok  \trelay/internal/config\t0.021s\nok  \trelay/internal/relay\t1.408s\nok  \trelay/internal/store\t0.318s\nok  \trelay/cmd/relay\t0.044s';
const GO_TEST_FAIL =
  '--- FAIL: TestLoad (0.00s)\n    config_test.go:14: RELAY_CONFIG not set\nFAIL\nFAIL\trelay/internal/config\t0.012s\nok  \trelay/internal/relay\t0.903s\nFAIL';
const INTEGRATION_REFUSED =
  'go test -tags=integration ./internal/store/...\n--- FAIL: TestStoreRoundTrip (0.01s)\n    store_test.go:31: dial tcp 127.0.0.1:5432: connect: connection refused\nFAIL\nmake: *** [Makefile:22: test-integration] Error 1';
const INTEGRATION_OK = 'go test -tags=integration ./internal/store/...\nok  \trelay/internal/store\t2.771s';
const TIDY_NEEDED =
  'go build -o bin/relay ./cmd/relay\ngo: updates to go.mod needed; to update it:\n\tgo mod tidy\nmake: *** [Makefile:14: build] Error 1';
const LINT_OK = 'golangci-lint run ./...\n0 issues.';
const GENERATE_BROKEN =
  'internal/relay/state.go:3: running "stringer": exec: "stringer": executable file not found in $PATH';
const MAKE_GENERATE_OK =
  'go run golang.org/x/tools/cmd/stringer@v0.27.0 -type=State ./internal/relay\nwrote internal/relay/state_string.go';
const FMT_CHECK_FAIL = (file: string) => `gofumpt -l .\n${file}\nmake: *** [Makefile:30: fmt-check] Error 1`;
const FMT_OK = 'gofumpt -w .';
const FMT_CHECK_OK = 'gofumpt -l .';

const run = (command: string, out: string, code = 0): Step => ({ run: command, out, code });

export const relay: RepoSpec = {
  name: 'relay',
  ecosystem: 'make/Go',
  agentsText: [
    '# relay',
    '',
    'An HTTP relay server in Go 1.23: it accepts webhooks, stores them in Postgres and forwards them with retries.',
    '',
    '## How we work',
    '- Build through the Makefile (`make build`); CI runs the same targets.',
    '- Errors are wrapped with `fmt.Errorf("…: %w", err)`; no `errors.New` for wrapped causes.',
    '',
  ].join('\n'),
  files: {
    Makefile:
      'build:\n\tgo build -o bin/relay ./cmd/relay\n\ntest:\n\tRELAY_CONFIG=testdata/relay.test.yaml go test -race ./...\n\ntest-integration:\n\tgo test -tags=integration ./internal/store/...\n\nproto:\n\tbuf generate proto\n\ngenerate:\n\tgo run golang.org/x/tools/cmd/stringer@v0.27.0 -type=State ./internal/relay\n\nlint:\n\tgolangci-lint run ./...\n\nfmt:\n\tgofumpt -w .\n\nfmt-check:\n\tgofumpt -l .\n',
    'go.mod':
      'module relay\n\ngo 1.23\n\nrequire (\n\tgithub.com/jackc/pgx/v5 v5.7.1\n\tgoogle.golang.org/grpc v1.68.0\n)\n',
    'internal/logx/logx.go':
      'package logx\n\n// Info logs a message with its fields; request bodies and headers are redacted.\nfunc Info(msg string, fields ...Field) { std.Info(msg, redact(fields)...) }\n',
  },
  teamRules: [
    {
      id: 'bat-00001',
      section: 'Build and test',
      content: 'Run `make lint` (golangci-lint) before pushing.',
      expected: 'helpful',
      label: 'relay-lint',
    },
    {
      id: 'bat-00002',
      section: 'Build and test',
      content: 'Run the tests with `go test ./...`.',
      expected: 'harmful',
      label: 'relay-go-test',
    },
    {
      id: 'bat-00003',
      section: 'Build and test',
      content: '`go generate ./...` is broken here (it needs stringer on PATH); use `make generate`.',
      expected: 'helpful',
      label: 'relay-generate',
    },
    {
      id: 'conv-00004',
      section: 'Conventions',
      content: 'Run `make fmt` (gofumpt) after editing Go files.',
      expected: 'violated',
      label: 'relay-fmt',
    },
    {
      id: 'conv-00005',
      section: 'Conventions',
      content: 'Handlers take a `context.Context` first and never store it in a struct.',
      expected: 'untouched',
      label: 'relay-context',
    },
  ],
  labels: [
    {
      id: 'relay-proto',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Run `make proto` before `make build`: the generated `relaypb` package is not committed.',
      paraphrases: [
        'Generate the protobuf code with `make proto` before building.',
        'If the build cannot find `relay/internal/api/relaypb`, run `make proto` first.',
      ],
      match: { all: [/make proto|buf generate/] },
    },
    {
      id: 'relay-db-port',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Run the integration tests with `make test-integration RELAY_DB_PORT=5433`: the dev Postgres listens on 5433.',
      paraphrases: [
        'The local Postgres is on port 5433, so pass `RELAY_DB_PORT=5433` to `make test-integration`.',
        '`make test-integration` needs `RELAY_DB_PORT=5433`, otherwise it dials 5432 and is refused.',
      ],
      match: { all: [/RELAY_DB_PORT|5433/] },
    },
    {
      id: 'relay-logx',
      kind: 'lesson',
      section: 'Conventions',
      text: 'Never log with `log.Printf`; all logging goes through `internal/logx` (it redacts request bodies).',
      paraphrases: [
        'Use `logx` for logging instead of the standard `log` package.',
        'Logging goes through internal/logx, never log.Printf.',
      ],
      match: { all: [/logx/] },
    },
    {
      id: 'relay-tidy',
      kind: 'lesson',
      section: 'Pitfalls',
      text: 'When the build says "updates to go.mod needed", run `go mod tidy` and build again.',
      paraphrases: [
        'Run `go mod tidy` after adding an import, or `make build` stops with "updates to go.mod needed".',
        '`go mod tidy` fixes the "go.mod needed" build failure.',
      ],
      match: { all: [/go mod tidy/] },
    },
    {
      id: 'relay-make-test',
      kind: 'lesson',
      section: 'Build and test',
      corrects: 'bat-00002',
      text: 'Run the tests with `make test`, not `go test ./...`: it sets `RELAY_CONFIG` and `-race`.',
      paraphrases: [
        'Use `make test` for the tests; a bare `go test ./...` misses RELAY_CONFIG.',
        'Tests go through the Makefile: `make test`.',
      ],
      match: { all: [/make test\b(?!-)/] },
    },
    { id: 'relay-lint', kind: 'fact', text: 'Lint with `make lint`.', match: { all: [/make lint|golangci/] } },
    {
      id: 'relay-generate',
      kind: 'fact',
      text: 'Generate with `make generate`.',
      match: { all: [/make generate|go generate/] },
    },
    { id: 'relay-fmt', kind: 'fact', text: 'Format with `make fmt`.', match: { all: [/make fmt\b|gofumpt/] } },
    { id: 'relay-context', kind: 'fact', text: 'Handlers take a context first.', match: { all: [/context\.Context/] } },
    {
      id: 'relay-make',
      kind: 'fact',
      text: 'Build through the Makefile.',
      match: { all: [/Makefile|make build/] },
    },
    {
      id: 'relay-log-printf',
      kind: 'wrong',
      text: 'Log with `log.Printf`.',
      match: { all: [/log\.Printf/i], none: notPrescribed('log\\.Printf') },
    },
    {
      id: 'relay-go-test',
      kind: 'wrong',
      text: 'Run the tests with `go test ./...`.',
      match: { all: [bare('go test \\./\\.\\.\\.')], none: [...notPrescribed('go test'), /make test/] },
    },
  ],
  noise: [
    { id: 'test-filter', match: { all: [/-run Test|\.\/internal\/relay\b(?!\/)/] } },
    { id: 'typo', match: { all: [/mkae/] } },
    { id: 'flaky', match: { all: [/flak|re-?run|retry|TestBackoff/i] } },
    { id: 'question', match: { all: [/connection pool|pgxpool/i] } },
    {
      id: 'task',
      match: { all: [/HMAC|dead.letter|X-Relay-Signature|rate limit|Retry-After|OpenTelemetry|1 MiB|\b413\b/i] },
    },
  ],
  conflicts: [
    {
      id: 'go-test-vs-make',
      a: { all: [bare('go test \\./\\.\\.\\.')], none: [...notPrescribed('go test'), /make test/] },
      b: { all: [/make test\b(?!-)/] },
      why: 'two commands for the tests: a bare `go test ./...` and the Makefile the team and the user insist on',
    },
  ],
  sessions: [
    {
      key: 'relay-01',
      agent: 'codex',
      day: 2,
      hour: 15,
      lessons: ['relay-proto'],
      tags: { 'bat-00001': 'helpful' },
      steps: [
        { user: 'Verify the X-Relay-Signature HMAC on incoming webhooks.' },
        run('make build', PROTO_MISSING, 2),
        { say: 'The generated relaypb package is missing; generating it.' },
        run('make proto', PROTO_OK),
        run('make build', BUILD_OK),
        {
          edit: 'internal/relay/verify.go',
          old: '',
          new: 'func verifySignature(secret, body []byte, sig string) bool {\n\tmac := hmac.New(sha256.New, secret)\n\tmac.Write(body)\n\treturn hmac.Equal(mac.Sum(nil), decodeHex(sig))\n}',
        },
        run('go test ./internal/relay -run TestVerifySignature', 'ok  \trelay/internal/relay\t0.011s'),
        run('make lint', LINT_OK),
        { say: 'Incoming webhooks are rejected unless the HMAC signature matches.' },
      ],
    },
    {
      key: 'relay-02',
      agent: 'claude-code',
      day: 3,
      hour: 11,
      lessons: ['relay-proto'],
      tags: {},
      steps: [
        { user: 'Add a dead-letter queue for webhooks that fail 10 times.' },
        run('make build', PROTO_MISSING, 2),
        run('make proto', PROTO_OK),
        run('make build', BUILD_OK),
        {
          edit: 'internal/relay/forward.go',
          old: 'if attempt >= maxAttempts {\n\t\treturn err\n\t}',
          new: 'if attempt >= maxAttempts {\n\t\treturn s.deadLetter(ctx, msg, err)\n\t}',
        },
        run('make build', BUILD_OK),
        { say: 'Webhooks that fail 10 times go to the dead-letter table.' },
      ],
    },
    {
      key: 'relay-03',
      agent: 'claude-code',
      day: 4,
      hour: 9,
      lessons: ['relay-make-test'],
      tags: { 'bat-00002': 'harmful' },
      steps: [
        { user: 'Make the forwarder respect the Retry-After header of the target.' },
        {
          edit: 'internal/relay/forward.go',
          old: 'delay := backoff(attempt)',
          new: 'delay := retryAfter(resp, backoff(attempt))',
        },
        run('go test ./...', GO_TEST_FAIL, 1),
        { user: "Don't run go test directly, use make test: it sets RELAY_CONFIG and -race." },
        run('make test', MAKE_TEST_OK),
        { say: 'The forwarder waits for Retry-After when the target sends one.' },
      ],
    },
    {
      key: 'relay-04',
      agent: 'codex',
      day: 5,
      hour: 10,
      lessons: ['relay-make-test'],
      tags: { 'bat-00002': 'harmful', 'conv-00004': 'violated' },
      steps: [
        { user: 'Add a per-target rate limit of 50 requests per second.' },
        {
          edit: 'internal/relay/limiter.go',
          old: '',
          new: 'func newLimiter() *rate.Limiter {\n  return rate.NewLimiter(50, 50)\n}',
        },
        run('go test ./...', GO_TEST_FAIL, 1),
        { user: 'Please use make test, not go test ./... — the Makefile sets the test config.' },
        run('make test', MAKE_TEST_OK),
        run('make fmt-check', FMT_CHECK_FAIL('internal/relay/limiter.go'), 2),
        run('make fmt', FMT_OK),
        run('make fmt-check', FMT_CHECK_OK),
        { say: 'Each target is limited to 50 requests per second.' },
      ],
    },
    {
      key: 'relay-05',
      agent: 'claude-code',
      day: 6,
      hour: 16,
      lessons: ['relay-db-port'],
      tags: {},
      steps: [
        { user: 'How does the connection pool work? I want to know if we can lower max connections.' },
        {
          read: 'internal/store/pool.go',
          out: 'cfg.MaxConns = 20\ncfg.MinConns = 2\ncfg.MaxConnIdleTime = 5 * time.Minute',
        },
        {
          say: 'The store uses a pgxpool with 20 connections at most and 2 kept warm; idle ones close after 5 minutes. Let me run the integration tests with a lower maximum.',
        },
        { edit: 'internal/store/pool.go', old: 'cfg.MaxConns = 20', new: 'cfg.MaxConns = 8' },
        run('make test-integration', INTEGRATION_REFUSED, 2),
        run('make test-integration RELAY_DB_PORT=5433', INTEGRATION_OK),
        { say: 'The integration tests pass with 8 connections.' },
      ],
    },
    {
      key: 'relay-06',
      agent: 'codex',
      day: 9,
      hour: 14,
      lessons: ['relay-db-port'],
      tags: { 'bat-00003': 'helpful' },
      steps: [
        { user: 'Store the delivery state as a string in the database instead of an int.' },
        {
          edit: 'internal/relay/state.go',
          old: 'type State int',
          new: '//go:generate stringer -type=State\ntype State int',
        },
        run('go generate ./...', GENERATE_BROKEN, 1),
        run('make generate', MAKE_GENERATE_OK),
        run('make test-integration', INTEGRATION_REFUSED, 2),
        run('make test-integration RELAY_DB_PORT=5433', INTEGRATION_OK),
        { say: 'The delivery state is stored by name.' },
      ],
    },
    {
      key: 'relay-07',
      agent: 'codex',
      day: 10,
      hour: 11,
      lessons: ['relay-logx', 'relay-tidy'],
      tags: {},
      steps: [
        {
          user: 'Log every forwarded webhook with its target and status. Never use log.Printf here: all logging goes through internal/logx.',
        },
        { read: 'internal/logx/logx.go', out: 'func Info(msg string, fields ...Field)' },
        {
          edit: 'internal/relay/forward.go',
          old: 'return nil',
          new: 'logx.Info("forwarded", logx.F("target", t.URL), logx.F("status", resp.StatusCode))\n\treturn nil',
        },
        run('make build', TIDY_NEEDED, 2),
        run('go mod tidy', 'go: finding module for package relay/internal/logx'),
        run('make build', BUILD_OK),
        { say: 'Forwarded webhooks are logged through logx.' },
      ],
    },
    {
      key: 'relay-08',
      agent: 'claude-code',
      day: 11,
      hour: 9,
      lessons: ['relay-logx'],
      tags: { 'conv-00004': 'violated', 'bat-00001': 'helpful' },
      steps: [
        { user: 'Log why a delivery was dropped.' },
        {
          edit: 'internal/relay/drop.go',
          old: 'return errDropped',
          new: 'log.Printf("dropped %s: %v", msg.ID, reason)\n\treturn errDropped',
        },
        { user: 'No log.Printf please. Logging goes through logx, it redacts the payload.' },
        {
          edit: 'internal/relay/drop.go',
          old: 'log.Printf("dropped %s: %v", msg.ID, reason)',
          new: 'logx.Info("dropped", logx.F("id", msg.ID), logx.F("reason", reason))',
        },
        run('make fmt-check', FMT_CHECK_FAIL('internal/relay/drop.go'), 2),
        run('make fmt', FMT_OK),
        run('make fmt-check', FMT_CHECK_OK),
        run('make lint', LINT_OK),
        { say: 'Dropped deliveries are logged with their reason through logx.' },
      ],
    },
    {
      key: 'relay-09',
      agent: 'codex',
      day: 12,
      hour: 15,
      lessons: ['relay-tidy'],
      tags: {},
      steps: [
        { user: 'Add OpenTelemetry traces around the forward call.' },
        {
          edit: 'internal/relay/forward.go',
          old: 'resp, err := s.client.Do(req)',
          new: 'ctx, span := tracer.Start(ctx, "forward")\n\tdefer span.End()\n\tresp, err := s.client.Do(req.WithContext(ctx))',
        },
        run('make build', TIDY_NEEDED, 2),
        run(
          'go mod tidy',
          'go: finding module for package go.opentelemetry.io/otel\ngo: found go.opentelemetry.io/otel in go.opentelemetry.io/otel v1.32.0',
        ),
        run('make build', BUILD_OK),
        { say: 'The forward call is traced.' },
      ],
    },
    {
      key: 'relay-10',
      agent: 'claude-code',
      day: 13,
      hour: 10,
      lessons: [],
      tags: {},
      steps: [
        { user: 'Cap the retry backoff at 5 minutes.' },
        {
          edit: 'internal/relay/backoff.go',
          old: 'return base << attempt',
          new: 'return min(base<<attempt, 5*time.Minute)',
        },
        run('mkae test', 'bash: mkae: command not found', 127),
        run(
          'make test',
          '--- FAIL: TestBackoff (0.50s)\n    backoff_test.go:22: timer fired late: 612ms > 500ms\nFAIL\trelay/internal/relay\t1.913s\nFAIL\nmake: *** [Makefile:5: test] Error 1',
          2,
        ),
        run('make test', MAKE_TEST_OK),
        { say: 'The backoff is capped at 5 minutes.' },
      ],
    },
    {
      key: 'relay-11',
      agent: 'codex',
      day: 16,
      hour: 13,
      lessons: [],
      tags: { 'bat-00001': 'helpful' },
      steps: [
        { user: 'Reject webhook bodies over 1 MiB with 413.' },
        {
          edit: 'internal/relay/handler.go',
          old: 'body, err := io.ReadAll(r.Body)',
          new: 'body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))',
        },
        run('make test', MAKE_TEST_OK),
        run('make lint', LINT_OK),
        { say: 'Bodies over 1 MiB get 413.' },
      ],
    },
  ],
};
