import type { CorpusVerdicts } from '../types';

// One verdict per rule a learner proposed on this corpus, judged against the labels and the transcripts (README-labels.md,
// "Verdicts"). Keyed by normalizeRuleText(rule); rules that are someone's words or carry personal data by its hash.
export const verdicts: CorpusVerdicts = {
  corpus: 'entireio-cli',
  verdicts: {
    "after editing, run `mise run lint` and `mise run test` and fix what they report before finishing: `mise run lint` failed on the agent's own edits and passed once they were fixed":
      {
        verdict: 'trivial',
        reason:
          "true (lint failed on the agents' own Go edits in three sessions), but CLAUDE.md already says to run mise run fmt && mise run lint, as the careful model's rule was judged",
        label: 'entire-lint',
      },
    'a cd stays in effect for the rest of the command line and for the next shell calls: repository-relative paths then name nothing. run repository commands from the repository root, or cd back to it first (`.claude/skills/test-repo/test-harness.sh` was not found after a cd, and was from the root)':
      {
        verdict: 'useful',
        reason:
          'a cd persisted into later calls (a032db5a) or the rest of the line (f6833005) and broke repository-relative paths; from the root they worked',
        label: 'entire-cwd',
      },
    'remember: a `cd` in one shell call stays in effect for the next calls: after `cd cmd/entire/cli/integration_test` (or into /tmp/entire-test-repo), repository-relative paths in git and harness commands fail (doubled path, exit 128; harness not found, exit 127). run git and repository scripts from the repository root, or prefix the call with `cd` to the root':
      { verdict: 'useful', reason: 'the labelled lesson with a filler word in front', label: 'entire-cwd' },
    'a `cd` in one shell call stays in effect for the next calls: after `cd cmd/entire/cli/integration_test` (or into /tmp/entire-test-repo), repository-relative paths in git and harness commands fail (doubled path, exit 128; harness not found, exit 127). run git and repository scripts from the repository root, or prefix the call with `cd` to the root':
      {
        verdict: 'useful',
        reason: 'the labelled lesson: a cd persists into later shell calls and breaks repository-relative paths',
        label: 'entire-cwd',
      },
    'sha256:40f1caf360776c051e4d93d15e1500907a8a679e382c25f9c24b093cce9e9cf5': {
      verdict: 'false',
      reason: 'an aside of a question to the agent about one change, not a rule',
      trap: 'entire-replies',
    },
    'lint with `mise run lint`': {
      verdict: 'trivial',
      reason: 'CLAUDE.md already says to run mise run fmt && mise run lint before committing',
      label: 'entire-lint',
    },
    'lint with `mise run lint 2>&1`': {
      verdict: 'trivial',
      reason: 'CLAUDE.md already says to run mise run fmt && mise run lint before committing; 2>&1 adds nothing',
      label: 'entire-lint',
    },
    'run the tests with `mise run test`': {
      verdict: 'trivial',
      reason: 'CLAUDE.md already gives mise run test',
      label: 'entire-test-one',
    },
    'sha256:c7b8e4f086bda77d3a1d61295a1c02f998ad72eec4682a806f45144118e72180': {
      verdict: 'false',
      reason: 'a review-bot finding about one .env change, not a standing rule',
      trap: 'entire-review-findings',
    },
    "run `cd ~/work/entire/devenv/cli && git add cmd/entire/cli/integration_test/testenv.go cmd/entire/cli/strategy/hooks_test.go`, not `git add cmd/entire/cli/integration_test/testenv.go`: the plain form fails with `warning: could not open directory 'cmd/entire/cli/integration_test/cmd/entire/cli/integration_test/': no such file or...`":
      {
        verdict: 'harmful',
        reason:
          "cd into the developer's own home checkout and two named files: runs on one machine only; the lesson is to run git from the repository root",
        trap: 'entire-personal-data',
      },
    "run `git status --short` before `git diff --cached cmd/entire/cli/strategy/hooks_test.go cmd/entire/cli/integration_test/testenv.go`: without it `git diff --cached cmd/entire/cli/strategy/hooks_test.go cmd/entire/cli/integration_test/testenv.go` fails with `fatal: ambiguous argument 'cmd/entire/cli/strategy/hooks_test.go': unknown revision or path not in the working tree.`":
      {
        verdict: 'false',
        reason:
          'misreads a doubled path after cd as a missing git status; about two files, and the prescribed order fixes nothing',
      },
    'sha256:c021ff0cc42a5a4906ea79d780b49458bed426799e6e65106cd468ec198fc049': {
      verdict: 'false',
      reason: 'a review-bot finding about one function, not a standing rule',
      trap: 'entire-review-findings',
    },
    'run `cd /tmp/entire-test-repo && git add app.js`, not `cd /tmp/entire-test-repo && git add app.js && export strategy=manual-commit && .claude/skills/test-repo/test-harness.sh create-transcript && .claude/skills/test-repo/test-harness.sh stop-session`: it fails with `(eval):1: no such file or directory: .claude/skills/test-repo/test-harness.sh`':
      {
        verdict: 'harmful',
        reason:
          'tells agents to skip the test-repo harness steps; the failure came from running them outside the repository root',
      },
    'sha256:ed9cf02e7c10c8139880514367dc9468075d04bbe69f3f6478e6d152880c9779': {
      verdict: 'false',
      reason: 'a reply to one edit quoted mid-sentence; the standing part (settings.json is committed) is truncated',
      label: 'entire-settings-committed',
    },
    'build with `go build ./...`': {
      verdict: 'trivial',
      reason: 'go build ./... is what any agent runs in a Go module',
    },
    'sha256:ca2d94c68c21fabcd748a67d99901796a2e4a24c7e5129d07e19616d23de8651': {
      verdict: 'false',
      reason:
        "a reply to one edit ('the first part'); CLAUDE.md already says manual-commit adds the trailer through a hook",
      label: 'entire-trailers',
    },
    'sha256:17b9c1f147de661aa7e639d7686284a70c344addc1a18f05f1decebc4f36b397': {
      verdict: 'false',
      reason: 'a pasted review-bot finding about one flag, not a standing rule',
      trap: 'entire-review-findings',
    },
    'sha256:e296a31c39c1cc15eba0b5bee38779b19adbf065df3841dba9964bffc4c1aae9': {
      verdict: 'false',
      reason: 'a question to the agent about one change, not a rule',
    },
    'sha256:8ef8c8ee90b60d2c36f02fcfd57bb7d941f299f49a9da81a2372b3532610b778': {
      verdict: 'harmful',
      reason: "a one-off diagnosis naming the developer's own global git ignore file",
      trap: 'entire-personal-data',
    },
    'sha256:8567786e77f614e42c308e1fd1f85c8ef669a795e148877eb8f992885746377f': {
      verdict: 'false',
      reason: "a reply about one piece of code ('this is obsolete'); only half of the trailer convention",
      label: 'entire-trailers',
    },
    'sha256:a9d400da0b976b805f1aeb1c47632ba9e7100c0e412c1dd4d49dd3f44d4659e2': {
      verdict: 'false',
      reason: 'a wording comment on one document, a task request',
    },
    'sha256:5c7d87acfef4f8fd2ebfda1b726bb8055d526d51f7f29f3716ce4aedc2b209d6': {
      verdict: 'false',
      reason: 'a remark about one session in the moment, not a rule',
    },
    'sha256:51c5a4474d2b36999d1903ad007391134361b9eb0cbb91034506981723031808': {
      verdict: 'false',
      reason: 'a request to change one message of one command, a task request',
    },
    'after editing go code, run `mise run fmt && mise run lint` (gofmt, then golangci-lint) from the repository root and fix every finding before finishing: the linters (noctx, wrapcheck, gocritic among them) fail on code that compiles and passes the tests':
      {
        verdict: 'trivial',
        reason:
          'CLAUDE.md already says to run mise run fmt && mise run lint before committing and to write lint-compliant code',
        label: 'entire-lint',
      },
    'run the unit tests with `mise run test` (go test ./...); to run one test pass go test flags after `--`, as in `mise run test -- -run testhasuncommittedchanges -v`':
      {
        verdict: 'useful',
        reason:
          'CLAUDE.md gives mise run test but not how to run one test through it (-- -run), which agents used in four sessions',
        label: 'entire-test-one',
      },
    'integration tests are behind the `integration` build tag in cmd/entire/cli/integration_test/: run them with `mise run test:integration` (one test: `mise run test:integration -- -run "testtestenv_initrepo"`); a plain `mise run test` does not compile them':
      {
        verdict: 'trivial',
        reason: 'CLAUDE.md already gives mise run test:integration, the integration build tag and the folder',
        label: 'entire-integration',
      },
    "tests that create git repositories must not depend on or change the developer's global git config: set what they need in the test repository (e.g. `commit.gpgsign false`, a repository-local `core.excludesfile`), never with --global":
      {
        verdict: 'useful',
        reason:
          'true in two sessions (a global gpgsign broke tests; a test touching global excludes worried the user); not in CLAUDE.md',
        label: 'entire-test-git-config',
      },
    'before the test-repo harness steps, rebuild the cli with `go build -o /tmp/entire-bin ./cmd/entire` (the harness runs /tmp/entire-bin, and its cleanup removes it), then run `.claude/skills/test-repo/test-harness.sh <step>` from the repository root with `strategy=manual-commit` or `strategy=auto-commit` exported':
      {
        verdict: 'trivial',
        reason: 'the test-repo skill file already states the build and the harness steps; one session',
        label: 'entire-test-repo-skill',
      },
    '`.entire/` is not ignored as a whole: `.entire/settings.json` is meant to be committed (only local files inside it are ignored)':
      {
        verdict: 'useful',
        reason: 'a standing correction by the user: .entire/settings.json is committed',
        label: 'entire-settings-committed',
      },
    'checkpoint naming: commits on the code branch carry the trailer `entire-checkpoint: <id>` with both strategies (manual-commit adds it through git hooks); on the metadata branch (entire/checkpoints/v1, formerly entire/sessions) the commit subject is `checkpoint: <id>`, not a trailer; there is no `entire-session` trailer any more':
      {
        verdict: 'useful',
        reason: 'the trailer convention the user corrected in three sessions; the CLAUDE.md of the time said otherwise',
        label: 'entire-trailers',
      },
    "review comments on a pull request (including review bots) are read with `gh pr view --json number,url` and then `gh api repos/entireio/cli/pulls/<number>/comments --jq '...'`; `gh pr view` alone does not show the inline comments":
      {
        verdict: 'useful',
        reason: 'how inline review comments were read in two sessions: gh api on the pull comments',
        label: 'entire-pr-comments',
      },
    'sha256:8fc8dfba455ae737aef045b16ceb063d7050d0cc39c1e1b304764916f6f79cd2': {
      verdict: 'false',
      reason: 'a fragment of a user message, cut mid-sentence',
      trap: 'entire-local-dev-design',
    },
    'always write clean, well-tested code': { verdict: 'trivial', reason: 'generic advice any agent follows' },
    'remember: after editing go code, run `mise run fmt && mise run lint` (gofmt, then golangci-lint) from the repository root and fix every finding before finishing: the linters (noctx, wrapcheck, gocritic among them) fail on code that compiles and passes the tests':
      {
        verdict: 'trivial',
        reason:
          'CLAUDE.md already says to run mise run fmt && mise run lint before committing and to write lint-compliant code',
        label: 'entire-lint',
      },
    'sha256:1393ecc2e9096175c684910348660b710913c30761e8386c2aae8291feaedf4d': {
      verdict: 'false',
      reason: 'a task request about one README section',
    },
    'sha256:7e762a02366a028bd93f1b73207ef445ece9a4d874253eee92101746277e7394': {
      verdict: 'false',
      reason: 'a task request introducing pasted review feedback',
      trap: 'entire-review-findings',
    },
    'remember: run the unit tests with `mise run test` (go test ./...); to run one test pass go test flags after `--`, as in `mise run test -- -run testhasuncommittedchanges -v`':
      {
        verdict: 'useful',
        reason:
          'CLAUDE.md gives mise run test but not how to run one test through it (-- -run), which agents used in four sessions',
        label: 'entire-test-one',
      },
    'sha256:80f484948ac5ef86e638169485581011570cf268239943ddbb9b0edd76c6c6cf': {
      verdict: 'false',
      reason: 'a task request (review this branch)',
    },
    'remember: integration tests are behind the `integration` build tag in cmd/entire/cli/integration_test/: run them with `mise run test:integration` (one test: `mise run test:integration -- -run "testtestenv_initrepo"`); a plain `mise run test` does not compile them':
      {
        verdict: 'trivial',
        reason: 'CLAUDE.md already gives mise run test:integration, the integration build tag and the folder',
        label: 'entire-integration',
      },
    "remember: tests that create git repositories must not depend on or change the developer's global git config: set what they need in the test repository (e.g. `commit.gpgsign false`, a repository-local `core.excludesfile`), never with --global":
      {
        verdict: 'useful',
        reason:
          'true in two sessions (a global gpgsign broke tests; a test touching global excludes worried the user); not in CLAUDE.md',
        label: 'entire-test-git-config',
      },
    'sha256:cc21e76f096a737f138773cf421d592a0d2eb9a4273643a42b262b1b2527951e': {
      verdict: 'false',
      reason: 'a task request (bump the Go version once)',
    },
    'sha256:344b199d94698062253e3015615e41b92a3ad77745921755a52d49bf349fd09d': {
      verdict: 'false',
      reason: 'a pasted review finding about one regex',
      trap: 'entire-review-findings',
    },
    'run `mise run test` before committing': {
      verdict: 'trivial',
      reason: 'CLAUDE.md says exactly this',
      label: 'entire-test-one',
    },
    'sha256:e1e39ee89e1c585d2b4c13714f419f4bbf334d149508520769ef1f39336b0325': {
      verdict: 'false',
      reason: 'a task request (use the test-repo skill once)',
    },
    'run `export ` before committing': {
      verdict: 'harmful',
      reason: 'a broken command: a bare export presented as a pre-commit step',
    },
    'remember: before the test-repo harness steps, rebuild the cli with `go build -o /tmp/entire-bin ./cmd/entire` (the harness runs /tmp/entire-bin, and its cleanup removes it), then run `.claude/skills/test-repo/test-harness.sh <step>` from the repository root with `strategy=manual-commit` or `strategy=auto-commit` exported':
      {
        verdict: 'trivial',
        reason: 'the test-repo skill file already states the build and the harness steps; one session',
        label: 'entire-test-repo-skill',
      },
    'remember: `.entire/` is not ignored as a whole: `.entire/settings.json` is meant to be committed (only local files inside it are ignored)':
      {
        verdict: 'useful',
        reason: 'a standing correction by the user: .entire/settings.json is committed',
        label: 'entire-settings-committed',
      },
    'sha256:f744cdba82462ef59bb5149c001c5d4784aa8eb1c9797b684b0485591d5acc47': {
      verdict: 'false',
      reason: 'a fragment of a user message about one command output',
    },
    'sha256:1cd963e40ffdeb42fe83fa873bfeaed686ee5de92315696bc4a37cfdf0ecd6f6': {
      verdict: 'false',
      reason: 'a task request to update documentation',
    },
    'remember: checkpoint naming: commits on the code branch carry the trailer `entire-checkpoint: <id>` with both strategies (manual-commit adds it through git hooks); on the metadata branch (entire/checkpoints/v1, formerly entire/sessions) the commit subject is `checkpoint: <id>`, not a trailer; there is no `entire-session` trailer any more':
      {
        verdict: 'useful',
        reason: 'the trailer convention the user corrected in three sessions; the CLAUDE.md of the time said otherwise',
        label: 'entire-trailers',
      },
    'sha256:d367b45893df4e388fa6023a87550c8675744573dca78158ca8427e026636790': {
      verdict: 'false',
      reason: 'an observation about one push from a fork, not a rule',
    },
    'sha256:aca2da626a17a7d98cacdd47087c7ed85af9a41f2228f2cc1e667edceac0c536': {
      verdict: 'false',
      reason: 'a bug report of one day, a task request',
    },
    'sha256:e2b9f7db25b57f460eb988c10102b47383397cbfb3b0201041389a88921983d2': {
      verdict: 'false',
      reason: 'a task request (check one branch setup)',
    },
    'sha256:85b7b8e6d56ba50c2ed0a1665ae5c1a04bee9c71acce37f716425deb77dbb211': {
      verdict: 'false',
      reason: 'the plan-mode opening of a task request, with no content of its own',
    },
    'run `go test -tags=e2e -c ./cmd/entire/cli/e2e_test/... -o /dev/null 2>&1` before committing': {
      verdict: 'false',
      reason: 'compiling the e2e tests was a check in one review-fix session, not a standing pre-commit step',
    },
    "remember: review comments on a pull request (including review bots) are read with `gh pr view --json number,url` and then `gh api repos/entireio/cli/pulls/<number>/comments --jq '...'`; `gh pr view` alone does not show the inline comments":
      {
        verdict: 'useful',
        reason: 'how inline review comments were read in two sessions: gh api on the pull comments',
        label: 'entire-pr-comments',
      },
    'sha256:4e11d25359b0cee390ba2c2c9ff36dec213b396961e4409a5806605e1a6fea67': {
      verdict: 'false',
      reason: 'a task request (fix the local branch)',
    },
    "run `cd ~/work/entire/devenv/entire.io && go run -exec 'env' /dev/stdin <<'` before committing": {
      verdict: 'harmful',
      reason: "a truncated heredoc go run in the developer's home folder presented as a pre-commit step",
      trap: 'entire-one-offs',
    },
    'sha256:6083636c929a23d2de63964aaf176a5369f3950ed031dfbba6f4634ebd32a92f': {
      verdict: 'false',
      reason: 'a question to the agent',
    },
    'sha256:ce653b816da675f0b9b08b30aedfa669bde346db7238e32ea4ec8709ed50fc1b': {
      verdict: 'false',
      reason: 'a task request (look at PR comments), not the workflow',
    },
    'sha256:291dae1612bba2cf63b22f3c252f711d2be2f3c88e227e423e9ee52d9f3625e6': {
      verdict: 'false',
      reason: 'a question to the agent',
    },
    'sha256:6a42d8f356f024d58adb53f8ececf2912b75f5e44a73b352df712a934528e113': {
      verdict: 'false',
      reason: 'a fragment of a user message introducing pasted output',
    },
  },
};
