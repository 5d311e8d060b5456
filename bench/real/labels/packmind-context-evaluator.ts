import type { CorpusLabels } from '../types';

// Claude Code sessions on agents-md-evaluator (Bun/TypeScript, React frontend). Sessions are named by their sessionId;
// "U<n>" is the n-th user turn.
export const labels: CorpusLabels = {
  corpus: 'packmind-context-evaluator',
  summary:
    'A plan-then-commit routine. What recurs: `rtk bun run test` failing in nearly every session before the agent runs ' +
    'bun directly, biome formatting failures fixed with lint:fix, the pre-commit hook (test, lint, typecheck) failing ' +
    'because of leftover clones in tmp/clones, edits failing on tab indentation with `cat -A` unavailable, the frontend ' +
    'CSS build, and staging only the files one changed while others edit the tree. Most user turns are "Implement the ' +
    'following plan" and "commit".',
  lessons: [
    {
      id: 'pack-rtk-bun',
      statement:
        '`rtk` has no `bun` subcommand: `rtk bun run test` fails with exit 2 ("unrecognized subcommand"). Run ' +
        '`bun run test`, `bun run lint` and `bun run typecheck` directly (or through `rtk test bun run test`).',
      kind: 'pitfall',
      sessions: [
        { session: '27940602-ca7b-46d4-b3b3-d020dc3f5c10', where: 'U1: rtk bun run test, exit 2, then bun run test' },
        { session: '3c794a22-3def-441a-affd-b7ff986fb3bf', where: 'U1' },
        { session: '3c7e488d-d200-4459-a292-559880d9917c', where: 'U1' },
        { session: '4d885b17-c8b2-4562-851d-6d2161584447', where: 'U1: then rtk test bun run test passes' },
        { session: '540a8f92-9d04-4794-9d44-a53d78eedef2', where: 'U1' },
        { session: '5e1ab9a6-bf0e-4850-bd88-c2e45dea3d20', where: 'U1' },
        { session: '6b9a263d-1a81-4e82-9f5b-ff2279ce7257', where: 'U1' },
        { session: '90d7d497-3674-4a89-96de-0f970d08271b', where: 'U3: rtk bun run typecheck' },
        { session: 'a0af77b8-ee75-466c-83f6-8e72f887ac3e', where: 'U1' },
        { session: 'b03b1822-6b0a-407a-822f-deb5ef18c9d6', where: 'U1' },
        { session: 'b1fc4610-ba60-44d9-b9b5-f3f393e86f96', where: 'U1' },
        { session: 'b8985a85-0eb6-42eb-bd56-f2c213aed2fd', where: 'U1' },
        { session: 'd0c07c08-0bd1-4add-a82d-58ed5152399e', where: 'U1' },
        { session: 'd3c029a9-e149-4ea7-be95-6b5487a2303e', where: 'U1' },
        { session: 'e08c4b79-41bc-4fcf-ba24-d5b1b14a9fd1', where: 'U1: then rtk test bun run test passes' },
        { session: 'e304c70b-8de4-48b6-afa4-ecbfba4a89e7', where: 'U1' },
        { session: 'eebd3a1f-e19c-493e-8e1a-e4098d91cf0f', where: 'U1' },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/\brtk\b/, /\bbun\b/] },
    },
    {
      id: 'pack-verify',
      statement:
        'Verify from the repository root with `bun run test` (bun test src/), `bun run lint` (biome check ' +
        '--error-on-warnings) and `bun run typecheck` (tsc --noEmit): the pre-commit hook runs these three and refuses the commit when one fails.',
      kind: 'workflow',
      sessions: [
        { session: '0fd74558-5f74-4d12-b961-629f0d41d4b7', where: 'U1: test, lint (fails on format), typecheck' },
        { session: '31b1be44-3380-444d-8a6f-78bc9463a310', where: 'U2: git commit rejected by the hook' },
        { session: '85ec650c-1911-4729-b965-12859c513c01', where: 'U4: the agent reads .husky/pre-commit' },
        {
          session: '9baef004-ea21-4f67-acf2-16ad2d84098a',
          where: 'U3: lint fails (useExhaustiveDependencies), typecheck',
        },
        { session: '90499da5-31f8-4177-a6ca-95705254e7f9', where: 'U1, U2' },
      ],
      repeated: true,
      standing: false,
      repoStates: 'yes',
      match: { all: [/bun run test|bun test/, /bun run lint|biome/], none: [/\brtk\b/] },
      note: 'package.json scripts and .husky/pre-commit (shown in 85ec650c) state it.',
    },
    {
      id: 'pack-lint-fix',
      statement:
        'When `bun run lint` fails on formatting or import order ("Formatter would have printed…", organizeImports), run ' +
        '`bun run lint:fix` (biome check --write), then `bun run lint` again.',
      kind: 'workflow',
      sessions: [
        { session: '66a75a73-185d-421f-a3ab-9f1430f4367d', where: 'U1' },
        { session: '4d885b17-c8b2-4562-851d-6d2161584447', where: 'U1' },
        { session: '90499da5-31f8-4177-a6ca-95705254e7f9', where: 'U1' },
        { session: '90d7d497-3674-4a89-96de-0f970d08271b', where: 'U3' },
        { session: 'b03b1822-6b0a-407a-822f-deb5ef18c9d6', where: 'U2' },
        { session: 'd3c029a9-e149-4ea7-be95-6b5487a2303e', where: 'U1' },
        { session: 'e304c70b-8de4-48b6-afa4-ecbfba4a89e7', where: 'U2' },
        { session: 'e08c4b79-41bc-4fcf-ba24-d5b1b14a9fd1', where: 'U2' },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/lint:fix|biome check --write/] },
    },
    {
      id: 'pack-tmp-clones',
      statement:
        'Leftover evaluation clones in `tmp/clones/agents-eval-*` make `bun test src/` fail (hundreds of failures from the ' +
        'clones), and with it the pre-commit hook: remove them (`rm -rf tmp/clones/…`) and commit again.',
      kind: 'pitfall',
      sessions: [
        {
          session: '6b9a263d-1a81-4e82-9f5b-ff2279ce7257',
          where: 'U2: commit fails, tmp/clones removed, commit passes',
        },
        { session: '85ec650c-1911-4729-b965-12859c513c01', where: 'U4: same' },
        { session: '90499da5-31f8-4177-a6ca-95705254e7f9', where: 'U2: same' },
        { session: 'e08c4b79-41bc-4fcf-ba24-d5b1b14a9fd1', where: 'U3: same, four clones' },
        {
          session: 'd2482b67-f255-4b19-a489-939cc3d29d78',
          where: 'U1: test output cites a module missing under tmp/clones',
        },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/tmp\/clones/] },
    },
    {
      id: 'pack-tabs',
      statement:
        'Source files are indented with tabs, so an edit whose old text uses spaces does not match. Look at the exact ' +
        "whitespace with `sed -n 'N,Mp' <file> | cat -vet` or `od -c`: `cat -A` fails here (BSD cat on macOS, and cat is " +
        'routed through rtk read, which rejects -A).',
      kind: 'pitfall',
      sessions: [
        { session: '0fd74558-5f74-4d12-b961-629f0d41d4b7', where: 'U1: cat -A illegal option, od -c' },
        {
          session: '66a75a73-185d-421f-a3ab-9f1430f4367d',
          where: 'U1: rtk read rejects -A, /bin/cat -A illegal, cat -v',
        },
        { session: '90499da5-31f8-4177-a6ca-95705254e7f9', where: 'U1' },
        { session: 'b03b1822-6b0a-407a-822f-deb5ef18c9d6', where: 'U1: python repr shows tabs' },
        { session: 'd0c07c08-0bd1-4add-a82d-58ed5152399e', where: 'U1: cat -vet shows ^I' },
        { session: 'e08c4b79-41bc-4fcf-ba24-d5b1b14a9fd1', where: 'U1: xxd shows 09' },
        { session: '5d998f35-d197-4b42-b453-0e33615d4587', where: 'U1' },
        { session: '9aa079d0-1add-45fa-bfb2-933f14c37cbc', where: 'U1' },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/\btabs?\b.{0,40}indent|indent.{0,40}\btabs?\b|cat -A|cat -vet|od -c/i] },
    },
    {
      id: 'pack-css-build',
      statement:
        'After changing frontend components or styles, rebuild the CSS with `bun run css:build` in `frontend/` (tailwind ' +
        'into frontend/dist/output.css); `frontend/dist/` is gitignored, so do not stage it; return to the repository ' +
        'root for `bun run lint` (frontend/ has no lint script).',
      kind: 'workflow',
      sessions: [
        { session: '90499da5-31f8-4177-a6ca-95705254e7f9', where: 'U1 css:build; U2 git add of frontend/dist refused' },
        {
          session: 'e304c70b-8de4-48b6-afa4-ecbfba4a89e7',
          where: 'U1 css:build; U2 lint in frontend/: script not found',
        },
        { session: 'ffc44f28-b453-4499-9cb2-65c5b9f2c2ed', where: 'U3 css:build' },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/css:build|frontend\/dist/] },
    },
    {
      id: 'pack-stage-own-files',
      statement:
        'Other agents and the user edit the working tree at the same time: when committing, stage only the files you ' +
        'changed, by name, and do not let a formatter rewrite files you did not touch.',
      kind: 'convention',
      sessions: [
        {
          session: '31b1be44-3380-444d-8a6f-78bc9463a310',
          where: 'U3-U4: lint:fix touched App.tsx, edited by someone else; stopped',
        },
        { session: '90d7d497-3674-4a89-96de-0f970d08271b', where: 'U3: another agent worked on the same files' },
        { session: '5e1ab9a6-bf0e-4850-bd88-c2e45dea3d20', where: 'U2: commit of named files among 12 modified' },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: {
        all: [
          /stage|git add|commit/i,
          /only (the )?(files|what) (you|that you|it) (changed|edited|touched)|by name|other agents?|someone else/i,
        ],
      },
    },
    {
      id: 'pack-no-commit-skill',
      statement:
        'There is no `commit` skill here (the Skill call fails with "Unknown skill: commit"): to commit, review `git status` ' +
        'and `git diff`, then `git add <files> && git commit`.',
      kind: 'pitfall',
      sessions: [
        { session: '0fd74558-5f74-4d12-b961-629f0d41d4b7', where: 'U2' },
        { session: '3c794a22-3def-441a-affd-b7ff986fb3bf', where: 'U2' },
        { session: '85ec650c-1911-4729-b965-12859c513c01', where: 'U4' },
        { session: '90d7d497-3674-4a89-96de-0f970d08271b', where: 'U4' },
        { session: 'a0af77b8-ee75-466c-83f6-8e72f887ac3e', where: 'U2' },
        { session: 'd3c029a9-e149-4ea7-be95-6b5487a2303e', where: 'U2' },
        { session: 'e08c4b79-41bc-4fcf-ba24-d5b1b14a9fd1', where: 'U3' },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/skill/i, /commit/i] },
    },
    {
      id: 'pack-changelog',
      statement:
        'User-facing changes and releases go into CHANGELOG.md: update it with the change, and before tagging a release ' +
        '(`release/<version>`) bump the version in package.json and add the CHANGELOG.md entry.',
      kind: 'convention',
      sessions: [
        { session: '540a8f92-9d04-4794-9d44-a53d78eedef2', where: 'U2: commit and update the changelog' },
        {
          session: 'eebd3a1f-e19c-493e-8e1a-e4098d91cf0f',
          where: 'U2: update package.json and the changelog before the release tag',
        },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/changelog/i] },
      note: 'Asked in two tasks, not stated as a standing rule.',
    },
    {
      id: 'pack-rtk-proxy',
      statement:
        'Command output is condensed by rtk (git status as a summary, gh api JSON as a schema); to get the raw output run ' +
        "the command through `rtk proxy`, e.g. `rtk proxy gh api <path> --jq '…'`.",
      kind: 'pitfall',
      sessions: [
        {
          session: 'eebd3a1f-e19c-493e-8e1a-e4098d91cf0f',
          where: 'U2: gh api shows a schema until run through rtk proxy',
        },
      ],
      repeated: false,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/rtk proxy/] },
    },
  ],
  traps: [
    {
      id: 'pack-plan-prefix',
      kind: 'task-request',
      what: 'The "Implement the following plan:" opening with a whole plan (context, files, steps) in most sessions.',
      why: 'A plan made in plan mode for one change; its contents are the task, not standing rules.',
      sessions: [
        { session: '4294a5e3-385b-40c0-bee9-90c2eca56689', where: 'U1' },
        { session: '31b1be44-3380-444d-8a6f-78bc9463a310', where: 'U1' },
        { session: '540a8f92-9d04-4794-9d44-a53d78eedef2', where: 'U1' },
      ],
      match: { all: [/implement the following plan/i] },
    },
    {
      id: 'pack-commit-request',
      kind: 'task-request',
      what: '"commit", "commit this", "commit your changes" at the end of nearly every session.',
      why: 'The user asks each time; a rule to commit after every change would act without being asked.',
      sessions: [
        { session: '0fd74558-5f74-4d12-b961-629f0d41d4b7', where: 'U2' },
        { session: 'b8985a85-0eb6-42eb-bd56-f2c213aed2fd', where: 'U2' },
        { session: 'ffc44f28-b453-4499-9cb2-65c5b9f2c2ed', where: 'U7' },
      ],
      match: {
        all: [/(always|automatically|after (each|every)).{0,40}commit|commit.{0,30}(after (each|every)|when done)/i],
      },
    },
    {
      id: 'pack-no-verify',
      kind: 'reply',
      what: 'The user allowing one commit with --no-verify after the hook failed on someone else’s file.',
      why: 'A one-time permission; as a rule it would skip the hook that runs the tests (harmful).',
      sessions: [{ session: '31b1be44-3380-444d-8a6f-78bc9463a310', where: 'U5' }],
      match: { all: [/--no-verify/] },
    },
    {
      id: 'pack-ui-requests',
      kind: 'task-request',
      what: 'Product requests phrased with "should not" (which label to show for Copilot instructions, what to hide in cloud mode, colours of tab counts).',
      why: 'Each describes one change to the UI; the negation is about the product, not a rule for agents.',
      sessions: [
        { session: '5e1ab9a6-bf0e-4850-bd88-c2e45dea3d20', where: 'U1' },
        { session: '6b9a263d-1a81-4e82-9f5b-ff2279ce7257', where: 'U1' },
        { session: 'ffc44f28-b453-4499-9cb2-65c5b9f2c2ed', where: 'U1' },
        { session: 'e08c4b79-41bc-4fcf-ba24-d5b1b14a9fd1', where: 'U2' },
      ],
      match: { all: [/copilot instructions|cloud mode|header bar|tab count|sticky/i] },
    },
    {
      id: 'pack-co-author',
      kind: 'personal-data',
      what: "A Co-Authored-By trailer with the model's e-mail address in every commit message; an author's name and e-mail in git show output.",
      why: 'The agent’s habit and personal data; neither is a repository convention the user asked for.',
      sessions: [
        { session: '6b9a263d-1a81-4e82-9f5b-ff2279ce7257', where: 'U2' },
        { session: '9aa079d0-1add-45fa-bfb2-933f14c37cbc', where: 'U1: git show --stat HEAD' },
      ],
      match: { all: [/co-authored-by|[\w.+-]+@[\w-]+\.[\w.]+/i] },
    },
    {
      id: 'pack-home-path',
      kind: 'personal-data',
      what: "The developer's home folder in every absolute path the agent used.",
      why: 'A machine path with a person’s name; the repository root is the working folder.',
      sessions: [{ session: '66a75a73-185d-421f-a3ab-9f1430f4367d', where: 'U1: sed -i on an absolute path' }],
      match: { all: [/\/Users\/|~\/Code\//] },
    },
    {
      id: 'pack-corrupt-logo',
      kind: 'one-off',
      what: 'An SVG asset that contained "404: Not Found".',
      why: 'One broken file, fixed once.',
      sessions: [
        { session: '85ec650c-1911-4729-b965-12859c513c01', where: 'U3' },
        { session: '90d7d497-3674-4a89-96de-0f970d08271b', where: 'U1' },
      ],
      match: { all: [/cursor-logo|404: not found/i] },
    },
    {
      id: 'pack-interrupts',
      kind: 'reply',
      what: '"Continue", "ok now it works", a check-this-URL message, /clear.',
      why: 'Replies and client commands with no lasting content.',
      sessions: [
        { session: '9baef004-ea21-4f67-acf2-16ad2d84098a', where: 'U3' },
        { session: 'ffc44f28-b453-4499-9cb2-65c5b9f2c2ed', where: 'U3-U6' },
      ],
      match: { all: [/^\W*(continue|ok now it works)\W*$|localhost:3000|\/clear/i] },
    },
    {
      id: 'pack-tool-errors',
      kind: 'tool-noise',
      what: "The edit tool's errors (string not found, file not read, file modified since read, a wrong parameter type).",
      why: "About the agent client's protocol; the repository lesson behind most of them is the tab indentation (pack-tabs).",
      sessions: [
        { session: '4d885b17-c8b2-4562-851d-6d2161584447', where: 'U1' },
        { session: '9baef004-ea21-4f67-acf2-16ad2d84098a', where: 'U3' },
      ],
      match: { all: [/has not been read|modified since read|InputValidationError|sibling tool call/i] },
    },
  ],
};
