import type { CorpusLabels } from '../types';

// Claude Code sessions on the Entire CLI (Go). Sessions are named by their sessionId (the .jsonl file name); "U<n>" is
// the n-th user turn, "step" a tool call after it.
export const labels: CorpusLabels = {
  corpus: 'entireio-cli',
  summary:
    'A Go CLI verified through mise tasks. What recurs: lint (golangci-lint via mise) failing after edits and the user ' +
    'saying so, running one test through mise, integration tests behind a build tag, a cd in one shell call breaking ' +
    'repository-relative paths in the next, reading PR review comments with gh api, and the user correcting how ' +
    'checkpoint trailers are named. The mise commands are in CLAUDE.md; most user turns are task requests or pasted ' +
    'review-bot findings.',
  lessons: [
    {
      id: 'entire-lint',
      statement:
        'After editing Go code, run `mise run fmt && mise run lint` (gofmt, then golangci-lint) from the repository root ' +
        'and fix every finding before finishing: the linters (noctx, wrapcheck, gocritic among them) fail on code that ' +
        'compiles and passes the tests.',
      kind: 'workflow',
      sessions: [
        {
          session: '1c38adc0-5071-4382-9e53-de8c30e2265f',
          where: 'U8: lint fails on exec.Command (noctx), fixed, re-run',
        },
        { session: '569aed7b-6ead-4790-a3fe-c7028466112c', where: 'U5: lint fails (wrapcheck), fixed, re-run' },
        {
          session: 'f736da47-b2ca-4f86-bb32-a1bbe582e464',
          where: 'U2: lint fails (gocritic elseif) on a new test file',
        },
        {
          session: 'd563fb6b-39cf-4895-bb5f-681c33e58bbc',
          where: 'U3: the user reports that linting fails after the change',
        },
        { session: '7744721d-0ad2-4529-8b08-3b18561c6c36', where: 'U1: fmt and lint after the merge fix' },
        { session: 'e4599950-b028-44fb-a2d5-ca8caffa2c3d', where: 'U1, U2, U10, U12: fmt and lint after each change' },
      ],
      repeated: true,
      standing: false,
      repoStates: 'yes',
      match: { all: [/mise run lint/] },
      note: 'CLAUDE.md (read in the sessions) gives `mise run fmt && mise run lint`; sessions show agents leaving lint failures.',
    },
    {
      id: 'entire-test-one',
      statement:
        'Run the unit tests with `mise run test` (go test ./...); to run one test pass go test flags after `--`, as in ' +
        '`mise run test -- -run TestHasUncommittedChanges -v`.',
      kind: 'command',
      sessions: [
        {
          session: '1c38adc0-5071-4382-9e53-de8c30e2265f',
          where: 'U5, U6: mise run test -- -run TestHasUncommittedChanges -v',
        },
        { session: 'a032db5a-df02-44d7-ab1e-fb024213ecc4', where: 'U5: mise run test -- -run "Worktree"' },
        {
          session: 'd563fb6b-39cf-4895-bb5f-681c33e58bbc',
          where: 'U2, U5: mise run test -- -run "TestBuildCondensedTranscript" …',
        },
        {
          session: 'f736da47-b2ca-4f86-bb32-a1bbe582e464',
          where: 'U1: mise run test fails to build (missing import), fixed',
        },
      ],
      repeated: true,
      standing: false,
      repoStates: 'yes',
      // the lesson is the one-test form: a rule that only names `mise run test` among other checks does not state it
      match: { all: [/mise run test\b(?!:)/, /-- -run\b|one test|single test/i], none: [/integration/i] },
      note: 'CLAUDE.md gives `mise run test`; the `-- -run` form is not shown there.',
    },
    {
      id: 'entire-integration',
      statement:
        'Integration tests are behind the `integration` build tag in cmd/entire/cli/integration_test/: run them with ' +
        '`mise run test:integration` (one test: `mise run test:integration -- -run "TestTestEnv_InitRepo"`); a plain ' +
        '`mise run test` does not compile them.',
      kind: 'command',
      sessions: [
        {
          session: 'a032db5a-df02-44d7-ab1e-fb024213ecc4',
          where: 'U5, U13: compile errors found only by test:integration',
        },
        {
          session: '8ab54260-6692-4888-96a3-c08408c85fb4',
          where: 'U1: mise run test:integration, then mise run test:ci',
        },
        {
          session: 'e5fcdc73-b9fc-4991-b532-6bf8440fd12d',
          where: 'U5: user pastes an integration failure; go test -tags integration …',
        },
      ],
      repeated: true,
      standing: false,
      repoStates: 'yes',
      match: { all: [/test:integration|-tags[= ]integration/] },
    },
    {
      id: 'entire-cwd',
      statement:
        'A `cd` in one shell call stays in effect for the next calls: after `cd cmd/entire/cli/integration_test` (or into ' +
        '/tmp/entire-test-repo), repository-relative paths in git and harness commands fail (doubled path, exit 128; ' +
        'harness not found, exit 127). Run git and repository scripts from the repository root, or prefix the call with ' +
        '`cd` to the root.',
      kind: 'pitfall',
      sessions: [
        {
          session: 'a032db5a-df02-44d7-ab1e-fb024213ecc4',
          where: 'U5 and U13: git diff/add after cd into integration_test, exit 128',
        },
        {
          session: 'f6833005-7be4-4178-bb37-a0e9feadc36b',
          where: 'U4: cd /tmp/entire-test-repo && .claude/skills/…/test-harness.sh, exit 127',
        },
        {
          session: 'f736da47-b2ca-4f86-bb32-a1bbe582e464',
          where: 'U2-U4: cd into cmd/entire/cli/validation, next call cds back to the root',
        },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: {
        all: [/\bcd\b|working (dir|folder)|\bcwd\b/i, /(repo(sitory)? root|root of the repo|absolute path)/i],
      },
    },
    {
      id: 'entire-trailers',
      statement:
        'Checkpoint naming: commits on the code branch carry the trailer `Entire-Checkpoint: <id>` with both strategies ' +
        '(manual-commit adds it through git hooks); on the metadata branch (entire/checkpoints/v1, formerly ' +
        'entire/sessions) the commit subject is `Checkpoint: <id>`, not a trailer; there is no `Entire-Session` trailer any more.',
      kind: 'convention',
      sessions: [
        {
          session: 'c26d2153-23c8-42ed-ab6c-808579b64e5b',
          where: 'U4, U8: the user rejects CLAUDE.md edits that describe the trailers wrongly',
        },
        {
          session: '2cfdacb8-9317-430f-8975-0709d2837d1c',
          where: 'U14, U16: on the checkpoints branch it is "Checkpoint:" in the message',
        },
        {
          session: 'd24899b5-6804-483b-be8d-421910d2ca39',
          where: 'U2: Entire-Session no longer exists, remove what uses it',
        },
      ],
      repeated: true,
      standing: true,
      repoStates: 'no',
      match: { all: [/Entire-Checkpoint|Entire-Session/, /(?<!Entire-)Checkpoint:|Entire-Session/] },
      note: 'The CLAUDE.md read in these sessions still listed an Entire-Session trailer: the repository said otherwise then.',
    },
    {
      id: 'entire-pr-comments',
      statement:
        'Review comments on a pull request (including review bots) are read with `gh pr view --json number,url` and then ' +
        "`gh api repos/entireio/cli/pulls/<number>/comments --jq '…'`; `gh pr view` alone does not show the inline comments.",
      kind: 'workflow',
      sessions: [
        { session: '8ab54260-6692-4888-96a3-c08408c85fb4', where: 'U4: review the Copilot comments on the PR' },
        { session: 'e5fcdc73-b9fc-4991-b532-6bf8440fd12d', where: 'U1: take a look at the PR comments' },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/gh api/, /pulls\/\S*\/?comments|pulls\/<[^>]+>\/comments/] },
    },
    {
      id: 'entire-test-git-config',
      statement:
        "Tests that create git repositories must not depend on or change the developer's global git config: set what they " +
        'need in the test repository (e.g. `commit.gpgsign false`, a repository-local `core.excludesfile`), never with --global.',
      kind: 'convention',
      sessions: [
        {
          session: 'a032db5a-df02-44d7-ab1e-fb024213ecc4',
          where: 'U5: tests fail under a global commit.gpgsign=true; U13 nil-safe fix',
        },
        {
          session: '1c38adc0-5071-4382-9e53-de8c30e2265f',
          where: 'U6-U9: a test of global excludes; the user worries it changes their git config',
        },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/gpgsign|global (git )?config|--global|excludesfile/i, /test/i] },
    },
    {
      id: 'entire-test-repo-skill',
      statement:
        'Before the test-repo harness steps, rebuild the CLI with `go build -o /tmp/entire-bin ./cmd/entire` (the harness ' +
        'runs /tmp/entire-bin, and its cleanup removes it), then run `.claude/skills/test-repo/test-harness.sh <step>` ' +
        'from the repository root with `STRATEGY=manual-commit` or `STRATEGY=auto-commit` exported.',
      kind: 'workflow',
      sessions: [
        {
          session: 'f6833005-7be4-4178-bb37-a0e9feadc36b',
          where: 'U3, U5: configure-strategy fails after cleanup until rebuilt',
        },
      ],
      repeated: false,
      standing: false,
      repoStates: 'yes',
      match: { all: [/\/tmp\/entire-bin|test-harness\.sh/] },
      note: 'The skill file (expanded in the session) states the build step.',
    },
    {
      id: 'entire-settings-committed',
      statement:
        '`.entire/` is not ignored as a whole: `.entire/settings.json` is meant to be committed (only local files inside it are ignored).',
      kind: 'convention',
      sessions: [
        {
          session: 'f6833005-7be4-4178-bb37-a0e9feadc36b',
          where: 'U6: the user corrects a harness change that assumed .entire is ignored',
        },
      ],
      repeated: false,
      standing: true,
      repoStates: 'unknown',
      match: { all: [/\.entire\/settings\.json/, /commit/i] },
    },
  ],
  traps: [
    {
      id: 'entire-hook-message',
      kind: 'injected',
      what: "Entire's own hook message arriving as a user turn (another session is active; resume it with claude -r; suppress with a flag).",
      why: 'Text of a hook, repeated whenever two sessions overlap; not the user speaking and not about the repository.',
      sessions: [
        { session: '63784323-7042-4ab8-82b1-3c0b79467bf9', where: 'U2' },
        { session: 'f6833005-7be4-4178-bb37-a0e9feadc36b', where: 'U2' },
      ],
      match: { all: [/another (active )?session|disable-multisession-warning|claude -r/i] },
    },
    {
      id: 'entire-local-command',
      kind: 'injected',
      what: "Claude Code's local-command caveat and /exit, /remote-env outputs recorded as user messages.",
      why: 'Generated by the client around slash commands; they carry no instruction.',
      sessions: [
        { session: '1c38adc0-5071-4382-9e53-de8c30e2265f', where: 'after U4' },
        { session: 'a032db5a-df02-44d7-ab1e-fb024213ecc4', where: 'after U12' },
      ],
      match: { all: [/local[- ]command|\/exit|caveat/i] },
    },
    {
      id: 'entire-skill-body',
      kind: 'injected',
      what: 'The test-repo skill body expanded into the conversation as a meta user message.',
      why: 'It is the repository file .claude/skills/test-repo/SKILL.md; restating it adds nothing.',
      sessions: [{ session: 'f6833005-7be4-4178-bb37-a0e9feadc36b', where: 'U4 (meta)' }],
      match: { all: [/test-repo skill|SKILL\.md/i] },
    },
    {
      id: 'entire-review-findings',
      kind: 'task-request',
      what: 'Review-bot findings pasted as user turns (severity, a bug in one function, "should" wording).',
      why: 'Each is one defect to fix in this branch; the wording is the bot’s, about one place in the code.',
      sessions: [
        { session: '8ab54260-6692-4888-96a3-c08408c85fb4', where: 'U2, U3' },
        { session: 'e4599950-b028-44fb-a2d5-ca8caffa2c3d', where: 'U12, U13' },
        { session: 'f736da47-b2ca-4f86-bb32-a1bbe582e464', where: 'U1, U2, U4' },
        { session: 'd563fb6b-39cf-4895-bb5f-681c33e58bbc', where: 'U1' },
        { session: 'a032db5a-df02-44d7-ab1e-fb024213ecc4', where: 'U9, U13' },
      ],
      match: { all: [/(high|medium|low) severity|allowedTools|comma-joined|DOCS\.md|pathSafeRegex|ModelSessionID/i] },
    },
    {
      id: 'entire-local-dev-design',
      kind: 'task-request',
      what: 'The design of one feature: plain `entire enable` keeps hooks calling entire from PATH, only `--local-dev` installs the wrapper script.',
      why: 'A product decision for one branch, enforced by the code and its tests; as an agent rule it is a task description.',
      sessions: [
        { session: 'e4599950-b028-44fb-a2d5-ca8caffa2c3d', where: 'U2, U10' },
        { session: 'e5fcdc73-b9fc-4991-b532-6bf8440fd12d', where: 'U1-U2' },
      ],
      match: { all: [/--local-dev|entire-wrapper|ENTIRE_LOCAL_DEV/] },
    },
    {
      id: 'entire-personal-data',
      kind: 'personal-data',
      what: "A pasted git log with a committer's name and e-mail address; the developer's home folder in every path; a global git ignore path.",
      why: 'Personal data; never a rule.',
      sessions: [
        { session: '2cfdacb8-9317-430f-8975-0709d2837d1c', where: 'U13, U17' },
        { session: '1c38adc0-5071-4382-9e53-de8c30e2265f', where: 'U8' },
      ],
      match: { all: [/[\w.+-]+@[\w-]+\.[\w.]+|\/Users\/|~\/\.config\/git/] },
    },
    {
      id: 'entire-one-offs',
      kind: 'one-off',
      what: 'go run of a heredoc program outside a module; PyYAML and yq missing while checking a YAML file; GitHub Actions 403 for a bot; a zsh glob with no match.',
      why: 'Each happened once, in a side investigation; none is how work is done in this repository.',
      sessions: [
        { session: '1c38adc0-5071-4382-9e53-de8c30e2265f', where: 'U1: go run outside a module' },
        { session: '2cfdacb8-9317-430f-8975-0709d2837d1c', where: 'U4, U7: YAML check, Actions push 403' },
        { session: 'e4599950-b028-44fb-a2d5-ca8caffa2c3d', where: 'U8: no matches found' },
      ],
      match: { all: [/go mod init|import yaml|\byq\b|github-actions\[bot\]|no matches found/i] },
    },
    {
      id: 'entire-exit-not-failure',
      kind: 'no-match',
      what: '`git config --global core.excludesfile` exiting 1, read as a failure.',
      why: 'Exit 1 means the key is not set: an answer, not an error.',
      sessions: [{ session: '1c38adc0-5071-4382-9e53-de8c30e2265f', where: 'U1, U8' }],
      match: { all: [/git config (--global )?(--get )?core\.excludesfile/] },
    },
    {
      id: 'entire-tool-errors',
      kind: 'tool-noise',
      what: "The agent tool's own errors: edit before read, ambiguous replace, file changed since read, a rejected tool use.",
      why: "About the agent client's edit protocol, not the repository.",
      sessions: [
        { session: 'bc3bf53b-19fe-4209-b30a-a1acffaf6703', where: 'U1' },
        { session: '569aed7b-6ead-4790-a3fe-c7028466112c', where: 'U4' },
        { session: 'c26d2153-23c8-42ed-ab6c-808579b64e5b', where: 'U2-U6' },
      ],
      match: { all: [/has not been read|read it first|replace_all|modified since read|doesn.t want to proceed/i] },
    },
    {
      id: 'entire-replies',
      kind: 'reply',
      what: 'Short answers to the agent ("yes", "sorry, continue", a typo for exit).',
      why: 'Replies to a question in the moment; no content of their own.',
      sessions: [
        { session: '9fd328aa-ecda-4618-b1ed-047b284117c6', where: 'U2' },
        { session: '4ec443d0-063b-4de3-8ede-e35160c2c1de', where: 'U2, U6' },
        { session: 'e5fcdc73-b9fc-4991-b532-6bf8440fd12d', where: 'U2, U3' },
      ],
      match: { all: [/^\W*(yes|continue|sorry,? continue|exot)\W*$/i] },
    },
  ],
};
