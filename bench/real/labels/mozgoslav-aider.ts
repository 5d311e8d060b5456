import type { CorpusLabels } from '../types';

// One Aider chat history with three sessions, named by their "# aider chat started at" local time. Prompts in Russian.
export const labels: CorpusLabels = {
  corpus: 'mozgoslav-aider',
  summary:
    'Teaches nothing general. One evening with a local model: an authentication error, a bug hunt that loops until ' +
    'the user stops it, and a pasted persona written for another tool. No shell command ran; the only edits create ' +
    'one report file (and two files whose names are fragments of the model’s prose).',
  lessons: [],
  traps: [
    {
      id: 'moz-persona-spec',
      kind: 'injected',
      what: 'A pasted persona spec for an "analyzer" agent of another tool: two-strike rule, always start with local files, investigation budgets, never call a code-search service for local paths, a report folder under .claude/, read-only diagnostics.',
      why: 'Written for another tool and other repositories (its paths and services do not exist here); pasted once as context, not a lesson of this repository.',
      sessions: [{ session: '2026-04-22 23:13:03', where: 'the long pasted turn' }],
      match: {
        all: [
          /two-strike|sourcebot|backstage|investigation budget|agent-reports|blocker.?MR|orchestrator|UNVERIFIED|\/home\/coder/i,
        ],
      },
    },
    {
      id: 'moz-hotkey-bug',
      kind: 'task-request',
      what: 'The push-to-talk hotkey inserting the same text every time.',
      why: 'One bug report (never resolved in the log).',
      sessions: [
        { session: '2026-04-22 22:40:47', where: 'second question' },
        { session: '2026-04-22 23:13:03', where: 'restated' },
      ],
      match: { all: [/push-to-talk|hotkey|dictation/i] },
    },
    {
      id: 'moz-report-location',
      kind: 'task-request',
      what: 'Where the model created the report and the request to create it in the project root.',
      why: 'About one file in one task.',
      sessions: [{ session: '2026-04-22 23:13:03', where: 'last turns' }],
      match: { all: [/report/i, /root|корн/i] },
    },
    {
      id: 'moz-aider-interaction',
      kind: 'reply',
      what: '"hi", "study it", "ask for file access yourself", "you are looping", the add-file confirmations logged as user lines.',
      why: 'Steering the chat tool in the moment; no lesson about the repository.',
      sessions: [
        { session: '2026-04-22 22:40:47', where: 'throughout' },
        { session: '2026-04-22 23:13:03', where: 'first turn' },
      ],
      match: { all: [/add file to the chat|зациклился|looping|запроси доступ|ask for (file )?access/i] },
    },
    {
      id: 'moz-setup',
      kind: 'tool-noise',
      what: 'An authentication error from the local model endpoint with a placeholder key; edits applied to files named after fragments of prose.',
      why: 'Tool configuration and a mis-parsed whole-file edit.',
      sessions: [
        { session: '2026-04-22 22:40:12', where: 'first turn' },
        { session: '2026-04-22 23:13:03', where: 'applied edits' },
      ],
      match: { all: [/api key|authentication|lm studio|applied edit/i] },
    },
  ],
};
