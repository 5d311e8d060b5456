import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_READ_LIMITS } from '../../../src/core/import/limits';
import type { Trace } from '../../../src/core/trace/model';
import { geminiCliReader } from '../../../src/core/trace/sources/geminiCli';
import { SHARED_TRACES, hasSharedTraces } from '../../support/paths';
import { CLAUDE_LINE, CODEX_LINE, counts, toolResult } from '../../support/readerFixtures';
import { discoverSessions, importFile } from '../../support/importFiles';

const jsonl = (lines: unknown[]) => `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`;
// One line of each agent the Gemini reader must leave alone (synthetic, in their real shapes).

async function importOne(path: string): Promise<{ trace: Trace; warnings: string[] }> {
  const [file] = await discoverSessions(path);
  assert.ok(file, `${path} discovered`);
  assert.equal(file.agent, 'gemini-cli');
  const { traces, warnings } = await importFile(file, DEFAULT_READ_LIMITS, {});
  assert.equal(traces.length, 1, `one trace (warnings: ${warnings.join('; ')})`);
  return { trace: traces[0], warnings };
}

describe('Gemini CLI reader', () => {
  const shared = join(SHARED_TRACES, 'gemini-cli');

  (hasSharedTraces ? it : it.skip)('reads the real legacy single-JSON session', async () => {
    const { trace, warnings } = await importOne(
      join(shared, 'kvsankar-agent-history_real_sessions_gemini_session-01.json'),
    );
    assert.deepEqual(warnings, []);
    assert.equal(trace.id, 'gemini-cli:dcbe78d3-ea75-4786-929e-d6cff0fc00ed');
    assert.equal(trace.startedAt, '2026-06-05T04:59:39.932Z');
    assert.equal(trace.endedAt, '2026-06-05T04:59:44.839Z');
    assert.equal(trace.cwd, undefined, 'no project marker next to a loose file');
    assert.deepEqual(counts(trace), { user: 1, assistant: 1 });
    const answer = trace.steps[1];
    assert.ok(
      answer.kind === 'assistant' && answer.model === 'gemini-2.5-flash' && answer.text === '[REDACTED_ASSISTANT_TEXT]',
    );
    assert.equal(trace.outcome.toolErrors, 0);
    assert.deepEqual(trace.unknown, {});
  });

  (hasSharedTraces ? it : it.skip)(
    'reads the 0.40 JSONL log (metadata line, $set) and is sniffed before Claude Code',
    async () => {
      const { trace, warnings } = await importOne(join(shared, 'agent-sessions_jsonl_v040.jsonl'));
      assert.deepEqual(warnings, []);
      assert.equal(trace.id, 'gemini-cli:gemini_stage0_jsonl');
      assert.equal(trace.startedAt, '2026-04-29T21:39:22.319Z');
      assert.equal(trace.endedAt, '2026-04-29T21:39:33.156Z', 'lastUpdated from the $set line');
      assert.deepEqual(counts(trace), { user: 1, tool_call: 1, tool_result: 1, assistant: 1 });
      assert.deepEqual(
        trace.steps.map((s) => s.kind),
        ['user', 'tool_call', 'tool_result', 'assistant'],
      );
      const call = trace.steps[1];
      assert.ok(
        call.kind === 'tool_call' &&
          call.tool === 'run_shell_command' &&
          call.command === 'ls -F' &&
          call.callId === 'run_shell_command_stage0',
      );
      const r = toolResult(trace, 'run_shell_command_stage0');
      assert.ok(!r.isError && r.output.startsWith('Output: AgentSessions/'));
      assert.equal(trace.outcome.toolErrors, 0);
      assert.deepEqual(trace.unknown, {});
    },
  );

  (hasSharedTraces ? it : it.skip)(
    'reads the synthetic legacy file: shell exit codes, a cancelled request, undocumented "model" messages counted',
    async () => {
      const { trace, warnings } = await importOne(join(shared, 'agent-sessions_large.json'));
      assert.deepEqual(warnings, []);
      assert.equal(trace.id, 'gemini-cli:session-2025-12-16T23-47-b4f17607');
      assert.deepEqual(counts(trace), { user: 2, tool_call: 2, tool_result: 2, error: 1, assistant: 2 });
      assert.deepEqual(
        trace.steps.map((s) => s.kind),
        ['user', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'error', 'assistant', 'user', 'assistant'],
      );
      const ok = toolResult(trace, 'run_shell_command-1');
      assert.ok(!ok.isError && ok.exitCode === 0);
      const failed = toolResult(trace, 'run_shell_command-2');
      assert.ok(failed.isError && failed.exitCode === 1, 'status success but "Exit Code: 1" in the output');
      assert.equal(trace.outcome.toolErrors, 1);
      assert.equal(trace.outcome.interrupted, true, '"Request cancelled." info message');
      assert.deepEqual(trace.unknown, { 'message:model': 2 });
    },
  );

  it('replays a JSONL log: re-sent ids replace, $rewindTo drops, $set titles; tool errors; unknown ops counted; bad line warned', async () => {
    const root = mkdtempSync(join(tmpdir(), 'combee-gemini-'));
    const chats = join(root, 'tmp', 'shop', 'chats');
    mkdirSync(chats, { recursive: true });
    const path = join(chats, 'session-2026-11-02T09-00-aaaa1111.jsonl');
    const t = (s: number) => `2026-11-02T09:00:${String(s).padStart(2, '0')}.000Z`;
    writeFileSync(
      path,
      jsonl([
        {
          sessionId: 'aaaa1111-0000-4000-8000-000000000001',
          projectHash: 'f'.repeat(64),
          startTime: t(0),
          lastUpdated: t(0),
          kind: 'main',
          directories: ['/home/dev/shop'],
        },
        { id: 'u1', timestamp: t(1), type: 'user', content: [{ text: 'run the tests' }] },
        { id: 'g1', timestamp: t(2), type: 'gemini', content: '', model: 'gemini-3-pro', toolCalls: [] },
        '{"id":"g1","timestamp":"2026-11-02T09:00:0',
        // the same id again, now with its tool call: replaces the first copy in place
        {
          id: 'g1',
          timestamp: t(3),
          type: 'gemini',
          content: 'Running them.',
          model: 'gemini-3-pro',
          toolCalls: [
            {
              id: 'c1',
              name: 'run_shell_command',
              args: { command: 'pnpm test' },
              status: 'success',
              timestamp: t(4),
              result: [
                {
                  functionResponse: {
                    id: 'c1',
                    name: 'run_shell_command',
                    response: { output: 'Command: pnpm test\nOutput: 1 failed\nExit Code: 1' },
                  },
                },
              ],
            },
            {
              id: 'c2',
              name: 'read_file',
              args: { absolute_path: '/home/dev/shop/nope.ts' },
              status: 'error',
              timestamp: t(5),
              result: [{ functionResponse: { id: 'c2', name: 'read_file', response: { error: 'File not found' } } }],
            },
          ],
        },
        { id: 'u2', timestamp: t(6), type: 'user', content: 'try something silly' },
        { id: 'g2', timestamp: t(7), type: 'gemini', content: 'Silly answer.' },
        { $rewindTo: 'u2' },
        { id: 'u3', timestamp: t(8), type: 'user', content: 'no, use vitest instead' },
        { id: 'w1', timestamp: t(8), type: 'warning', content: 'quota low' },
        { id: 'x1', timestamp: t(8), type: 'compression', content: 'summary' },
        { id: 'e1', timestamp: t(9), type: 'error', content: 'API error: 503' },
        { $patch: { updates: [] } },
        { $set: { summary: 'Fix the failing cart test', lastUpdated: t(9) } },
      ]),
    );
    const { trace, warnings } = await importOne(path);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /:4: malformed JSON line skipped/);
    assert.equal(trace.id, 'gemini-cli:aaaa1111-0000-4000-8000-000000000001');
    assert.equal(trace.cwd, '/home/dev/shop', 'first workspace directory of the metadata');
    assert.equal(trace.title, 'Fix the failing cart test');
    assert.equal(trace.endedAt, t(9));
    assert.deepEqual(
      trace.steps.map((s) => s.kind),
      ['user', 'assistant', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'user', 'error'],
    );
    assert.ok(
      !trace.steps.some((s) => (s.kind === 'user' || s.kind === 'assistant') && /silly/i.test(s.text)),
      'rewound messages are gone',
    );
    const test = toolResult(trace, 'c1');
    assert.ok(test.isError && test.exitCode === 1);
    const read = toolResult(trace, 'c2');
    assert.ok(read.isError && read.output === 'File not found');
    assert.deepEqual(trace.outcome.testRuns, { passed: 0, failed: 1 });
    assert.equal(trace.outcome.userCorrections, 1);
    assert.deepEqual(trace.unknown, { 'message:compression': 1, 'op:$patch': 1 });
  });

  it('finds the project root from .project_root or a projects.json entry hashing to projectHash, and links subagents', async () => {
    const home = mkdtempSync(join(tmpdir(), 'combee-gemini-'));
    const gemini = join(home, '.gemini');
    const meta = (sessionId: string, extra: object = {}) => ({
      sessionId,
      projectHash: createHash('sha256').update('/home/dev/api').digest('hex'),
      startTime: '2026-11-02T10:00:00.000Z',
      ...extra,
    });
    const message = { id: 'm1', timestamp: '2026-11-02T10:00:01.000Z', type: 'user', content: 'hello' };
    // ≥0.29 slug folder with its marker
    mkdirSync(join(gemini, 'tmp', 'shop', 'chats', 'parent-session'), { recursive: true });
    writeFileSync(join(gemini, 'tmp', 'shop', '.project_root'), '/home/dev/shop\n');
    writeFileSync(join(gemini, 'tmp', 'shop', 'chats', 'session-a.jsonl'), jsonl([meta('a'), message]));
    writeFileSync(
      join(gemini, 'tmp', 'shop', 'chats', 'parent-session', 'child.jsonl'),
      jsonl([meta('child', { kind: 'subagent' }), message]),
    );
    // ≤0.28 hash folder without a marker: the registry entry whose path hashes to projectHash
    mkdirSync(join(gemini, 'tmp', 'f'.repeat(64), 'chats'), { recursive: true });
    writeFileSync(
      join(gemini, 'projects.json'),
      JSON.stringify({ projects: { '/home/dev/web': 'web', '/home/dev/api': 'api' } }),
    );
    writeFileSync(
      join(gemini, 'tmp', 'f'.repeat(64), 'chats', 'session-b.json'),
      JSON.stringify({ ...meta('b'), messages: [message] }, null, 2),
    );
    // gemini-cli's other JSON files are not sessions
    writeFileSync(
      join(gemini, 'tmp', 'shop', 'logs.json'),
      JSON.stringify([{ sessionId: 'a', messageId: 0, type: 'user', message: 'hello' }]),
    );
    writeFileSync(
      join(gemini, 'tmp', 'shop', 'checkpoint-x.json'),
      JSON.stringify([{ role: 'user', parts: [{ text: 'hi' }] }]),
    );

    const files = await discoverSessions(gemini);
    assert.deepEqual(
      files.map((f) => f.agent),
      ['gemini-cli', 'gemini-cli', 'gemini-cli'],
    );
    const traces = new Map<string, Trace>();
    for (const file of files)
      for (const t of (await importFile(file, DEFAULT_READ_LIMITS, {})).traces) traces.set(t.id, t);
    assert.equal(traces.get('gemini-cli:a')?.cwd, '/home/dev/shop');
    assert.equal(traces.get('gemini-cli:b')?.cwd, '/home/dev/api');
    const child = traces.get('gemini-cli:child');
    assert.equal(child?.parentId, 'gemini-cli:parent-session');
    assert.ok(child?.steps.every((s) => s.sidechain === true));
  });

  it('warns about a truncated legacy file and produces no trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'combee-gemini-'));
    const full = JSON.stringify(
      {
        sessionId: 's',
        projectHash: 'f'.repeat(64),
        startTime: '2026-11-02T10:00:00.000Z',
        messages: [{ id: 'm', type: 'user', content: 'hi' }],
      },
      null,
      2,
    );
    const path = join(dir, 'session-2026-11-02T10-00-s.json');
    writeFileSync(path, full.slice(0, full.length - 40));
    const [file] = await discoverSessions(dir);
    assert.equal(file.agent, 'gemini-cli');
    const { traces, warnings } = await importFile(file, DEFAULT_READ_LIMITS, {});
    assert.equal(traces.length, 0);
    assert.ok(warnings.length >= 1 && warnings.length <= 4, warnings.join('\n'));
    assert.match(warnings[warnings.length - 1], /malformed lines skipped in all|no Gemini CLI session metadata/);
  });

  it('does not claim Claude Code or Codex lines', () => {
    assert.equal(geminiCliReader.sniff('x.jsonl', `${CLAUDE_LINE}\n`), false);
    assert.equal(geminiCliReader.sniff('x.jsonl', `${CODEX_LINE}\n`), false);
    assert.equal(geminiCliReader.sniff('x.json', JSON.stringify({ session: { id: 'x' }, items: [] })), false);
    assert.equal(geminiCliReader.accepts('/x/logs.json'), false);
  });
});
