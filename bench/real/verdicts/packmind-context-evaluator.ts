import type { CorpusVerdicts } from '../types';

// One verdict per rule a learner proposed on this corpus, judged against the labels and the transcripts (README-labels.md,
// "Verdicts"). Keyed by normalizeRuleText(rule); rules that are someone's words or carry personal data by its hash.
export const verdicts: CorpusVerdicts = {
  corpus: 'packmind-context-evaluator',
  verdicts: {
    "after editing, run `bun run lint`, `bun run typecheck` and `bun run test` and fix what they report before finishing: `bun run lint` failed on the agent's own edits and passed once they were fixed":
      {
        verdict: 'useful',
        reason:
          "biome lint (and the tests once) failed on the agents' own edits in five sessions and passed once fixed; the pre-commit hook runs the same checks",
        label: 'pack-verify',
      },
    "run `rtk test bun run test`, not `rtk bun run test`: the plain form fails with `error: unrecognized subcommand 'bun'`":
      {
        verdict: 'useful',
        reason: 'rtk has no bun subcommand; rtk test bun run test passed in several sessions',
        label: 'pack-rtk-bun',
      },
    'build with `bun run css:build`': { verdict: 'trivial', reason: 'a package.json script any agent finds' },
    'run the tests with `bun run test`': {
      verdict: 'trivial',
      reason: 'a package.json script any agent finds; says nothing of the rtk form that fails',
    },
    "run `bun run test`, not `rtk bun run test 2>&1`: it fails with `error: unrecognized subcommand 'bun'`": {
      verdict: 'useful',
      reason: 'rtk has no bun subcommand (17 sessions); bun run test directly works',
      label: 'pack-rtk-bun',
    },
    'lint with `bun run lint`': {
      verdict: 'trivial',
      reason: 'a package.json script any agent finds; the pre-commit hook runs it',
      label: 'pack-verify',
    },
    'build with `cd ~/code/agents-md-evaluator/frontend && bun run css:build 2>&1`': {
      verdict: 'harmful',
      reason: "a cd into the developer's own home checkout: runs on one machine only",
      trap: 'pack-home-path',
    },
    '`~/code/agents-md-evaluator/frontend/src/components/remediationhistory.tsx` and `~/code/agents-md-evaluator/frontend/src/components/remediationhistorycard.tsx` change together: when you edit one, update the other':
      {
        verdict: 'harmful',
        reason: 'home-folder paths of two components in one task: personal path, one-task co-change',
        trap: 'pack-home-path',
      },
    '`~/code/agents-md-evaluator/prompts/context-remediation/packmind-remediation-skill-creation.md` and `~/code/agents-md-evaluator/src/shared/remediation/prompt-generator.ts` change together: when you edit one, update the other':
      {
        verdict: 'harmful',
        reason: 'home-folder paths of one prompt and one generator in one task: personal path, one-task co-change',
        trap: 'pack-home-path',
      },
    'sha256:497f31323851f9e98d3ace91da314876451d437ffaa19cba340c3b7f205c3a67': {
      verdict: 'false',
      reason: 'a description of the UI from a plan, not a rule',
      trap: 'pack-plan-prefix',
    },
    'typecheck with `bun run typecheck`': {
      verdict: 'trivial',
      reason: 'a package.json script any agent finds; the pre-commit hook runs it',
      label: 'pack-verify',
    },
    'run `git add src/shared/types/remediation.ts frontend/src/types/remediation.ts src/shared/remediation/summary-parser.ts src/shared/remediation/summary-parser.test.ts frontend/src/styles.css frontend/src/components/remediationhistorycard.tsx`, not `git add src/shared/types/remediation.ts frontend/src/types/remediation.ts src/shared/remediation/summary-parser.ts src/shared/remediation/summary-parser.test.ts frontend/src/styles.css frontend/src/components/remediationhistorycard.tsx frontend/dist/output.css`: it fails with `failed: git add`':
      {
        verdict: 'false',
        reason: 'a list of files of one commit; the lesson behind it (frontend/dist is ignored) is not said',
        label: 'pack-css-build',
      },
    'sha256:55d9c0158903c15e7cf1d7d6a125d3a49f5b26afe70641486e2ba691c30f4b2d': {
      verdict: 'false',
      reason: 'a line of a plan describing one CSS class',
      trap: 'pack-plan-prefix',
    },
    'sha256:73e58dc9bad67fb6aa204890c1ff8c18213c02b32540f2d01f8b793897028a70': {
      verdict: 'false',
      reason: 'a step of one plan',
      trap: 'pack-plan-prefix',
    },
    "run `rtk test bun run test 2>&1`, not `rtk bun run test 2>&1`: the plain form fails with `error: unrecognized subcommand 'bun'`":
      {
        verdict: 'useful',
        reason: 'rtk bun fails, rtk test bun run test passed in two sessions',
        label: 'pack-rtk-bun',
      },
    'sha256:fd543b5496d78966cd4f603d59a0c77d4d576d712b904ebc0a3d96158c216a92': {
      verdict: 'false',
      reason: 'the heading of one plan',
      trap: 'pack-plan-prefix',
    },
    'sha256:04d91d5bd7259a438b76aafede6d21fdafcda2128c2f2e78b8a97fc722db56bc': {
      verdict: 'false',
      reason: 'a line of one plan describing product content',
      trap: 'pack-plan-prefix',
    },
    'sha256:c808d3796b911015db2ee3b6c267d3d890e040b9eeada68db6b756dd2762781d': {
      verdict: 'false',
      reason: 'a fact about one field in one file, from a plan',
      trap: 'pack-plan-prefix',
    },
    "run `sed -n '865,867p' ~/code/agents-md-evaluator/frontend/src/components/remediatetab.tsx | od -c | head -20`, not `sed -n '865,867p' ~/code/agents-md-evaluator/frontend/src/components/remediatetab.tsx | cat -a`: it fails with `cat: illegal option -- a`":
      {
        verdict: 'harmful',
        reason: "shows the od -c fix but on one line range of one file through the developer's home folder",
        trap: 'pack-home-path',
      },
    'sha256:a6c211f2606b6a7048397b7076f0017f3bd8ee01ec135379e739503c365e2b93': {
      verdict: 'false',
      reason: 'a line of code from one analysis',
    },
    'sha256:08658189a4d588bff63931ad5646353b853c746c0a2e556dc3e335ba96140e39': {
      verdict: 'false',
      reason: 'a step of one plan',
      trap: 'pack-plan-prefix',
    },
    'sha256:92219d7c04642d0bdb978832832802ddb6ddaec329523aa2504ebf6798188f22': {
      verdict: 'false',
      reason: 'a step of one plan',
      trap: 'pack-plan-prefix',
    },
    'sha256:6f3747785194695ec77abbe7194f3b7d26e0a40c5b0b8a99f4d9c0cc57ae5329': {
      verdict: 'false',
      reason: 'a reply in the moment (someone else edited one file)',
    },
    "source files are indented with tabs, so an edit whose old text uses spaces does not match. look at the exact whitespace with `sed -n 'n,mp' <file> | cat -vet` or `od -c`: `cat -a` fails here (bsd cat on macos, and cat is routed through rtk read, which rejects -a)":
      {
        verdict: 'useful',
        reason: 'tabs broke edits in eight sessions and cat -A fails here; the working alternatives are named',
        label: 'pack-tabs',
      },
    'leftover evaluation clones in `tmp/clones/agents-eval-*` make `bun test src/` fail (hundreds of failures from the clones), and with it the pre-commit hook: remove them (`rm -rf tmp/clones/...`) and commit again':
      {
        verdict: 'useful',
        reason: 'leftover tmp/clones broke the tests and the pre-commit hook in five sessions; removing them fixed it',
        label: 'pack-tmp-clones',
      },
    '`rtk` has no `bun` subcommand: `rtk bun run test` fails with exit 2 ("unrecognized subcommand"). run `bun run test`, `bun run lint` and `bun run typecheck` directly (or through `rtk test bun run test`)':
      {
        verdict: 'useful',
        reason: 'rtk has no bun subcommand (17 sessions); the working forms are named',
        label: 'pack-rtk-bun',
      },
    'user-facing changes and releases go into changelog.md: update it with the change, and before tagging a release (`release/<version>`) bump the version in package.json and add the changelog.md entry':
      {
        verdict: 'useful',
        reason: 'the changelog and version bump were asked in two sessions and are not said by the scripts',
        label: 'pack-changelog',
      },
    "command output is condensed by rtk (git status as a summary, gh api json as a schema); to get the raw output run the command through `rtk proxy`, e.g. `rtk proxy gh api <path> --jq '...'`":
      {
        verdict: 'useful',
        reason: 'rtk condenses output, and rtk proxy gives the raw JSON (seen once, true of every command here)',
        label: 'pack-rtk-proxy',
      },
    'there is no `commit` skill here (the skill call fails with "unknown skill: commit"): to commit, review `git status` and `git diff`, then `git add <files> && git commit`':
      {
        verdict: 'useful',
        reason: 'the missing commit skill failed in seven sessions; the manual commit steps replace it',
        label: 'pack-no-commit-skill',
      },
    'other agents and the user edit the working tree at the same time: when committing, stage only the files you changed, by name, and do not let a formatter rewrite files you did not touch':
      {
        verdict: 'useful',
        reason: 'concurrent edits by others in three sessions; staging only own files avoids committing them',
        label: 'pack-stage-own-files',
      },
    'sha256:85b7b8e6d56ba50c2ed0a1665ae5c1a04bee9c71acce37f716425deb77dbb211': {
      verdict: 'false',
      reason: 'the plan-mode opening of a task request, with no content of its own',
      trap: 'pack-plan-prefix',
    },
    'always write clean, well-tested code': { verdict: 'trivial', reason: 'generic advice any agent follows' },
    "remember: source files are indented with tabs, so an edit whose old text uses spaces does not match. look at the exact whitespace with `sed -n 'n,mp' <file> | cat -vet` or `od -c`: `cat -a` fails here (bsd cat on macos, and cat is routed through rtk read, which rejects -a)":
      {
        verdict: 'useful',
        reason: 'tabs broke edits in eight sessions and cat -A fails here; the working alternatives are named',
        label: 'pack-tabs',
      },
    'sha256:ab619c54bedd78a288656538825799a861c37eec7846b04a406b7545b720b959': {
      verdict: 'false',
      reason: 'a task request about one sentence of the home page',
    },
    'remember: leftover evaluation clones in `tmp/clones/agents-eval-*` make `bun test src/` fail (hundreds of failures from the clones), and with it the pre-commit hook: remove them (`rm -rf tmp/clones/...`) and commit again':
      {
        verdict: 'useful',
        reason: 'leftover tmp/clones broke the tests and the pre-commit hook in five sessions; removing them fixed it',
        label: 'pack-tmp-clones',
      },
    'remember: `rtk` has no `bun` subcommand: `rtk bun run test` fails with exit 2 ("unrecognized subcommand"). run `bun run test`, `bun run lint` and `bun run typecheck` directly (or through `rtk test bun run test`)':
      {
        verdict: 'useful',
        reason: 'rtk has no bun subcommand (17 sessions); the working forms are named',
        label: 'pack-rtk-bun',
      },
    'remember: user-facing changes and releases go into changelog.md: update it with the change, and before tagging a release (`release/<version>`) bump the version in package.json and add the changelog.md entry':
      {
        verdict: 'useful',
        reason: 'the changelog and version bump were asked in two sessions and are not said by the scripts',
        label: 'pack-changelog',
      },
    "remember: command output is condensed by rtk (git status as a summary, gh api json as a schema); to get the raw output run the command through `rtk proxy`, e.g. `rtk proxy gh api <path> --jq '...'`":
      {
        verdict: 'useful',
        reason: 'rtk condenses output, and rtk proxy gives the raw JSON (seen once, true of every command here)',
        label: 'pack-rtk-proxy',
      },
    'remember: there is no `commit` skill here (the skill call fails with "unknown skill: commit"): to commit, review `git status` and `git diff`, then `git add <files> && git commit`':
      {
        verdict: 'useful',
        reason: 'the missing commit skill failed in seven sessions; the manual commit steps replace it',
        label: 'pack-no-commit-skill',
      },
    'sha256:9571d730b50aa6112934134d70af9126f73d1b464ee3c4325021eb9bf57bbf04': {
      verdict: 'false',
      reason: 'a task request about the header bar',
      trap: 'pack-ui-requests',
    },
    'sha256:84511692be743c04612ad7ca2160c3a3261472851bec0970531409d28983c132': {
      verdict: 'false',
      reason: 'a product request about one label',
      trap: 'pack-ui-requests',
    },
    'remember: other agents and the user edit the working tree at the same time: when committing, stage only the files you changed, by name, and do not let a formatter rewrite files you did not touch':
      {
        verdict: 'useful',
        reason: 'concurrent edits by others in three sessions; staging only own files avoids committing them',
        label: 'pack-stage-own-files',
      },
    'sha256:bbaf8cd187531b7cd3c0a45ef085ee227e0693f759739a72a5e025083a04acdc': {
      verdict: 'false',
      reason: 'a product request about cloud mode',
      trap: 'pack-ui-requests',
    },
    'run `bun run typecheck 2>&1` before committing': {
      verdict: 'trivial',
      reason: 'the pre-commit hook already runs bun run typecheck; a package.json script',
      label: 'pack-verify',
    },
    'sha256:4139304b379ed73235e4fe5ce54c86fd8ae3cad264a40831d2189a79a5a897b1': {
      verdict: 'false',
      reason: 'a one-off report of a broken logo',
      trap: 'pack-corrupt-logo',
    },
    'run `bun run test 2>&1` before committing': {
      verdict: 'trivial',
      reason: 'the pre-commit hook already runs bun run test; a package.json script',
      label: 'pack-verify',
    },
    "run `bun run test`, not `rtk bun run test`: it fails with `error: unrecognized subcommand 'bun'`": {
      verdict: 'useful',
      reason: 'rtk has no bun subcommand (17 sessions); bun run test directly works',
      label: 'pack-rtk-bun',
    },
    'there is no `commit` for the `skill` tool here: asking for it fails with `unknown skill: commit`': {
      verdict: 'useful',
      reason: 'the commit Skill call failed the same way in seven sessions; knowing it is absent saves the call',
      label: 'pack-no-commit-skill',
    },
    'when `bun run lint` fails, run `bun run lint:fix`, then `bun run lint` again': {
      verdict: 'useful',
      reason: 'biome formatting and import-order failures fixed by lint:fix, then lint passing, in several sessions',
      label: 'pack-lint-fix',
    },
    'when `git commit` fails on files under `tmp/clones/`, remove what is there (`rm -rf tmp/clones/...`) and run it again: those files, not the change, made it fail':
      {
        verdict: 'useful',
        reason:
          "the hook's bun tests failed on leftover evaluation clones; removing them let the same commit pass with no edit (90499da5, 6b9a263d)",
        label: 'pack-tmp-clones',
      },
    'after editing files under `frontend/`, run `bun run css:build` in `frontend/` (`cd frontend && bun run css:build`): sessions that changed files there rebuilt with it':
      {
        verdict: 'useful',
        reason:
          'after editing frontend/src styles and components, tailwind was rebuilt with css:build in frontend/ in three sessions (90499da5, e304c70b, ffc44f28); omits that frontend/dist is gitignored',
        label: 'pack-css-build',
      },
  },
};
