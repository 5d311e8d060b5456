import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { EXAMPLES, FIXTURES, hasSharedTraces, SHARED_TRACES } from './paths';

/**
 * A session file to mutate, placed where its agent writes it (`target`), with the files it needs beside it
 * (`companions`: an OpenCode session's message and part files, a Cline task's ui messages).
 */
export interface FuzzSample {
  name: string;
  target: string;
  content: Buffer;
  companions: Record<string, Buffer>;
}

const text = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** Every file under `dir`, sorted (none when it is absent). */
export function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    })
    .sort();
}

/** Where each shared sample sits in a real agent home (the readers accept files by name and place). */
function sharedPlace(rel: string): string | undefined {
  const name = basename(rel);
  if (rel.startsWith('claude-code/')) {
    if (rel.includes('/subagents/'))
      return `.claude/projects/-Users-dev-debugtest/50a7220d-7250-46f3-b38e-b716ce25032e/subagents/${name}`;
    return `.claude/projects/-Users-dev-code/${/^[0-9a-f-]{36}\.jsonl$/.test(name) ? name : 'ab12cd34-0000-4000-8000-00000000c1a7.jsonl'}`;
  }
  if (rel.startsWith('codex/'))
    return `.codex/sessions/2026/01/02/rollout-2026-01-02T03-04-05-0199aaaa-0000-7000-8000-${rel.includes('kvsankar') ? '000000000001' : '000000000002'}.jsonl`;
  if (rel.startsWith('gemini-cli/'))
    return `.gemini/tmp/3f2a9c/chats/session-2026-01-02T03-04-${name.replace(/[^a-z0-9]/gi, '').slice(0, 8)}${name.endsWith('.jsonl') ? '.jsonl' : '.json'}`;
  if (rel.startsWith('copilot/')) return '.copilot/session-state/aaaabbbb-1111-2222-3333-ccccddddeeee/events.jsonl';
  if (rel.startsWith('cursor/'))
    return '.cursor/projects/home-dev-shop/agent-transcripts/5b0c7e1a-2222-4333-8444-555566667777.jsonl';
  return undefined;
}

/** The real samples of ../shared/traces (when present), each alone in an agent home. */
function sharedSamples(): FuzzSample[] {
  if (!hasSharedTraces) return [];
  const samples: FuzzSample[] = [];
  for (const path of files(SHARED_TRACES)) {
    const rel = relative(SHARED_TRACES, path).split('\\').join('/');
    const place = sharedPlace(rel);
    if (place) samples.push({ name: `shared/${rel}`, target: place, content: readFileSync(path), companions: {} });
  }
  // OpenCode: the session files, each with the whole storage tree it points into.
  const storage = join(SHARED_TRACES, 'opencode', 'agent-sessions_storage_v2');
  const tree = Object.fromEntries(
    files(storage).map((p) => [join('.local/share/opencode/storage', relative(storage, p)), readFileSync(p)]),
  );
  for (const [rel, content] of Object.entries(tree)) {
    if (!/\/session\/[^/]+\/ses_[^/]+\.json$/.test(rel)) continue;
    const companions = { ...tree };
    delete companions[rel];
    samples.push({ name: `shared/opencode/${basename(rel)}`, target: rel, content, companions });
  }
  // Aider: one history holds many sessions; each of the first few is a sample of its own.
  const aider = files(join(SHARED_TRACES, 'aider')).find((p) => p.endsWith('.md'));
  if (aider) {
    const sessions = readFileSync(aider, 'utf8')
      .split(/^(?=# aider chat started at )/m)
      .filter((s) => s.startsWith('# aider') && /^#### /m.test(s));
    sessions.slice(0, 3).forEach((session, i) =>
      samples.push({
        name: `shared/aider session ${i + 1}`,
        target: `proj${i}/.aider.chat.history.md`,
        content: Buffer.from(session),
        companions: {},
      }),
    );
  }
  return samples;
}

/** The project's own sessions (examples, fixtures), at their paths relative to the agent home. */
function projectSamples(): FuzzSample[] {
  const found: FuzzSample[] = [];
  for (const [root, prefix] of [
    [join(EXAMPLES, 'sessions'), 'examples'],
    [join(FIXTURES, 'sessions-dev'), 'fixtures'],
  ] as const) {
    for (const path of files(root)) {
      if (!path.endsWith('.jsonl')) continue;
      const rel = relative(root, path).split('\\').join('/');
      const home = rel.replace(/^claude-code\//, '.claude/').replace(/^codex\//, '.codex/');
      found.push({ name: `${prefix}/${rel}`, target: home, content: readFileSync(path), companions: {} });
    }
  }
  return found;
}

const T0 = Date.parse('2026-11-02T09:00:00.000Z');
const ENV = '<environment_details>\n# Current Working Directory (/home/dev/shop) Files\nsrc/\n</environment_details>';

/** The formats no real, licensed sample was found for (Cline, Roo Code, Continue, Copilot Chat JSON): small hand-made ones. */
function inlineSamples(): FuzzSample[] {
  const history = [
    {
      role: 'user',
      content: [
        { type: 'text', text: '<task>\nFix the failing cart test\n</task>' },
        { type: 'text', text: ENV },
      ],
    },
    {
      role: 'assistant',
      content: [
        {
          type: 'text',
          text: 'Let me run the tests.\n\n<execute_command>\n<command>npm test</command>\n</execute_command>',
        },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'text', text: "[execute_command for 'npm test'] Result:" },
        { type: 'text', text: 'FAIL src/cart.test.ts\nExit code: 1' },
      ],
    },
    {
      role: 'assistant',
      content: [{ type: 'text', text: '<attempt_completion>\n<result>Fixed.</result>\n</attempt_completion>' }],
    },
  ];
  const ui = [
    { ts: T0, type: 'say', say: 'task', text: 'Fix the failing cart test' },
    { ts: T0 + 5000, type: 'say', say: 'completion_result', text: 'Fixed.' },
  ];
  const task = (ext: string, id: string) => `globalStorage/${ext}/tasks/${id}`;
  const continueSession = {
    sessionId: '6f0c2d4e-aaaa-4bbb-8ccc-000000000001',
    title: 'Fix the cart test',
    workspaceDirectory: 'file:///home/dev/shop',
    history: [
      { message: { role: 'user', content: 'run the tests' }, contextItems: [] },
      {
        message: {
          role: 'assistant',
          content: 'Running them.',
          toolCalls: [
            {
              id: 'tc_1',
              type: 'function',
              function: { name: 'builtin_run_terminal_command', arguments: '{"command":"npm test"}' },
            },
          ],
        },
        contextItems: [],
      },
      {
        message: { role: 'tool', content: 'FAIL src/cart.test.ts\nexit code: 1', toolCallId: 'tc_1' },
        contextItems: [],
      },
      { message: { role: 'assistant', content: 'Fixed it.' }, contextItems: [] },
    ],
  };
  const copilotChat = {
    version: 3,
    creationDate: T0,
    initialLocation: 'panel',
    responderUsername: 'GitHub Copilot',
    sessionId: '9f1c6a2e-1111-4222-8333-444455556666',
    requests: [
      {
        requestId: 'request_1',
        timestamp: T0 + 1000,
        message: { text: 'run the tests', parts: [] },
        response: [{ value: 'Running the tests.' }],
        result: {},
      },
      {
        requestId: 'request_2',
        timestamp: T0 + 9000,
        message: { text: 'fix it', parts: [] },
        response: [{ value: 'Fixed.' }],
        result: {},
      },
    ],
  };
  return [
    {
      name: 'inline/cline task',
      target: `${task('saoudrizwan.claude-dev', '1769053680585')}/api_conversation_history.json`,
      content: text(history),
      companions: { [`${task('saoudrizwan.claude-dev', '1769053680585')}/ui_messages.json`]: text(ui) },
    },
    {
      name: 'inline/roo-code task',
      target: `${task('rooveterinaryinc.roo-cline', '1769053680586')}/api_conversation_history.json`,
      content: text(history),
      companions: { [`${task('rooveterinaryinc.roo-cline', '1769053680586')}/ui_messages.json`]: text(ui) },
    },
    {
      name: 'inline/continue session',
      target: '.continue/sessions/6f0c2d4e-aaaa-4bbb-8ccc-000000000001.json',
      content: text(continueSession),
      companions: {},
    },
    {
      name: 'inline/copilot chat session',
      target: 'workspaceStorage/ab12/chatSessions/9f1c6a2e-1111-4222-8333-444455556666.json',
      content: text(copilotChat),
      companions: {},
    },
  ];
}

/** Every text sample of every reader the fuzzing mutates (the SQLite stores and .jsonl.zst rollouts: binarySamples.ts). */
export function fuzzSamples(): FuzzSample[] {
  return [...sharedSamples(), ...projectSamples(), ...inlineSamples()];
}
