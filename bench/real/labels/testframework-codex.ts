import type { CorpusLabels } from '../types';

// Codex CLI rollouts of a BMAD planning project (prompts in French). Sessions are named by their rollout file; "U<n>" is
// the n-th user message (event_msg user_message), counting the injected persona prompt as U1.
const s = (stamp: string) => `rollout-${stamp}.jsonl`;

export const labels: CorpusLabels = {
  corpus: 'testframework-codex',
  summary:
    'Planning documents written through BMAD personas; almost no code. What recurs is about the environment and the ' +
    'BMAD layout: `python` is missing (python3 works), the prompts say @bmad/ but the files are in _bmad/, step files ' +
    'sit in each workflow’s steps/ folder (there is no 3-solutioning/architecture/), the help task is ' +
    '_bmad/core/tasks/help.md, the PRD of record is _bmad-output/planning-artifacts/prd.md, and gh is not ' +
    'authenticated. Hundreds of user turns are menu choices and confirmations; every session opens with a persona prompt.',
  lessons: [
    {
      id: 'tf-python3',
      statement:
        '`python` is not installed (exit 127, "python: command not found"); use `python3` (e.g. `python3 - <<\'PY\' … PY`).',
      kind: 'pitfall',
      sessions: [
        {
          session: s('2026-01-29T10-08-57-019c0903-4db8-77f1-bb5c-2183c4691391'),
          where: 'U4: python exit 127, python3 succeeds',
        },
        {
          session: s('2026-01-29T18-40-15-019c0ad7-6b05-73c0-827b-4ac8bc514f16'),
          where: 'U4: python exit 127, falls back to awk',
        },
        { session: s('2026-01-30T10-40-15-019c0e46-511b-76b0-9b34-e11f79456986'), where: 'U46: python exit 127' },
        { session: s('2026-01-30T14-16-50-019c0f0c-9c5d-7081-99a9-f4829741831a'), where: 'U15: python exit 127' },
        { session: s('2026-01-31T09-43-24-019c1338-a2d7-7d73-a2f1-4e2a119fd82d'), where: 'U3: python exit 127' },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: {
        all: [
          /\bpython3\b/,
          /\bpython\b(?!3)[^.]{0,60}(not (installed|found|available)|missing|127)|instead of `?python\b(?!3)|not `?python\b(?!3)/i,
        ],
      },
    },
    {
      id: 'tf-bmad-folder',
      statement:
        'The BMAD files are under `_bmad/` (and outputs under `_bmad-output/`): the `@bmad/…` paths in the slash prompts ' +
        'mean `_bmad/…`; `bmad/…` and `@bmad/…` do not exist.',
      kind: 'convention',
      sessions: [
        {
          session: s('2026-01-29T18-40-15-019c0ad7-6b05-73c0-827b-4ac8bc514f16'),
          where: 'U1: cat bmad/bmm/agents/pm.md, exit 1',
        },
        {
          session: s('2026-01-30T23-40-14-019c1110-6c78-7101-a89d-814cc74cbf46'),
          where: 'U1: cat …/@bmad/bmm/workflows/…, exit 1',
        },
        {
          session: s('2026-02-02T14-07-36-019c1e77-3ccb-7d60-846f-15cb9578e7fe'),
          where: 'U1: search for bmad/bmm/agents/github-ops.md finds nothing',
        },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/_bmad\//, /@bmad|(?<![_\w])bmad\//] },
    },
    {
      id: 'tf-step-files',
      statement:
        "A BMAD workflow's step files are in the `steps/` (or `steps-c/`, `steps-v/`) folder beside its workflow.md; the " +
        'architecture workflow is `_bmad/bmm/workflows/3-solutioning/create-architecture/` (there is no ' +
        '`3-solutioning/architecture/`). List the workflow folder before opening a step.',
      kind: 'pitfall',
      sessions: [
        {
          session: s('2026-01-29T18-38-30-019c0ad5-cf90-74d3-a0e2-a7c499bee5d9'),
          where: 'U2: architecture/steps/step-01-init.md, exit 1 and 2',
        },
        { session: s('2026-01-30T10-37-45-019c0e44-072e-7fe2-bdbf-e2ddc405a22e'), where: 'U2: same path, exit 2' },
        { session: s('2026-01-30T14-16-50-019c0f0c-9c5d-7081-99a9-f4829741831a'), where: 'U2: same path, exit 2' },
        {
          session: s('2026-01-30T23-40-14-019c1110-6c78-7101-a89d-814cc74cbf46'),
          where: 'U1 same; U4 check-implementation-readiness step without steps/',
        },
        {
          session: s('2026-01-30T21-38-34-019c10a1-059b-7a32-a713-9416d996fdc5'),
          where: 'U2: step-01-document-discovery.md without steps/, exit 1',
        },
        {
          session: s('2026-01-29T18-40-15-019c0ad7-6b05-73c0-827b-4ac8bc514f16'),
          where: 'U2: steps-c/step-01-init.md at the wrong level, exit 1',
        },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/create-architecture|steps(-[cv])?\/|steps folder/] },
    },
    {
      id: 'tf-help-task',
      statement:
        'The BMAD help task is `_bmad/core/tasks/help.md` (its prompt is `.codex/prompts/bmad-help.md`); ' +
        '`_bmad/core/tasks/bmad-help.md` does not exist.',
      kind: 'convention',
      sessions: [
        {
          session: s('2026-01-30T21-38-34-019c10a1-059b-7a32-a713-9416d996fdc5'),
          where: 'U4 fails; U5-U6 the user gives both paths',
        },
        { session: s('2026-01-29T18-40-15-019c0ad7-6b05-73c0-827b-4ac8bc514f16'), where: 'U28: bmad-help.md, exit 1' },
        { session: s('2026-01-30T10-40-15-019c0e46-511b-76b0-9b34-e11f79456986'), where: 'U41: exit 1' },
        { session: s('2026-01-30T14-16-50-019c0f0c-9c5d-7081-99a9-f4829741831a'), where: 'U39: exit 2' },
        { session: s('2026-01-30T15-18-42-019c0f45-4143-7112-8bd8-317529e3c409'), where: 'U111: exit 1' },
        { session: s('2026-01-30T23-40-14-019c1110-6c78-7101-a89d-814cc74cbf46'), where: 'U5: exit 1' },
      ],
      repeated: true,
      standing: true,
      repoStates: 'unknown',
      match: { all: [/tasks\/help\.md/] },
      note: 'Stated once by the user, missed in five other sessions.',
    },
    {
      id: 'tf-prd-of-record',
      statement:
        'The PRD to use is `_bmad-output/planning-artifacts/prd.md`; do not load or include the other PRD documents ' +
        '(the earlier ones under `_bmad-output/prd/`).',
      kind: 'convention',
      sessions: [
        { session: s('2026-01-30T14-16-50-019c0f0c-9c5d-7081-99a9-f4829741831a'), where: 'U3' },
        { session: s('2026-01-30T21-38-34-019c10a1-059b-7a32-a713-9416d996fdc5'), where: 'U3' },
        { session: s('2026-01-30T23-40-14-019c1110-6c78-7101-a89d-814cc74cbf46'), where: 'U5' },
      ],
      repeated: true,
      standing: true,
      repoStates: 'unknown',
      match: { all: [/planning-artifacts\/prd\.md/] },
    },
    {
      id: 'tf-gh-auth',
      statement:
        '`gh` is not authenticated in this environment (`gh auth status` exits 1) and the sandbox cannot reach github.com ' +
        '(`gh auth login --web` fails): ask the user to authenticate instead of retrying gh commands.',
      kind: 'pitfall',
      sessions: [
        {
          session: s('2026-02-02T10-44-15-019c1dbd-113a-7ae0-aa36-e2a64f2ff0b3'),
          where: 'U1-U3: gh auth status, gh auth login fail',
        },
        {
          session: s('2026-02-02T14-07-36-019c1e77-3ccb-7d60-846f-15cb9578e7fe'),
          where: 'U1: gh auth status, token invalid',
        },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/\bgh\b/, /auth/i] },
    },
    {
      id: 'tf-quote-url',
      statement:
        "Quote API paths that contain `?` or `&` (`gh api 'repos/…/alerts?state=open&per_page=100'`): unquoted, the shell " +
        'backgrounds the command at `&` and runs the rest as a new command (exit 127).',
      kind: 'pitfall',
      sessions: [
        {
          session: s('2026-02-02T10-44-15-019c1dbd-113a-7ae0-aa36-e2a64f2ff0b3'),
          where: 'U13: --jq: command not found, exit 127',
        },
      ],
      repeated: false,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/quot/i, /[&?]|query string|ampersand/i, /url|path|gh api/i] },
    },
  ],
  traps: [
    {
      id: 'tf-persona',
      kind: 'injected',
      what: 'The BMAD agent-activation prompt at the start of ten sessions (embody the persona, never break character, load the agent file, show the menu).',
      why: 'A slash-command expansion repeated verbatim; context for the session, not the user’s lesson.',
      sessions: [
        { session: s('2026-01-29T10-08-57-019c0903-4db8-77f1-bb5c-2183c4691391'), where: 'U1' },
        { session: s('2026-01-30T10-40-15-019c0e46-511b-76b0-9b34-e11f79456986'), where: 'U1' },
        { session: s('2026-02-02T14-07-36-019c1e77-3ccb-7d60-846f-15cb9578e7fe'), where: 'U1' },
      ],
      match: { all: [/persona|break character|activation/i] },
    },
    {
      id: 'tf-critical-load',
      kind: 'injected',
      what: 'Workflow slash commands: "it is critical that you follow this command: load the full @bmad/… workflow", and the workflow.xml core-OS instruction.',
      why: 'Expansions of slash prompts stored in .codex/prompts; repeated per invocation, not a rule.',
      sessions: [
        { session: s('2026-01-30T15-18-42-019c0f45-4143-7112-8bd8-317529e3c409'), where: 'U1' },
        { session: s('2026-01-30T23-40-14-019c1110-6c78-7101-a89d-814cc74cbf46'), where: 'U1, U4, U6' },
      ],
      match: { all: [/load the full|workflow\.xml|it is critical/i] },
    },
    {
      id: 'tf-agents-md-block',
      kind: 'injected',
      what: 'The AGENTS.md skills block and environment context Codex injects at the start of every session.',
      why: "Injected by the client (the repository's own AGENTS.md and Codex's skill list); restating it adds nothing.",
      sessions: [{ session: s('2026-01-29T18-38-30-019c0ad5-cf90-74d3-a0e2-a7c499bee5d9'), where: 'before U1' }],
      match: { all: [/skill-creator|skill-installer|progressive disclosure|environment_context/i] },
    },
    {
      id: 'tf-menu-replies',
      kind: 'reply',
      what: 'Menu choices and confirmations: "C", "CA", "CP", "1", "y", "oui", "ok", "je valide", "suggère".',
      why: 'Answers to the persona’s menu; the majority of user turns, with no content of their own.',
      sessions: [
        { session: s('2026-01-30T15-18-42-019c0f45-4143-7112-8bd8-317529e3c409'), where: 'U2-U114' },
        { session: s('2026-01-30T10-40-15-019c0e46-511b-76b0-9b34-e11f79456986'), where: 'U2-U74' },
      ],
      match: { all: [/^\W*(c|ca|cp|cu|y|oui|ok|1|je valide|suggère)\W*$/i] },
    },
    {
      id: 'tf-product-content',
      kind: 'task-request',
      what: 'Product answers written into the planning documents (local LLM first, anonymisation, evidence tied to a test execution, a label per delivery lot, a regression campaign as precondition).',
      why: 'Requirements of the product being specified, some with "never"; not instructions for an agent working in the repository.',
      sessions: [
        { session: s('2026-01-29T18-40-15-019c0ad7-6b05-73c0-827b-4ac8bc514f16'), where: 'U16-U23' },
        { session: s('2026-01-30T15-18-42-019c0f45-4143-7112-8bd8-317529e3c409'), where: 'U39, U61, U74' },
      ],
      match: { all: [/anonymi|llm local|local llm|numéro de lot|\blot\b|TNR|squash|jira/i] },
    },
    {
      id: 'tf-personal-data',
      kind: 'personal-data',
      what: "The user's full name given as a template value, a GitHub user name in gh api paths and CODEOWNERS, the home folder in every path, secret names for CI.",
      why: 'Personal data and account names; never a rule.',
      sessions: [
        { session: s('2026-01-29T18-40-15-019c0ad7-6b05-73c0-827b-4ac8bc514f16'), where: 'U35' },
        { session: s('2026-02-02T10-44-15-019c1dbd-113a-7ae0-aa36-e2a64f2ff0b3'), where: 'U7, U14' },
      ],
      match: { all: [/\/home\/[a-z]|CODEOWNERS|repos\/[A-Z]\w+\/|TEST_USER_EMAIL|OPENAI_API_KEY/] },
    },
    {
      id: 'tf-rg-no-match',
      kind: 'no-match',
      what: '`rg --files -g …` exiting 1 (nothing matched) or 2 (a listed folder such as docs/ does not exist, matches still printed), then another search.',
      why: 'A search that finds nothing is an answer; the next search is not its fix.',
      sessions: [
        { session: s('2026-01-30T21-38-34-019c10a1-059b-7a32-a713-9416d996fdc5'), where: 'U2: four searches, exit 1' },
        { session: s('2026-01-30T10-40-15-019c0e46-511b-76b0-9b34-e11f79456986'), where: 'U2, U41, U43, U46' },
      ],
      match: { all: [/\brg\b|ripgrep/, /exit (code )?[12]|no match|-g\b/i] },
    },
    {
      id: 'tf-one-offs',
      kind: 'one-off',
      what: 'A 404 installing an npm package that does not exist, a skill script without execute permission, GitHub API 403/404 for branch protection and Dependabot on a private repository, git author identity not set.',
      why: 'Each happened once in one task.',
      sessions: [
        { session: s('2026-01-30T10-40-15-019c0e46-511b-76b0-9b34-e11f79456986'), where: 'U67' },
        { session: s('2026-01-31T21-35-06-019c15c4-3501-7390-a4f5-0e708c344665'), where: 'U3' },
        { session: s('2026-02-02T10-44-15-019c1dbd-113a-7ae0-aa36-e2a64f2ff0b3'), where: 'U3, U4, U13, U14' },
      ],
      match: { all: [/excalidraw-cli|list-curated-skills|branch protection|dependabot|author identity/i] },
    },
    {
      id: 'tf-deliverable-language',
      kind: 'task-request',
      what: 'Asking for one deliverable in English, in detail, while the conversation is in French.',
      why: 'About one document; the BMAD config sets the languages.',
      sessions: [{ session: s('2026-01-29T10-08-57-019c0903-4db8-77f1-bb5c-2183c4691391'), where: 'U50' }],
      match: { all: [/english/i, /deliverable|livrable|document/i] },
    },
  ],
};
