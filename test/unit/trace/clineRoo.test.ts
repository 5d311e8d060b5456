import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_READ_LIMITS } from '../../../src/core/import/limits';
import type { AgentId, Trace } from '../../../src/core/trace/model';
import { clineReader, rooCodeReader } from '../../../src/core/trace/sources/clineRoo';
import { CLAUDE_LINE, CODEX_LINE, counts, toolResult } from '../../support/readerFixtures';
import { discoverSessions, importFile } from '../../support/importFiles';

// No licensed real Cline/Roo task exists (see /work/shared/traces/cline-roo/README.md): every task here is synthetic,
// written from the schemas in the research notes (§5: Cline disk.ts / ExtensionMessage.ts, Roo task-persistence).

const T0 = Date.parse('2026-11-02T09:00:00.000Z');
const ENV = (cwd: string) =>
  `<environment_details>\n# VSCode Visible Files\nsrc/cart.ts\n\n# Current Working Directory (${cwd}) Files\nsrc/\npackage.json\n</environment_details>`;
const text = (t: string) => ({ type: 'text', text: t });

function writeTask(root: string, extensionId: string, taskId: string, files: Record<string, unknown>): string {
  const dir = join(root, 'globalStorage', extensionId, 'tasks', taskId);
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
}

async function importOne(path: string, agent: AgentId): Promise<{ trace: Trace; warnings: string[] }> {
  const files = await discoverSessions(path);
  assert.equal(files.length, 1, `one task under ${path}`);
  assert.equal(files[0].agent, agent);
  const { traces, warnings } = await importFile(files[0], DEFAULT_READ_LIMITS, {});
  assert.equal(traces.length, 1, `one trace (warnings: ${warnings.join('; ')})`);
  return { trace: traces[0], warnings };
}

describe('Cline / Roo Code reader', () => {
  it('reads a Cline task with XML tool calls answered by "[tool] Result:" text, ui errors placed by history index', async () => {
    const root = mkdtempSync(join(tmpdir(), 'combee-cline-'));
    writeTask(root, 'saoudrizwan.claude-dev', '1769053680585', {
      'api_conversation_history.json': [
        { role: 'user', content: [text('<task>\nFix the failing cart test\n</task>'), text(ENV('/home/dev/shop'))] },
        {
          role: 'assistant',
          content: [
            text(
              '<thinking>Run the tests first.</thinking>\nLet me run the tests.\n\n<execute_command>\n<command>npm test</command>\n<requires_approval>false</requires_approval>\n</execute_command>',
            ),
          ],
          modelInfo: { providerId: 'anthropic', modelId: 'claude-sonnet-4-5', mode: 'act' },
        },
        {
          role: 'user',
          content: [
            text("[execute_command for 'npm test'] Result:"),
            text('Command executed.\nOutput:\nFAIL src/cart.test.ts\n1 failing\nExit code: 1'),
            text(ENV('/home/dev/shop')),
          ],
        },
        { role: 'assistant', content: [text('<read_file>\n<path>src/cart.ts</path>\n</read_file>')] },
        {
          role: 'user',
          content: [
            text(
              "[read_file for 'src/cart.ts'] Result:\nThe tool execution failed with the following error:\n<error>\nENOENT\n</error>",
            ),
            text(ENV('/home/dev/shop')),
          ],
        },
        {
          role: 'assistant',
          content: [
            text('<attempt_completion>\n<result>Fixed the test.</result>\n</attempt_completion>'),
            { type: 'mystery_block', x: 1 },
          ],
        },
        {
          role: 'user',
          content: [
            text('[attempt_completion] Result:'),
            text(
              'The user has provided feedback on the results. Consider their input to continue the task, and then attempt completion again.\n<feedback>\nno, use vitest instead of jest\n</feedback>',
            ),
            text(ENV('/home/dev/shop')),
          ],
        },
        {
          role: 'user',
          content: [text('[TASK RESUMPTION] This task was interrupted 2 minutes ago.'), text(ENV('/home/dev/shop'))],
        },
      ],
      'ui_messages.json': [
        { ts: T0, type: 'say', say: 'task', text: 'Fix the failing cart test' },
        {
          ts: T0 + 1000,
          type: 'say',
          say: 'api_req_started',
          text: JSON.stringify({ request: '<task>…', tokensIn: 10 }),
          conversationHistoryIndex: 0,
        },
        {
          ts: T0 + 5000,
          type: 'say',
          say: 'error',
          text: 'Cline tried to use read_file without value for required parameter',
          conversationHistoryIndex: 3,
        },
        {
          ts: T0 + 9000,
          type: 'say',
          say: 'api_req_started',
          text: JSON.stringify({ request: '', cancelReason: 'user_cancelled' }),
          conversationHistoryIndex: 7,
        },
      ],
      'task_metadata.json': { files_in_context: [], model_usage: [], environment_history: [] },
    });
    const { trace, warnings } = await importOne(root, 'cline');
    assert.deepEqual(warnings, []);
    assert.equal(trace.id, 'cline:1769053680585');
    assert.equal(trace.agent, 'cline');
    assert.equal(trace.cwd, '/home/dev/shop', 'from the environment_details text');
    assert.equal(trace.title, 'Fix the failing cart test');
    assert.equal(trace.startedAt, new Date(T0).toISOString());
    assert.equal(trace.endedAt, new Date(T0 + 9000).toISOString());
    assert.deepEqual(
      trace.steps.map((s) => s.kind),
      [
        'user',
        'assistant',
        'tool_call',
        'tool_result',
        'tool_call',
        'error',
        'tool_result',
        'tool_call',
        'tool_result',
        'user',
        'user',
        'error',
      ],
    );
    assert.deepEqual(counts(trace), { user: 3, assistant: 1, tool_call: 3, tool_result: 3, error: 2 });
    const first = trace.steps[0];
    assert.ok(
      first.kind === 'user' && first.text === 'Fix the failing cart test',
      'task tags and environment details stripped',
    );
    const assistant = trace.steps[1];
    assert.ok(
      assistant.kind === 'assistant' &&
        assistant.text === 'Let me run the tests.' &&
        assistant.model === 'claude-sonnet-4-5',
    );
    const call = trace.steps[2];
    assert.ok(call.kind === 'tool_call' && call.tool === 'execute_command' && call.command === 'npm test');
    const tests = toolResult(trace, call.callId);
    assert.ok(
      tests.isError &&
        tests.exitCode === 1 &&
        tests.output.includes('1 failing') &&
        !tests.output.includes('environment_details'),
    );
    const read = trace.steps[6];
    assert.ok(read.kind === 'tool_result' && read.isError, 'tool execution failed');
    const feedback = trace.steps[9];
    assert.ok(
      feedback.kind === 'user' && feedback.text === 'no, use vitest instead of jest',
      'feedback on attempt_completion is the user speaking',
    );
    const resumption = trace.steps[10];
    assert.ok(resumption.kind === 'user' && resumption.isMeta === true);
    assert.ok(trace.steps[11].kind === 'error' && trace.steps[11].text === 'turn aborted: user_cancelled');
    assert.equal(trace.outcome.toolErrors, 2);
    assert.deepEqual(trace.outcome.testRuns, { passed: 0, failed: 1 });
    assert.equal(trace.outcome.userCorrections, 1);
    assert.equal(trace.outcome.interrupted, true);
    assert.deepEqual(trace.unknown, { 'assistant-block:mystery_block': 1 });
  });

  it('pairs native tool_use blocks with text results by tool name and order', async () => {
    const root = mkdtempSync(join(tmpdir(), 'combee-cline-'));
    writeTask(root, 'saoudrizwan.claude-dev', '1769064454592', {
      'api_conversation_history.json': [
        { role: 'user', content: [text('<task>\nlist and read\n</task>')] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_a', name: 'list_files', input: { path: '.' } },
            { type: 'tool_use', id: 'toolu_b', name: 'read_file', input: { path: 'a.ts' } },
          ],
        },
        {
          role: 'user',
          content: [
            text("[read_file for 'a.ts'] Result:"),
            text('export const a = 1;'),
            text("[list_files for '.'] Result:"),
            text('a.ts\nb.ts'),
          ],
        },
      ],
    });
    const { trace } = await importOne(root, 'cline');
    assert.deepEqual(
      trace.steps.map((s) => s.kind),
      ['user', 'tool_call', 'tool_call', 'tool_result', 'tool_result'],
    );
    assert.equal(toolResult(trace, 'toolu_b').output, 'export const a = 1;');
    assert.equal(toolResult(trace, 'toolu_a').output, 'a.ts\nb.ts');
    assert.equal(trace.cwd, undefined, 'no environment details, no metadata: unknown');
  });

  it('reads a Roo Code v2 history (AI-SDK messages) as roo-code wherever it is, with times and the workspace', async () => {
    const root = mkdtempSync(join(tmpdir(), 'combee-roo-'));
    writeTask(root, 'some-fork.storage', 'a1b2c3d4-0000-4000-8000-000000000001', {
      'api_conversation_history.json': {
        version: 2,
        messages: [
          { role: 'user', content: [text('<user_message>\nadd a health endpoint\n</user_message>')], ts: T0 },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'hmm' },
              text('Checking the app.'),
              { type: 'tool-call', toolCallId: 'call_1', toolName: 'execute_command', input: { command: 'pytest -q' } },
            ],
            ts: T0 + 1000,
          },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 'call_1',
                toolName: 'execute_command',
                output: { type: 'text', value: '[ERROR] Command failed with exit code 2' },
              },
            ],
            ts: T0 + 2000,
          },
          {
            role: 'assistant',
            content: [{ type: 'tool-call', toolCallId: 'call_2', toolName: 'read_file', input: { path: 'app.py' } }],
            ts: T0 + 3000,
          },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 'call_2',
                toolName: 'read_file',
                output: { type: 'error-text', value: 'no such file' },
              },
            ],
            ts: T0 + 4000,
          },
          { role: 'critic', content: 'odd', ts: T0 + 5000 },
        ],
      },
      'history_item.json': {
        id: 'a1b2c3d4-0000-4000-8000-000000000001',
        ts: T0,
        task: 'add a health endpoint',
        workspace: '/home/dev/api',
      },
      'ui_messages.json': [
        { ts: T0, type: 'say', say: 'text', text: 'add a health endpoint' },
        { ts: T0 + 2500, type: 'say', say: 'error', text: 'Roo is having trouble' },
      ],
    });
    const { trace, warnings } = await importOne(root, 'roo-code');
    assert.deepEqual(warnings, []);
    assert.equal(trace.id, 'roo-code:a1b2c3d4-0000-4000-8000-000000000001');
    assert.equal(trace.cwd, '/home/dev/api');
    assert.equal(trace.title, 'add a health endpoint');
    assert.deepEqual(
      trace.steps.map((s) => s.kind),
      ['user', 'assistant', 'tool_call', 'tool_result', 'error', 'tool_call', 'tool_result'],
    );
    assert.equal(trace.steps[0].time, new Date(T0).toISOString());
    const first = trace.steps[0];
    assert.ok(first.kind === 'user' && first.text === 'add a health endpoint');
    assert.equal(toolResult(trace, 'call_1').isError, true, '[ERROR] prefix');
    assert.equal(toolResult(trace, 'call_2').isError, true, 'error-text output');
    assert.equal(trace.outcome.toolErrors, 2);
    assert.deepEqual(trace.unknown, { 'role:critic': 1 });
  });

  it('reads a legacy Roo task (Anthropic blocks) from the Roo extension folder as roo-code, and a forced agent finds it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'combee-roo-'));
    writeTask(root, 'rooveterinaryinc.roo-cline', '1750000000000', {
      'api_conversation_history.json': [
        { role: 'user', content: [text('<task>\nbump the version\n</task>')], ts: T0 },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_1', name: 'execute_command', input: { command: 'npm version patch' } },
          ],
          ts: T0 + 1000,
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [text('v1.0.1')] }],
          ts: T0 + 2000,
        },
      ],
    });
    const [file] = await discoverSessions(root, { agent: 'roo-code' });
    assert.equal(file?.agent, 'roo-code');
    assert.deepEqual(await discoverSessions(root, { agent: 'cline' }), []);
    const { trace } = await importOne(root, 'roo-code');
    assert.deepEqual(counts(trace), { user: 1, tool_call: 1, tool_result: 1 });
    const r = toolResult(trace, 'toolu_1');
    assert.ok(!r.isError && r.output === 'v1.0.1');
    const call = trace.steps[1];
    assert.ok(call.kind === 'tool_call' && call.command === 'npm version patch');
  });

  it('warns about a truncated history and produces no trace', async () => {
    const root = mkdtempSync(join(tmpdir(), 'combee-cline-'));
    const full = JSON.stringify([
      { role: 'user', content: [text('<task>\nhi\n</task>')] },
      { role: 'assistant', content: [text('hello')] },
    ]);
    writeTask(root, 'saoudrizwan.claude-dev', '1769000000000', {
      'api_conversation_history.json': full.slice(0, full.length - 20),
      'ui_messages.json': '[{"ts":1,',
    });
    const [file] = await discoverSessions(root);
    assert.equal(file.agent, 'cline');
    const { traces, warnings } = await importFile(file, DEFAULT_READ_LIMITS, {});
    assert.equal(traces.length, 0);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /malformed JSON/);
  });

  it("does not claim Claude Code or Codex files, nor the task folder's other files", () => {
    for (const reader of [clineReader, rooCodeReader]) {
      assert.equal(reader.sniff('/t/1/api_conversation_history.json', `${CLAUDE_LINE}\n`), false);
      assert.equal(reader.sniff('/t/1/api_conversation_history.json', `${CODEX_LINE}\n`), false);
      assert.equal(reader.accepts('/t/1/ui_messages.json'), false);
      assert.equal(reader.accepts('/t/1/x.jsonl'), false);
    }
    assert.equal(
      clineReader.sniff(
        '/g/saoudrizwan.claude-dev/tasks/1/api_conversation_history.json',
        '[{"role":"user","content":"hi"}]',
      ),
      true,
    );
    assert.equal(
      rooCodeReader.sniff(
        '/g/saoudrizwan.claude-dev/tasks/1/api_conversation_history.json',
        '[{"role":"user","content":"hi"}]',
      ),
      false,
    );
  });
});
