import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_READ_LIMITS } from '../../../src/core/import/limits';
import type { Trace } from '../../../src/core/trace/model';
import { copilotReader } from '../../../src/core/trace/sources/copilot';
import { applyMutation } from '../../../src/core/trace/sources/mutationLog';
import { SHARED_TRACES, hasSharedTraces } from '../../support/paths';
import { CLAUDE_LINE, CODEX_LINE, counts, toolResult } from '../../support/readerFixtures';
import { discoverSessions, importFile } from '../../support/importFiles';

const jsonl = (lines: unknown[]) => `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`;

async function importOne(path: string): Promise<{ trace: Trace; warnings: string[] }> {
  const files = await discoverSessions(path);
  assert.equal(files.length, 1, `one session file under ${path}`);
  assert.equal(files[0].agent, 'copilot');
  const { traces, warnings } = await importFile(files[0], DEFAULT_READ_LIMITS, {});
  assert.equal(traces.length, 1, `one trace (warnings: ${warnings.join('; ')})`);
  return { trace: traces[0], warnings };
}

const T0 = Date.parse('2026-11-02T09:00:00.000Z');

// Synthetic VS Code Copilot Chat data, written from the ISerializableChatData v3 schema in the research notes
// (§4.2: chatModel.ts / chatSessionOperationLog.ts); no licensed real chatSessions file exists.
function chatRequests() {
  return [
    {
      requestId: 'request_1',
      timestamp: T0 + 1000,
      message: { text: 'run the tests and fix the failure', parts: [] },
      variableData: { variables: [] },
      modelId: 'copilot/gpt-4.1',
      response: [
        { value: 'Running the tests.', supportThemeIcons: false },
        {
          kind: 'toolInvocationSerialized',
          toolId: 'run_in_terminal',
          toolCallId: 'toolu_1__vscode-1',
          invocationMessage: 'Running `pnpm test`',
          isConfirmed: true,
          isComplete: true,
        },
        {
          kind: 'toolInvocationSerialized',
          toolId: 'run_in_terminal',
          toolCallId: 'toolu_2__vscode-2',
          invocationMessage: 'Running `rm -rf dist`',
          isConfirmed: false,
          isComplete: true,
        },
        { kind: 'codeblockUri', uri: { scheme: 'file', path: '/w/a.ts' } },
        { kind: 'brandNewPart', anything: 1 },
      ],
      result: {
        timings: { totalElapsed: 5000 },
        metadata: {
          toolCallRounds: [
            {
              response: 'Running the tests.',
              toolCalls: [
                {
                  id: 'toolu_1',
                  name: 'run_in_terminal',
                  arguments: JSON.stringify({ command: 'pnpm test', explanation: 'run tests' }),
                },
              ],
            },
            {
              response: '',
              toolCalls: [
                { id: 'toolu_2', name: 'run_in_terminal', arguments: JSON.stringify({ command: 'rm -rf dist' }) },
              ],
            },
            { response: 'One test fails in cart.test.ts.', toolCalls: [] },
          ],
          toolCallResults: {
            'toolu_1__vscode-1': {
              content: [{ $mid: 21, value: 'FAIL src/cart.test.ts\n1 failed\nCommand exited with code 1' }],
            },
            'toolu_2__vscode-2': { content: [{ $mid: 21, value: 'The user chose to skip the tool call' }] },
          },
          resolvedModel: 'gpt-4.1-2025-04-14',
        },
      },
      modelState: { value: 1 },
    },
    {
      requestId: 'request_2',
      timestamp: T0 + 9000,
      message: { text: 'no, use vitest', parts: [] },
      response: [],
      result: { errorDetails: { message: 'Sorry, your request failed. Please try again.' } },
      modelState: { value: 3 },
    },
    {
      requestId: 'request_3',
      timestamp: T0 + 12000,
      message: { text: 'try again', parts: [] },
      response: [],
      result: {},
      modelState: { value: 2 },
    },
  ];
}

function chatData() {
  return {
    version: 3,
    creationDate: T0,
    customTitle: 'Fix the cart test',
    initialLocation: 'panel',
    responderUsername: 'GitHub Copilot',
    sessionId: '9f1c6a2e-1111-4222-8333-444455556666',
    requests: chatRequests(),
  };
}

function checkChatTrace(trace: Trace): void {
  assert.equal(trace.id, 'copilot:9f1c6a2e-1111-4222-8333-444455556666');
  assert.equal(trace.title, 'Fix the cart test');
  assert.equal(trace.cwd, '/home/dev/shop', 'from workspace.json next to chatSessions/');
  assert.equal(trace.startedAt, new Date(T0).toISOString());
  assert.deepEqual(
    trace.steps.map((s) => s.kind),
    [
      'user',
      'assistant',
      'tool_call',
      'tool_result',
      'tool_call',
      'tool_result',
      'assistant',
      'user',
      'error',
      'user',
      'error',
    ],
  );
  assert.deepEqual(counts(trace), { user: 3, assistant: 2, tool_call: 2, tool_result: 2, error: 2 });
  const call = trace.steps[2];
  assert.ok(call.kind === 'tool_call' && call.command === 'pnpm test' && call.tool === 'run_in_terminal');
  const failing = toolResult(trace, 'toolu_1');
  assert.ok(failing.isError && failing.exitCode === 1, 'result found despite the __vscode suffix');
  assert.equal(toolResult(trace, 'toolu_2').isError, true, 'the user denied it (isConfirmed:false)');
  const assistant = trace.steps[1];
  assert.ok(assistant.kind === 'assistant' && assistant.model === 'gpt-4.1-2025-04-14');
  assert.ok(trace.steps[8].kind === 'error' && trace.steps[8].text.startsWith('Sorry, your request failed'));
  assert.ok(trace.steps[10].kind === 'error' && trace.steps[10].text === 'turn aborted: cancelled');
  assert.equal(trace.outcome.toolErrors, 2);
  assert.deepEqual(trace.outcome.testRuns, { passed: 0, failed: 1 });
  assert.equal(trace.outcome.userCorrections, 1);
  assert.equal(trace.outcome.interrupted, true);
  assert.deepEqual(trace.unknown, { 'part:brandNewPart': 1 });
}

function workspace(): { root: string; sessions: string } {
  const root = mkdtempSync(join(tmpdir(), 'combee-copilot-'));
  const ws = join(root, 'User', 'workspaceStorage', '0c2bd1f7d3a4b5c6');
  const sessions = join(ws, 'chatSessions');
  mkdirSync(sessions, { recursive: true });
  writeFileSync(join(ws, 'workspace.json'), JSON.stringify({ folder: pathToFileURL('/home/dev/shop').href }));
  return { root, sessions };
}

describe('Copilot reader', () => {
  (hasSharedTraces ? it : it.skip)('reads the Copilot CLI events.jsonl sample (copilot-agent schema)', async () => {
    const { trace, warnings } = await importOne(join(SHARED_TRACES, 'copilot', 'copilot-cli-subdir_v1'));
    assert.deepEqual(warnings, []);
    assert.equal(trace.id, 'copilot:aaaabbbb-1111-2222-3333-ccccddddeeee');
    assert.equal(trace.agentVersion, '1.0.11');
    assert.equal(trace.cwd, '/tmp/project');
    assert.equal(trace.startedAt, '2026-03-26T17:50:34.263Z');
    assert.equal(trace.endedAt, '2026-03-26T17:50:37.100Z');
    assert.deepEqual(
      trace.steps.map((s) => s.kind),
      ['user', 'tool_call', 'tool_result', 'assistant'],
    );
    assert.deepEqual(counts(trace), { user: 1, tool_call: 1, tool_result: 1, assistant: 1 });
    const call = trace.steps[1];
    assert.ok(call.kind === 'tool_call' && call.callId === 'call_1' && call.tool === 'bash' && call.command === 'ls');
    const r = toolResult(trace, 'call_1');
    assert.ok(!r.isError && r.output === 'file1\nfile2\n');
    assert.equal(trace.outcome.toolErrors, 0);
    assert.deepEqual(trace.unknown, {});
  });

  it('reads an event log: calls seen only at execution_start, failures, exit codes, errors, aborts, unknown events', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'combee-copilot-'));
    const sessionDir = join(dir, 'session-state', '11112222-3333-4444-5555-666677778888');
    mkdirSync(sessionDir, { recursive: true });
    const at = (s: number) => new Date(T0 + s * 1000).toISOString();
    const ev = (s: number, type: string, data: unknown) => ({
      type,
      data,
      id: `e${s}`,
      timestamp: at(s),
      parentId: null,
    });
    // Synthetic, from the copilot-agent event schema (research §4.3).
    writeFileSync(
      join(sessionDir, 'events.jsonl'),
      jsonl([
        ev(0, 'session.start', {
          sessionId: '11112222-3333-4444-5555-666677778888',
          version: 1,
          producer: 'copilot-agent',
          copilotVersion: '1.0.20',
          startTime: at(0),
          context: { cwd: '/home/dev/api' },
        }),
        ev(1, 'session.model_change', { newModel: 'claude-sonnet-4.5' }),
        ev(2, 'user.message', { content: 'run the tests', attachments: [] }),
        ev(3, 'assistant.turn_start', { turnId: '0' }),
        ev(4, 'assistant.message', {
          messageId: 'm1',
          content: '',
          toolRequests: [{ toolCallId: 'c1', name: 'bash', arguments: { command: 'npm test' }, type: 'function' }],
        }),
        ev(5, 'tool.execution_start', { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'npm test' } }),
        ev(6, 'tool.execution_complete', {
          toolCallId: 'c1',
          success: true,
          result: { content: '2 failing\n<exited with exit code 2>' },
        }),
        '{"type":"tool.execution_start","data":{"toolCallId":"c2",',
        ev(7, 'tool.execution_start', {
          toolCallId: 'c3',
          toolName: 'view',
          arguments: { path: '/home/dev/api/x.ts' },
        }),
        ev(8, 'tool.execution_complete', {
          toolCallId: 'c3',
          success: false,
          error: { message: 'Path does not exist', code: 'failure' },
        }),
        ev(9, 'session.error', { errorType: 'model_call', message: 'rate limited' }),
        ev(10, 'abort', { reason: 'user initiated' }),
        ev(11, 'session.telepathy', { x: 1 }),
        ev(12, 'assistant.turn_end', { turnId: '0' }),
      ]),
    );
    const { trace, warnings } = await importOne(dir);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /:8: malformed JSON line skipped/);
    assert.equal(trace.cwd, '/home/dev/api');
    assert.deepEqual(
      trace.steps.map((s) => s.kind),
      ['user', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'error', 'error'],
    );
    const tests = toolResult(trace, 'c1');
    assert.ok(tests.isError && tests.exitCode === 2);
    const view = toolResult(trace, 'c3');
    assert.ok(view.isError && view.output === 'Path does not exist');
    assert.equal(
      trace.steps.filter((s) => s.kind === 'tool_call' && s.callId === 'c1').length,
      1,
      'execution_start does not repeat a requested call',
    );
    assert.ok(trace.steps[6].kind === 'error' && trace.steps[6].text === 'turn aborted: user initiated');
    assert.equal(trace.outcome.interrupted, true);
    assert.deepEqual(trace.unknown, { 'session.telepathy': 1 });
  });

  it('reads a VS Code chatSessions .json (v3): rounds, results by id, denials, failed and cancelled requests', async () => {
    const { root, sessions } = workspace();
    writeFileSync(join(sessions, '9f1c6a2e-1111-4222-8333-444455556666.json'), JSON.stringify(chatData(), null, 2));
    const { trace, warnings } = await importOne(root);
    assert.deepEqual(warnings, []);
    checkChatTrace(trace);
  });

  it('replays a VS Code ≥1.109 chatSessions .jsonl mutation log into the same session', async () => {
    const { root, sessions } = workspace();
    const [first, second, third] = chatRequests();
    const { requests: _omit, ...initial } = chatData();
    writeFileSync(
      join(sessions, '9f1c6a2e-1111-4222-8333-444455556666.jsonl'),
      jsonl([
        { kind: 0, v: { ...initial, customTitle: undefined, requests: [], inputState: { inputText: '' } } },
        { kind: 1, k: ['inputState', 'inputText'], v: 'run the tests' },
        { kind: 2, k: ['requests'], v: [{ ...first, response: [], result: undefined }] },
        { kind: 2, k: ['requests', 0, 'response'], v: [{ value: 'partial' }] },
        // i cuts the array before pushing: the streamed partial text is replaced by the final parts
        { kind: 2, k: ['requests', 0, 'response'], v: first.response, i: 0 },
        { kind: 1, k: ['requests', 0, 'result'], v: first.result },
        { kind: 2, k: ['requests'], v: [second, third] },
        { kind: 1, k: ['customTitle'], v: 'Fix the cart test' },
        { kind: 1, k: ['missing', 'deep', 'path'], v: 1 },
        { kind: 1, k: ['requests', 2, 'followups'], v: [] },
        { kind: 3, k: ['requests', 2, 'followups'] },
      ]),
    );
    const { trace, warnings } = await importOne(root);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /:9: no object at missing\.deep; entry skipped/);
    checkChatTrace(trace);
  });

  it('applies the mutation kinds like VS Code', () => {
    let state: unknown;
    const apply = (entry: Record<string, unknown>) => {
      const r = applyMutation(state, entry);
      assert.ok(r.ok, JSON.stringify(entry));
      state = r.state;
    };
    apply({ kind: 0, v: { a: [1, 2, 3], b: { c: 1 } } });
    apply({ kind: 2, k: ['a'], v: [9], i: 1 });
    apply({ kind: 1, k: ['b', 'c'], v: 2 });
    apply({ kind: 3, k: ['b'] });
    apply({ kind: 2, k: ['d'], v: ['x'] });
    assert.deepEqual(state, { a: [1, 9], d: ['x'] });
    assert.equal(applyMutation(undefined, { kind: 1, k: ['a'], v: 1 }).ok, false);
    assert.equal(applyMutation(state, { kind: 7, k: ['a'] }).ok, false);
  });

  it('reads old sessions without tool-call rounds from their response parts', async () => {
    const { root, sessions } = workspace();
    writeFileSync(
      join(sessions, 'old.json'),
      JSON.stringify({
        requesterUsername: 'dev',
        responderUsername: 'GitHub Copilot',
        sessionId: 'old-session',
        creationDate: T0,
        requests: [
          {
            message: { text: 'what does this do?' },
            response: [
              { value: 'It reads ' },
              { kind: 'inlineReference', inlineReference: { path: '/w/a.ts' } },
              { value: 'the config.' },
              {
                kind: 'toolInvocationSerialized',
                toolId: 'copilot_readFile',
                toolCallId: 't1',
                invocationMessage: { value: 'Reading a.ts' },
                pastTenseMessage: { value: 'Read a.ts' },
                isComplete: true,
                isConfirmed: true,
              },
              { kind: 'markdownContent', content: { value: 'Done.' } },
            ],
          },
        ],
      }),
    );
    const { trace } = await importOne(root);
    assert.deepEqual(
      trace.steps.map((s) => s.kind),
      ['user', 'assistant', 'tool_call', 'tool_result', 'assistant'],
    );
    assert.ok(trace.steps[1].kind === 'assistant' && trace.steps[1].text === 'It reads the config.');
    assert.ok(
      trace.steps[3].kind === 'tool_result' && trace.steps[3].output === 'Read a.ts' && !trace.steps[3].isError,
    );
    assert.equal(trace.title, 'what does this do?');
  });

  it('warns about a malformed session file and produces no trace', async () => {
    const { root, sessions } = workspace();
    const text = JSON.stringify(chatData(), null, 2);
    writeFileSync(join(sessions, 'cut.json'), text.slice(0, text.length / 2));
    const [file] = await discoverSessions(root);
    assert.equal(file.agent, 'copilot');
    const { traces, warnings } = await importFile(file, DEFAULT_READ_LIMITS, {});
    assert.equal(traces.length, 0);
    assert.ok(warnings.length >= 1, 'at least one warning');
    assert.match(warnings[warnings.length - 1], /malformed lines skipped in all/);
  });

  it('does not claim Claude Code or Codex lines, nor other JSON in workspaceStorage', () => {
    assert.equal(copilotReader.sniff('x.jsonl', `${CLAUDE_LINE}\n`), false);
    assert.equal(copilotReader.sniff('x.jsonl', `${CODEX_LINE}\n`), false);
    assert.equal(
      copilotReader.sniff('state.json', JSON.stringify({ version: 1, initialFileContents: [], recentSnapshot: {} })),
      false,
    );
    assert.equal(
      copilotReader.sniff(
        's.json',
        JSON.stringify({ sessionId: 'x', title: 't', workspaceDirectory: '/w', history: [] }),
      ),
      false,
    );
  });
});
