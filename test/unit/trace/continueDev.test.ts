import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_READ_LIMITS } from '../../../src/core/import/limits';
import { continueReader } from '../../../src/core/trace/sources/continueDev';
import { CLAUDE_LINE, CODEX_LINE, counts } from '../../support/readerFixtures';
import { discoverSessions, importFile } from '../../support/importFiles';

// No real Continue session with a license exists (see /work/shared/traces/continue/README.md): the sessions here are
// synthetic, written from core/index.d.ts as summarized in the research notes (§9).

const SESSION_ID = '6f0c2d4e-aaaa-4bbb-8ccc-000000000001';
const call = (id: string, name: string, args: object) => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});

function session() {
  return {
    sessionId: SESSION_ID,
    title: 'Fix the cart test',
    workspaceDirectory: pathToFileURL('/home/dev/shop').href,
    mode: 'agent',
    chatModelTitle: 'Claude Sonnet 4.5',
    history: [
      {
        message: { role: 'user', content: [{ type: 'text', text: 'run the tests' }] },
        contextItems: [
          { name: 'cart.ts', description: 'src/cart.ts', content: '…', id: { providerTitle: 'file', itemId: '1' } },
        ],
      },
      {
        message: {
          role: 'assistant',
          content: 'Running them.',
          toolCalls: [call('tc_1', 'builtin_run_terminal_command', { command: 'npm test', waitForCompletion: true })],
        },
        contextItems: [],
        toolCallStates: [
          {
            toolCallId: 'tc_1',
            toolCall: call('tc_1', 'builtin_run_terminal_command', { command: 'npm test' }),
            status: 'done',
            parsedArgs: { command: 'npm test' },
          },
        ],
      },
      {
        message: { role: 'tool', content: 'FAIL src/cart.test.ts\n1 failed\nexit code: 1', toolCallId: 'tc_1' },
        contextItems: [],
      },
      { message: { role: 'thinking', content: 'Look at the file', signature: 'sig' }, contextItems: [] },
      {
        message: {
          role: 'assistant',
          content: '',
          toolCalls: [
            call('tc_2', 'builtin_read_file', { filepath: 'src/nope.ts' }),
            call('tc_3', 'builtin_grep_search', { query: 'total' }),
          ],
        },
        contextItems: [],
        toolCallStates: [
          {
            toolCallId: 'tc_2',
            status: 'errored',
            parsedArgs: {},
            output: [{ name: 'Error', description: 'Error', content: 'File not found: src/nope.ts' }],
          },
          {
            toolCallId: 'tc_3',
            status: 'done',
            parsedArgs: {},
            output: [{ name: 'Search results', description: '', content: 'src/cart.ts:3: total' }],
          },
        ],
      },
      { message: { role: 'user', content: 'no, use vitest instead' }, contextItems: [] },
      { message: { role: 'narrator', content: '?' }, contextItems: [] },
      { contextItems: [] },
      { message: { role: 'assistant', content: [{ type: 'text', text: 'Switched to vitest.' }] }, contextItems: [] },
    ],
  };
}

describe('Continue reader', () => {
  it('reads a session: tool messages, results kept only in toolCallStates, errored calls, unknown roles; skips the index', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'combee-continue-')), 'sessions');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${SESSION_ID}.json`), JSON.stringify(session(), null, 2));
    writeFileSync(
      join(dir, 'sessions.json'),
      JSON.stringify([
        {
          sessionId: SESSION_ID,
          title: 'Fix the cart test',
          dateCreated: String(Date.parse('2026-11-02T09:00:00.000Z')),
          workspaceDirectory: '/home/dev/shop',
        },
      ]),
    );
    const files = await discoverSessions(dir);
    assert.deepEqual(
      files.map((f) => f.agent),
      ['continue'],
      'sessions.json is not a session',
    );
    const { traces, warnings } = await importFile(files[0], DEFAULT_READ_LIMITS, {});
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /history item skipped/);
    assert.equal(traces.length, 1);
    const trace = traces[0];
    assert.equal(trace.id, `continue:${SESSION_ID}`);
    assert.equal(trace.agent, 'continue');
    assert.equal(trace.cwd, '/home/dev/shop', 'file URI turned into a path');
    assert.equal(trace.title, 'Fix the cart test');
    assert.equal(trace.startedAt, '2026-11-02T09:00:00.000Z', 'dateCreated from the index');
    assert.ok(trace.endedAt, 'file mtime');
    assert.deepEqual(
      trace.steps.map((s) => s.kind),
      [
        'user',
        'assistant',
        'tool_call',
        'tool_result',
        'tool_call',
        'tool_call',
        'tool_result',
        'tool_result',
        'user',
        'assistant',
      ],
    );
    assert.deepEqual(counts(trace), { user: 2, assistant: 2, tool_call: 3, tool_result: 3 });
    const run = trace.steps[2];
    assert.ok(run.kind === 'tool_call' && run.command === 'npm test' && run.tool === 'builtin_run_terminal_command');
    const tests = trace.steps[3];
    assert.ok(tests.kind === 'tool_result' && tests.callId === 'tc_1' && tests.isError && tests.exitCode === 1);
    const missing = trace.steps.find((s) => s.kind === 'tool_result' && s.callId === 'tc_2');
    assert.ok(missing?.kind === 'tool_result' && missing.isError && missing.output === 'File not found: src/nope.ts');
    const grep = trace.steps.find((s) => s.kind === 'tool_result' && s.callId === 'tc_3');
    assert.ok(grep?.kind === 'tool_result' && !grep.isError);
    const assistant = trace.steps[1];
    assert.ok(assistant.kind === 'assistant' && assistant.model === 'Claude Sonnet 4.5');
    assert.equal(trace.outcome.toolErrors, 2);
    assert.deepEqual(trace.outcome.testRuns, { passed: 0, failed: 1 });
    assert.equal(trace.outcome.userCorrections, 1);
    assert.deepEqual(trace.unknown, { 'role:narrator': 1 });
  });

  it('warns about a malformed session file and produces no trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'combee-continue-'));
    const text = JSON.stringify(session(), null, 2);
    writeFileSync(join(dir, `${SESSION_ID}.json`), text.slice(0, 400));
    const [file] = await discoverSessions(dir);
    assert.equal(file.agent, 'continue');
    const { traces, warnings } = await importFile(file, DEFAULT_READ_LIMITS, {});
    assert.equal(traces.length, 0);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /malformed JSON in a Continue session/);
  });

  it('does not claim Claude Code or Codex lines, nor the sessions.json index', () => {
    assert.equal(continueReader.sniff('x.json', `${CLAUDE_LINE}\n`), false);
    assert.equal(continueReader.sniff('x.json', `${CODEX_LINE}\n`), false);
    assert.equal(continueReader.accepts('/h/.continue/sessions/sessions.json'), false);
    assert.equal(
      continueReader.sniff('x.json', JSON.stringify({ sessionId: 's', projectHash: 'f', messages: [] })),
      false,
    );
  });
});
