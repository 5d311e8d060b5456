import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_READ_LIMITS } from '../../../src/core/import/limits';
import type { Step, Trace } from '../../../src/core/trace/model';
import { claudeEnvelopes } from '../../../testing/claudeSessions';
import { tempDir } from '../../../testing/tmp';
import { discoverSessions, importFile } from '../../support/importFiles';

// Claude Code 2.1 transcripts written from the format: `queue-operation` records (enqueue with the typed text, then
// dequeue or remove), and tool results persisted to `<session>/tool-results/` behind a `<persisted-output>` preview.

const SESSION = '33333333-aaaa-4bbb-8ccc-000000000003';
const CWD = '/home/dev/shop';

function session(records: (env: () => Record<string, unknown>) => unknown[]): { path: string; folder: string } {
  const home = tempDir('combee-claude-queue-');
  const envelopes = claudeEnvelopes(SESSION, CWD, '2026-11-02T09:00:00.000Z');
  const lines = records(() => envelopes.next());
  const project = join(home, 'projects', '-home-dev-shop');
  mkdirSync(project, { recursive: true });
  const path = join(project, `${SESSION}.jsonl`);
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return { path, folder: join(project, SESSION) };
}

const user = (env: () => Record<string, unknown>, content: unknown) => ({
  ...env(),
  type: 'user',
  message: { role: 'user', content },
});
const queue = (timestamp: string, operation: string, content?: string) => ({
  type: 'queue-operation',
  operation,
  timestamp,
  sessionId: SESSION,
  ...(content === undefined ? {} : { content }),
});
const bash = (env: () => Record<string, unknown>, id: string, command: string) => ({
  ...env(),
  type: 'assistant',
  message: {
    id: `msg_${id}`,
    role: 'assistant',
    content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }],
  },
});
const result = (env: () => Record<string, unknown>, id: string, content: string, isError = false) =>
  user(env, [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }]);

async function read(path: string): Promise<Trace> {
  const [file] = await discoverSessions(path);
  const { traces, warnings } = await importFile(file, DEFAULT_READ_LIMITS, {});
  assert.deepEqual(warnings, []);
  assert.equal(traces.length, 1);
  return traces[0];
}

const users = (trace: Trace) => trace.steps.filter((s): s is Extract<Step, { kind: 'user' }> => s.kind === 'user');

describe('Claude Code: messages typed while the agent works', () => {
  it('are user turns at the time they were typed, counted once when delivered as the next turn', async () => {
    const { path } = session((env) => [
      user(env, 'migrate the orders table'),
      bash(env, 'toolu_1', 'pnpm prisma migrate dev'),
      queue('2026-11-02T09:00:02.500Z', 'enqueue', 'add a new migration instead of editing the first one'),
      result(env, 'toolu_1', 'Applied 1 migration'),
      queue('2026-11-02T09:00:04.500Z', 'dequeue'),
      user(env, 'add a new migration instead of editing the first one'),
    ]);
    const trace = await read(path);
    assert.deepEqual(
      users(trace).map((s) => [s.text, s.queued, s.time]),
      [
        ['migrate the orders table', undefined, '2026-11-02T09:00:01.000Z'],
        ['add a new migration instead of editing the first one', true, '2026-11-02T09:00:02.500Z'],
      ],
    );
    // where it was typed: while the command ran, before its result
    const queued = trace.steps.findIndex((s) => s.kind === 'user' && s.queued);
    assert.ok(queued < trace.steps.findIndex((s) => s.kind === 'tool_result'));
  });

  it('are kept when handed over mid-turn (remove, nothing follows), and a later identical message is a new one', async () => {
    const { path } = session((env) => [
      user(env, 'bundle the logos'),
      queue('2026-11-02T09:00:01.500Z', 'enqueue', 'check the build too'),
      queue('2026-11-02T09:00:01.700Z', 'remove'),
      bash(env, 'toolu_1', 'bun run build'),
      result(env, 'toolu_1', 'ok'),
      user(env, 'check the build too'),
    ]);
    const trace = await read(path);
    assert.deepEqual(
      users(trace).map((s) => [s.text, s.queued]),
      [
        ['bundle the logos', undefined],
        ['check the build too', true],
        ['check the build too', undefined],
      ],
    );
  });

  it('leave out a background task’s notification, and keep a queued command as the command it was', async () => {
    const { path } = session((env) => [
      user(env, 'run the suite in the background'),
      queue('2026-11-02T09:00:01.500Z', 'enqueue', JSON.stringify({ task_id: 'b0f845b', description: 'bun test' })),
      queue('2026-11-02T09:00:01.600Z', 'remove'),
      queue('2026-11-02T09:00:01.700Z', 'enqueue', '/exit'),
      queue('2026-11-02T09:00:01.800Z', 'dequeue'),
      user(
        env,
        '<command-name>/exit</command-name>\n<command-message>exit</command-message>\n<command-args></command-args>',
      ),
    ]);
    const trace = await read(path);
    assert.deepEqual(
      users(trace).map((s) => [s.text, s.queued, s.isMeta]),
      [
        ['run the suite in the background', undefined, undefined],
        ['/exit', true, true],
      ],
    );
    assert.equal(trace.title, 'run the suite in the background');
  });
});

describe('Claude Code: persisted tool outputs', () => {
  const preview = (name: string) =>
    `<persisted-output>\nOutput too large (61.2KB). Full output saved to: /home/dev/.claude/projects/-home-dev-shop/${SESSION}/tool-results/${name}\n\nPreview (first 2KB):\nPASS src/a.test.ts\n...\n</persisted-output>`;

  it('are read whole from the session’s tool-results folder', async () => {
    const { path, folder } = session((env) => [
      user(env, 'run the tests'),
      bash(env, 'toolu_1', 'pnpm test'),
      result(env, 'toolu_1', preview('bx1.txt')),
    ]);
    mkdirSync(join(folder, 'tool-results'), { recursive: true });
    const full = `PASS src/a.test.ts\n${'ok\n'.repeat(100)}FAIL src/cart.test.ts: expected 3, got 4\n`;
    writeFileSync(join(folder, 'tool-results', 'bx1.txt'), full);
    const out = (await read(path)).steps.find((s) => s.kind === 'tool_result');
    assert.ok(out?.kind === 'tool_result');
    assert.equal(out.output, full);
  });

  it('fall back to the preview when the file is gone, or is not a plain file of that folder', async () => {
    const { path, folder } = session((env) => [
      user(env, 'run the tests'),
      bash(env, 'toolu_1', 'pnpm test'),
      result(env, 'toolu_1', preview('gone.txt')),
      bash(env, 'toolu_2', 'pnpm test'),
      result(env, 'toolu_2', preview('linked.txt')),
      bash(env, 'toolu_3', 'pnpm test'),
      result(env, 'toolu_3', preview('..')),
    ]);
    const outside = join(tempDir('combee-outside-'), 'secret.txt');
    writeFileSync(outside, 'not the session’s');
    mkdirSync(join(folder, 'tool-results'), { recursive: true });
    symlinkSync(outside, join(folder, 'tool-results', 'linked.txt'));
    const outputs = (await read(path)).steps.flatMap((s) => (s.kind === 'tool_result' ? [s.output] : []));
    assert.equal(outputs.length, 3);
    for (const output of outputs) assert.ok(output.startsWith('<persisted-output>'), output);
  });
});

describe('Claude Code: calls the client never ran', () => {
  it('are marked not run: a call cancelled because a sibling failed says nothing of its command', async () => {
    const { path } = session((env) => [
      user(env, 'check the build'),
      bash(env, 'toolu_1', 'bun run build'),
      bash(env, 'toolu_2', 'bun run lint'),
      result(env, 'toolu_1', 'Exit code 1\nerror: build failed', true),
      result(env, 'toolu_2', '<tool_use_error>Sibling tool call errored</tool_use_error>', true),
    ]);
    const results = (await read(path)).steps.flatMap((s) => (s.kind === 'tool_result' ? [s] : []));
    assert.deepEqual(
      results.map((r) => [r.callId, r.notRun ?? false]),
      [
        ['toolu_1', false],
        ['toolu_2', true],
      ],
    );
  });
});
