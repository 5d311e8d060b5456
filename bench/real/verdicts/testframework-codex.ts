import type { CorpusVerdicts } from '../types';

// One verdict per rule a learner proposed on this corpus, judged against the labels and the transcripts (README-labels.md,
// "Verdicts"). Keyed by normalizeRuleText(rule); rules that are someone's words or carry personal data by its hash.
export const verdicts: CorpusVerdicts = {
  corpus: 'testframework-codex',
  verdicts: {
    'run `python3`, not `python`: it is not installed here (it fails with `/bin/bash: line 1: python: command not found`)':
      { verdict: 'useful', reason: 'python is missing in five sessions, python3 works', label: 'tf-python3' },
    'sha256:7070a018a23a432d2f43a4784b884924154a44aefc6a948307a96af918fe4817': {
      verdict: 'harmful',
      reason: 'the BMAD persona prompt taken as a convention',
      trap: 'tf-persona',
    },
    "run `sed -n '1,200p' _bmad/bmm/workflows/3-solutioning/create-architecture/steps/step-01-init.md`, not `sed -n '1,200p' _bmad/bmm/workflows/3-solutioning/architecture/steps/step-01-init.md`: it fails with `sed: can't read _bmad/bmm/workflows/3-solutioning/architecture/steps/step-01-init.md: no such file or directory`":
      {
        verdict: 'useful',
        reason:
          'the architecture steps are under create-architecture/ (the wrong folder failed in four sessions), as it ran',
        label: 'tf-step-files',
      },
    'sha256:188ca74c9c0e1797864f1f0136c06ada0948184d29a96f365ba97bb0476053d8': {
      verdict: 'harmful',
      reason:
        "a commit with a person's name and e-mail address, set up once, presented as the fix for an unrelated rev-parse",
      trap: 'tf-personal-data',
    },
    "run `rg --files -g '*epic*.md' ~/test-framework/_bmad-output/planning-artifacts`, not `rg --files -g '*epic*.md' ~/test-framework/_bmad-output/implementation-artifacts`: it fails with `exit code: 1`":
      {
        verdict: 'harmful',
        reason: 'a search that found nothing read as a failure, with a home-folder path that exists on one machine',
        trap: 'tf-rg-no-match',
      },
    "run `rg --files -g '*architecture*.md' ~/test-framework/_bmad-output/planning-artifacts`, not `rg --files -g '*prd*/index.md' ~/test-framework/_bmad-output/planning-artifacts`: it fails with `exit code: 1`":
      {
        verdict: 'harmful',
        reason: 'a search that found nothing read as a failure, with a home-folder path that exists on one machine',
        trap: 'tf-rg-no-match',
      },
    "run `rg --files -g '*prd*.md' ~/test-framework/_bmad-output/planning-artifacts`, not `rg --files -g '*.md' ~/test-framework/_bmad-output/planning-artifacts | rg '/prd[^/]*?/.*\\.md$'`: it fails with `exit code: 1`":
      {
        verdict: 'harmful',
        reason: 'a search that found nothing read as a failure, with a home-folder path that exists on one machine',
        trap: 'tf-rg-no-match',
      },
    'sha256:7e142b4255c3dc36d06f4e8079263b5ae0917f6a33a3e4f2aa415312076813ba': {
      verdict: 'harmful',
      reason: 'an injected workflow instruction taken as a convention; the @bmad path does not exist',
      trap: 'tf-critical-load',
    },
    "run `rg --files -g 'architecture.md' -g 'tech-spec*.md'`, not `rg --files -g 'package.json' -g 'playwright.config.*' -g 'cypress.config.*' -g 'cypress.json'`: it fails with `exit code: 1`":
      {
        verdict: 'false',
        reason: 'two unrelated searches; the first found nothing, which is not a failure',
        trap: 'tf-rg-no-match',
      },
    "run `node - <<'js'`, not `python - <<'py'`: it fails with `/bin/bash: line 1: python: command not found`": {
      verdict: 'false',
      reason: 'python is missing, but the fix is python3, not a bare node heredoc head',
      label: 'tf-python3',
    },
    "run `sed -n '1,200p' _bmad/core/tasks/help.md`, not `sed -n '1,200p' _bmad/core/tasks/bmad-help.md`: it fails with `sed: can't read _bmad/core/tasks/bmad-help.md: no such file or directory`":
      {
        verdict: 'useful',
        reason: 'the help task is help.md, not bmad-help.md (missed in five sessions), as it ran',
        label: 'tf-help-task',
      },
    "run `rg --files | rg 'github-ops\\.md$'`, not `rg --files | rg '^bmad/bmm/agents/github-ops\\.md$'`: it fails with `exit code: 1`":
      { verdict: 'false', reason: 'a search that found nothing read as a failure', trap: 'tf-rg-no-match' },
    "a bmad workflow's step files are in the `steps/` (or `steps-c/`, `steps-v/`) folder beside its workflow.md; the architecture workflow is `_bmad/bmm/workflows/3-solutioning/create-architecture/` (there is no `3-solutioning/architecture/`). list the workflow folder before opening a step":
      {
        verdict: 'useful',
        reason:
          'step files live in steps/ folders and the architecture workflow is create-architecture/ (six sessions)',
        label: 'tf-step-files',
      },
    '`gh` is not authenticated in this environment (`gh auth status` exits 1) and the sandbox cannot reach github.com (`gh auth login --web` fails): ask the user to authenticate instead of retrying gh commands':
      {
        verdict: 'useful',
        reason: 'gh unauthenticated and github.com unreachable in two sessions; asking the user is the way',
        label: 'tf-gh-auth',
      },
    "quote api paths that contain `?` or `&` (`gh api 'repos/.../alerts?state=open&per_page=100'`): unquoted, the shell backgrounds the command at `&` and runs the rest as a new command (exit 127)":
      {
        verdict: 'trivial',
        reason: 'generic shell quoting of & and ? that any agent knows; seen once',
        label: 'tf-quote-url',
      },
    'the bmad help task is `_bmad/core/tasks/help.md` (its prompt is `.codex/prompts/bmad-help.md`); `_bmad/core/tasks/bmad-help.md` does not exist':
      {
        verdict: 'useful',
        reason: 'the help task path, stated by the user and missed in five sessions',
        label: 'tf-help-task',
      },
    '`python` is not installed (exit 127, "python: command not found"); use `python3` (e.g. `python3 - <<\'py\' ... py`)':
      { verdict: 'useful', reason: 'python missing (exit 127) in five sessions; python3 works', label: 'tf-python3' },
    'the bmad files are under `_bmad/` (and outputs under `_bmad-output/`): the `@bmad/...` paths in the slash prompts mean `_bmad/...`; `bmad/...` and `@bmad/...` do not exist':
      {
        verdict: 'useful',
        reason: 'the files are under _bmad/, not the @bmad/ the prompts name (three sessions)',
        label: 'tf-bmad-folder',
      },
    'the prd to use is `_bmad-output/planning-artifacts/prd.md`; do not load or include the other prd documents (the earlier ones under `_bmad-output/prd/`)':
      {
        verdict: 'useful',
        reason: 'the PRD of record, stated by the user in three sessions',
        label: 'tf-prd-of-record',
      },
    'sha256:f42eb7d6addef07a001ab7ae3e0393d2b1fb496004491264e5d0a0eda3af605b': {
      verdict: 'harmful',
      reason: 'the BMAD persona prompt taken as a convention',
      trap: 'tf-persona',
    },
    'always write clean, well-tested code': { verdict: 'trivial', reason: 'generic advice any agent follows' },
    "remember: a bmad workflow's step files are in the `steps/` (or `steps-c/`, `steps-v/`) folder beside its workflow.md; the architecture workflow is `_bmad/bmm/workflows/3-solutioning/create-architecture/` (there is no `3-solutioning/architecture/`). list the workflow folder before opening a step":
      {
        verdict: 'useful',
        reason:
          'step files live in steps/ folders and the architecture workflow is create-architecture/ (six sessions)',
        label: 'tf-step-files',
      },
    'sha256:04b8ebe8c87d70dea23ac5b1c76b32437cdaa261ea16c2b946f625997e13532d': {
      verdict: 'harmful',
      reason: 'the BMAD persona prompt taken as a convention, truncated',
      trap: 'tf-persona',
    },
    'remember: `gh` is not authenticated in this environment (`gh auth status` exits 1) and the sandbox cannot reach github.com (`gh auth login --web` fails): ask the user to authenticate instead of retrying gh commands':
      {
        verdict: 'useful',
        reason: 'gh unauthenticated and github.com unreachable in two sessions; asking the user is the way',
        label: 'tf-gh-auth',
      },
    "remember: quote api paths that contain `?` or `&` (`gh api 'repos/.../alerts?state=open&per_page=100'`): unquoted, the shell backgrounds the command at `&` and runs the rest as a new command (exit 127)":
      {
        verdict: 'trivial',
        reason: 'generic shell quoting of & and ? that any agent knows; seen once',
        label: 'tf-quote-url',
      },
    'sha256:5f205676aa17051e84cd8f279cc25a8535a6064146f4502cd8d26c6ea445de47': {
      verdict: 'harmful',
      reason: 'an injected workflow instruction taken as a convention',
      trap: 'tf-critical-load',
    },
    'run `cat` before committing': {
      verdict: 'harmful',
      reason: 'a broken command: a bare cat (waits on stdin) presented as a pre-commit step',
    },
    'remember: the bmad help task is `_bmad/core/tasks/help.md` (its prompt is `.codex/prompts/bmad-help.md`); `_bmad/core/tasks/bmad-help.md` does not exist':
      {
        verdict: 'useful',
        reason: 'the help task path, stated by the user and missed in five sessions',
        label: 'tf-help-task',
      },
    "run `rg --files -g '*epic*.md' ~/test-framework/_bmad-output/implementation-artifacts` before committing": {
      verdict: 'harmful',
      reason: 'a search that found nothing, with a home-folder path, presented as a pre-commit step',
      trap: 'tf-rg-no-match',
    },
    'remember: `python` is not installed (exit 127, "python: command not found"); use `python3` (e.g. `python3 - <<\'py\' ... py`)':
      { verdict: 'useful', reason: 'python missing (exit 127) in five sessions; python3 works', label: 'tf-python3' },
    'sha256:ddca682779b27aeb0bc3d5f5b28baffb3a20b2fe0c8244f991e7d28276ac669e': {
      verdict: 'harmful',
      reason: 'an injected workflow instruction taken as a convention; the @bmad path does not exist',
      trap: 'tf-critical-load',
    },
    'run `cat ~/test-framework/@bmad/bmm/workflows/3-solutioning/create-architecture/workflow.md` before committing': {
      verdict: 'harmful',
      reason: 'reading a path that does not exist (@bmad, home folder) presented as a pre-commit step',
    },
    'remember: the bmad files are under `_bmad/` (and outputs under `_bmad-output/`): the `@bmad/...` paths in the slash prompts mean `_bmad/...`; `bmad/...` and `@bmad/...` do not exist':
      {
        verdict: 'useful',
        reason: 'the files are under _bmad/, not the @bmad/ the prompts name (three sessions)',
        label: 'tf-bmad-folder',
      },
    'remember: the prd to use is `_bmad-output/planning-artifacts/prd.md`; do not load or include the other prd documents (the earlier ones under `_bmad-output/prd/`)':
      {
        verdict: 'useful',
        reason: 'the PRD of record, stated by the user in three sessions',
        label: 'tf-prd-of-record',
      },
    "run `rg --files -g 'package.json' -g 'playwright.config.*' -g 'cypress.config.*' -g 'cypress.json'` before committing":
      {
        verdict: 'false',
        reason: 'a one-off search that found nothing presented as a pre-commit step',
        trap: 'tf-rg-no-match',
      },
    'sha256:4c404c3442975d521ca7f35a4df38e0264026bfddd71ff920eb2c72754cd700d': {
      verdict: 'harmful',
      reason: 'the BMAD persona prompt taken as a convention, truncated',
      trap: 'tf-persona',
    },
    'run `rg ` before committing': {
      verdict: 'harmful',
      reason: 'a broken command: a bare rg presented as a pre-commit step',
    },
    'run `cat ~/test-framework/bmad/bmm/agents/pm.md` before committing': {
      verdict: 'harmful',
      reason:
        'reading a path that does not exist (bmad/ instead of _bmad/, home folder) presented as a pre-commit step',
    },
    'run `cat ~/test-framework/_bmad/bmm/workflows/3-solutioning/check-implementation-readiness/step-01-document-discovery.md` before committing':
      {
        verdict: 'harmful',
        reason:
          'reading a step path that does not exist (no steps/ folder, home folder) presented as a pre-commit step',
      },
    "run `rg --files | rg '^bmad/bmm/agents/github-ops\\.md$'` before committing": {
      verdict: 'false',
      reason: 'a one-off search that found nothing presented as a pre-commit step',
      trap: 'tf-rg-no-match',
    },
    'run `cat ~/test-framework/_bmad/bmm/workflows/1-analysis/brainstorming/workflow.md` before committing': {
      verdict: 'harmful',
      reason: 'reading one workflow through a home-folder path presented as a pre-commit step',
    },
    '`_bmad/bmm/workflows/3-solutioning/create-architecture/steps/step-01-init.md` is the file to read: `_bmad/bmm/workflows/3-solutioning/architecture/steps/step-01-init.md` does not exist':
      {
        verdict: 'useful',
        reason: 'the architecture step files are under create-architecture/ (the wrong folder failed in four sessions)',
        label: 'tf-step-files',
      },
    '`_bmad/bmm/workflows/3-solutioning/check-implementation-readiness/steps/step-01-document-discovery.md` is the file to read: `_bmad/bmm/workflows/3-solutioning/check-implementation-readiness/step-01-document-discovery.md` does not exist':
      {
        verdict: 'useful',
        reason: 'step files sit in steps/ beside workflow.md; the path without it failed in two sessions',
        label: 'tf-step-files',
      },
    '`_bmad/core/tasks/help.md` is the file to read: `_bmad/core/tasks/bmad-help.md` does not exist': {
      verdict: 'useful',
      reason: 'the help task is help.md; bmad-help.md failed in five sessions and help.md was read in two',
      label: 'tf-help-task',
    },
    'in `_bmad/bmm/workflows/3-solutioning/`, look in `create-architecture/`, not `architecture/`: `architecture/steps/step-01-init.md` does not exist, `create-architecture/steps/step-01-init.md` does':
      {
        verdict: 'useful',
        reason:
          'the architecture workflow folder is create-architecture/ (architecture/ failed in four sessions, its ls too in two)',
        label: 'tf-step-files',
      },
    'look in `_bmad/`, not `bmad/`: `bmad/bmm/agents/pm.md` does not exist, `_bmad/bmm/agents/pm.md` does': {
      verdict: 'useful',
      reason: 'bmad/ (019c0ad7) and @bmad/ (019c1110) were read for _bmad/, which held the same files',
      label: 'tf-bmad-folder',
    },
    '`gh auth status` fails here for want of a login (it failed so in every session that ran it): ask the user to authenticate instead of retrying':
      {
        verdict: 'useful',
        reason:
          'gh auth status failed in both sessions that ran it (019c1dbd not logged in, 019c1e77 token invalid); only the user could log in',
        label: 'tf-gh-auth',
      },
    'use `_bmad-output/planning-artifacts/prd.md`, not `_bmad-output/planning-artifacts/prd-validation.md`: asked which of these files to use, the user chose it':
      {
        verdict: 'useful',
        reason:
          'asked which PRD to use, the user named planning-artifacts/prd.md in three sessions (019c0f0c, 019c10a1, 019c1110) over the other PRD files found',
        label: 'tf-prd-of-record',
      },
  },
};
