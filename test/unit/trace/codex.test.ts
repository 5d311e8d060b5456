import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_READ_LIMITS } from '../../../src/core/import/limits';
import type { Step, Trace } from '../../../src/core/trace/model';
import { commandFromArgv, commandFromArguments } from '../../../src/core/trace/sources/toolCommand';
import { SHARED_TRACES, hasSharedTraces } from '../../support/paths';
import { tempDir } from '../../../testing/tmp';
import { discoverSessions, importFile } from '../../support/importFiles';
import { toolResult } from '../../support/readerFixtures';

const kinds = (t: Trace, kind: Step['kind']) => t.steps.filter((s) => s.kind === kind);
const jsonl = (lines: unknown[]) => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
const env = (timestamp: string, type: string, payload: unknown) => ({ timestamp, type, payload });

async function importOne(path: string): Promise<{ trace: Trace; warnings: string[] }> {
  const [file] = await discoverSessions(path);
  assert.ok(file, `${path} discovered`);
  assert.equal(file.agent, 'codex');
  const { traces, warnings } = await importFile(file, DEFAULT_READ_LIMITS, {});
  assert.equal(traces.length, 1);
  return { trace: traces[0], warnings };
}

describe('Codex reader', () => {
  const shared = join(SHARED_TRACES, 'codex');

  (hasSharedTraces ? it : it.skip)(
    'reads a real 0.135 codex_exec rollout, skipping developer and injected context',
    async () => {
      const { trace, warnings } = await importOne(
        join(shared, 'kvsankar-agent-history_real_sessions_codex_session-01.jsonl'),
      );
      assert.deepEqual(warnings, []);
      assert.equal(trace.id, 'codex:019e9625-802f-7e91-840a-cfe88d14117a');
      assert.equal(trace.agentVersion, '0.135.0');
      assert.equal(trace.cwd, '/tmp/agent-history-real-agent/codex/workspace');
      assert.equal(trace.startedAt, '2026-06-05T04:58:20.593Z');
      assert.equal(trace.endedAt, '2026-06-05T04:58:26.713Z');
      // 1 real prompt (the <environment_context> one and the developer message are dropped), 1 answer; the
      // event_msg user_message/agent_message copies are not counted twice.
      assert.deepEqual(
        trace.steps.map((s) => s.kind),
        ['user', 'assistant'],
      );
      assert.equal(kinds(trace, 'tool_call').length, 0);
      assert.equal(kinds(trace, 'error').length, 0);
      assert.equal(trace.outcome.toolErrors, 0);
      const assistant = trace.steps[1];
      assert.ok(assistant.kind === 'assistant' && assistant.model === 'gpt-5.5');
      assert.deepEqual(trace.unknown, {});
    },
  );

  (hasSharedTraces ? it : it.skip)(
    'counts the unknown record families of the 0.146–0.149 catalogue and pairs calls by call_id',
    async () => {
      const { trace, warnings } = await importOne(join(shared, 'agent-sessions_schema-catalogue_small.jsonl'));
      assert.deepEqual(warnings, []);
      assert.equal(trace.id, 'codex:019fc8be-3658-7ca3-9e29-000000000000');
      assert.equal(trace.agentVersion, '0.146.0');
      assert.equal(trace.cwd, '/tmp/repo');
      assert.equal(trace.parentId, undefined, 'the later subagent meta lines do not override the first');
      assert.equal(trace.unknown.compacted, 6);
      assert.equal(trace.unknown.world_state, 5);
      assert.equal(trace.unknown['event_msg:item_completed'], 13);
      assert.equal(trace.unknown['response_item:web_search_call'], 1);
      for (const id of ['call-1', 'call-2']) {
        const calls = trace.steps.filter((s) => s.kind === 'tool_call' && s.callId === id);
        const results = trace.steps.filter((s) => s.kind === 'tool_result' && s.callId === id);
        assert.equal(calls.length, 1, id);
        assert.equal(results.length, 1, id);
        assert.ok(calls[0].index < results[0].index);
        assert.ok(calls[0].kind === 'tool_call' && calls[0].command === 'ls');
      }
      assert.equal(toolResult(trace, 'call-1').output, 'a.txt\nb.txt\n');
      // user_message / agent_message events duplicate the response items and are dropped
      assert.equal(trace.steps.filter((s) => s.kind === 'user' && s.text === 'List the files').length, 1);
      assert.equal(trace.steps.filter((s) => s.kind === 'assistant' && s.text === 'Found 2 files.').length, 1);
      assert.ok(trace.steps.some((s) => s.kind === 'error' && s.text === 'turn aborted: interrupted'));
      assert.equal(trace.outcome.interrupted, true);
    },
  );

  it('reads a current-era rollout: failing command, exit codes from events, failed patch, injected context, bad line', async () => {
    const dir = tempDir('combee-codex-');
    const path = join(dir, 'rollout-2026-11-02T09-00-00-0199aaaa-0000-7000-8000-000000000001.jsonl');
    const t = (s: number) => `2026-11-02T09:00:${String(s).padStart(2, '0')}.000Z`;
    const lines = [
      env(t(0), 'session_meta', {
        id: '0199aaaa-0000-7000-8000-000000000001',
        timestamp: t(0),
        cwd: '/home/dev/shop',
        originator: 'codex_cli_rs',
        cli_version: '0.148.0',
        source: 'cli',
      }),
      env(t(1), 'turn_context', { cwd: '/home/dev/shop', model: 'gpt-5.5' }),
      env(t(1), 'response_item', {
        type: 'message',
        role: 'developer',
        content: [{ type: 'input_text', text: '<permissions instructions>…' }],
      }),
      env(t(1), 'response_item', {
        type: 'message',
        role: 'user',
        content: [
          {
            type: 'input_text',
            text: '# AGENTS.md instructions for /home/dev/shop\n\n<INSTRUCTIONS>\nUse pnpm.\n</INSTRUCTIONS>',
          },
        ],
      }),
      env(t(1), 'response_item', {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: '<environment_context>\n  <cwd>/home/dev/shop</cwd>\n</environment_context>' },
        ],
      }),
      env(t(2), 'response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'run the tests' }],
      }),
      env(t(2), 'event_msg', { type: 'user_message', message: 'run the tests', images: [] }),
      env(t(3), 'response_item', {
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['bash', '-lc', 'pnpm test'], workdir: '/home/dev/shop' }),
        call_id: 'call_a',
      }),
      env(t(4), 'response_item', {
        type: 'function_call_output',
        call_id: 'call_a',
        output: JSON.stringify({
          output: 'FAIL src/cart.test.ts\n1 failed',
          metadata: { exit_code: 1, duration_seconds: 1.2 },
        }),
      }),
      env(t(5), 'response_item', {
        type: 'function_call',
        name: 'exec_command',
        arguments: JSON.stringify({ cmd: 'pnpm lint' }),
        call_id: 'call_b',
      }),
      env(t(6), 'event_msg', {
        type: 'exec_command_end',
        call_id: 'call_b',
        command: ['bash', '-lc', 'pnpm lint'],
        exit_code: 2,
        aggregated_output: 'lint failed',
      }),
      env(t(6), 'response_item', {
        type: 'function_call_output',
        call_id: 'call_b',
        output: [{ type: 'input_text', text: 'lint failed' }],
      }),
      env(t(7), 'response_item', {
        type: 'custom_tool_call',
        name: 'apply_patch',
        input: '*** Begin Patch\n*** Update File: a.ts\n*** End Patch',
        call_id: 'call_c',
        status: 'completed',
      }),
      env(t(8), 'response_item', { type: 'custom_tool_call_output', call_id: 'call_c', output: 'patch did not apply' }),
      env(t(8), 'event_msg', {
        type: 'patch_apply_end',
        call_id: 'call_c',
        success: false,
        stdout: '',
        stderr: 'no match',
      }),
      env(t(9), 'response_item', {
        type: 'local_shell_call',
        call_id: 'call_d',
        status: 'completed',
        action: { type: 'exec', command: ['git', 'status', '--short'] },
      }),
      env(t(9), 'response_item', {
        type: 'function_call_output',
        call_id: 'call_d',
        output: 'Exit code: 0\nWall time: 0.1 seconds\nOutput:\n M a.ts',
      }),
      env(t(10), 'response_item', { type: 'reasoning', summary: [], encrypted_content: 'x' }),
      env(t(10), 'event_msg', { type: 'token_count', info: null }),
      env(t(11), 'response_item', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'One test fails.' }],
        phase: 'final_answer',
      }),
      env(t(11), 'event_msg', { type: 'agent_message', message: 'One test fails.' }),
      env(t(12), 'brand_new_family', { anything: true }),
      env(t(12), 'event_msg', { type: 'error', message: 'stream disconnected before completion' }),
    ];
    const text = jsonl(lines).split('\n');
    text.splice(8, 0, '{"timestamp":"2026-11-02T09:00:03.500Z","type":"respo');
    writeFileSync(path, text.join('\n'));
    const { trace, warnings } = await importOne(dir);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /:9: malformed JSON line skipped/);
    assert.equal(trace.id, 'codex:0199aaaa-0000-7000-8000-000000000001');
    assert.deepEqual(
      trace.steps.map((s) => s.kind),
      [
        'user',
        'tool_call',
        'tool_result',
        'tool_call',
        'tool_result',
        'tool_call',
        'tool_result',
        'tool_call',
        'tool_result',
        'assistant',
        'error',
      ],
    );
    const user = trace.steps[0];
    assert.ok(
      user.kind === 'user' && user.text === 'run the tests',
      'AGENTS.md and environment context are not user text',
    );
    const call = trace.steps[1];
    assert.ok(call.kind === 'tool_call' && call.command === 'pnpm test' && call.tool === 'shell');
    const failing = toolResult(trace, 'call_a');
    assert.equal(failing.isError, true);
    assert.equal(failing.exitCode, 1);
    assert.equal(failing.output, 'FAIL src/cart.test.ts\n1 failed');
    const lint = toolResult(trace, 'call_b');
    assert.ok(lint.isError && lint.exitCode === 2, 'exit code from exec_command_end');
    assert.equal(toolResult(trace, 'call_c').isError, true, 'patch_apply_end success:false');
    const status = toolResult(trace, 'call_d');
    assert.ok(!status.isError && status.exitCode === 0);
    const shellCall = trace.steps.find((s) => s.kind === 'tool_call' && s.callId === 'call_d');
    assert.ok(shellCall?.kind === 'tool_call' && shellCall.command === 'git status --short');
    assert.equal(trace.outcome.toolErrors, 3);
    assert.deepEqual(trace.outcome.testRuns, { passed: 0, failed: 1 });
    assert.deepEqual(trace.unknown, { brand_new_family: 1 });
    const error = trace.steps[10];
    assert.ok(error.kind === 'error' && error.text === 'stream disconnected before completion');
    assert.equal(trace.title, 'run the tests');
  });

  it('falls back to event messages, marks aborted turns and links subagents to their parent', async () => {
    const dir = tempDir('combee-codex-');
    const t = '2026-11-02T10:00:00.000Z';
    writeFileSync(
      join(dir, 'rollout-2026-11-02T10-00-00-0199bbbb-0000-7000-8000-000000000002.jsonl'),
      jsonl([
        env(t, 'session_meta', {
          id: '0199bbbb-0000-7000-8000-000000000002',
          cwd: '/w',
          cli_version: '0.149.0',
          source: { subagent: { thread_spawn: { parent_thread_id: '0199aaaa-parent', depth: 1 } } },
        }),
        env(t, 'event_msg', { type: 'user_message', message: 'check the build' }),
        env(t, 'response_item', {
          type: 'function_call',
          name: 'shell_command',
          arguments: JSON.stringify({ command: 'pnpm build' }),
          call_id: 'c1',
        }),
        env(t, 'response_item', { type: 'function_call_output', call_id: 'c1', output: 'aborted by user' }),
        env(t, 'event_msg', { type: 'turn_aborted', reason: 'interrupted' }),
        env(t, 'event_msg', { type: 'agent_message', message: 'Stopped.' }),
      ]),
    );
    const { trace, warnings } = await importOne(dir);
    assert.deepEqual(warnings, []);
    assert.deepEqual(
      trace.steps.map((s) => s.kind),
      ['user', 'tool_call', 'tool_result', 'error', 'assistant'],
    );
    assert.equal(trace.parentId, 'codex:0199aaaa-parent');
    assert.ok(trace.steps.every((s) => s.sidechain === true));
    const aborted = toolResult(trace, 'c1');
    assert.ok(aborted.isError && aborted.interrupted);
    assert.ok(trace.steps[3].kind === 'error' && trace.steps[3].text === 'turn aborted: interrupted');
    assert.equal(trace.outcome.interrupted, true);
  });

  it('reads an early-Rust rollout: bare SessionMeta, bare items and state lines', async () => {
    const dir = tempDir('combee-codex-');
    const id = '5973b6c0-94b8-487b-a530-2aeb6098ae0e';
    writeFileSync(
      join(dir, `rollout-2025-08-20T10-00-00-${id}.jsonl`),
      jsonl([
        { id, timestamp: '2025-08-20T10:00:00.000Z', instructions: null, git: { commit_hash: 'abc', branch: 'main' } },
        { record_type: 'state' },
        {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: '<user_instructions>\nbe brief\n</user_instructions>' }],
        },
        {
          type: 'message',
          role: 'user',
          content: [
            {
              type: 'input_text',
              text: '<environment_context>\n  <cwd>/home/dev/legacy</cwd>\n</environment_context>',
            },
          ],
        },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'why does the test fail?' }] },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { type: 'function_call', name: 'shell', arguments: '{"command":["bash","-lc","npm test"]}', call_id: 'call_1' },
        {
          type: 'function_call_output',
          call_id: 'call_1',
          output: '{"output":"1 failing","metadata":{"exit_code":1,"duration_seconds":0.4}}',
        },
        { record_type: 'state' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'A fixture is missing.' }] },
      ]),
    );
    const { trace, warnings } = await importOne(dir);
    assert.deepEqual(warnings, []);
    assert.equal(trace.id, `codex:${id}`);
    assert.equal(trace.startedAt, '2025-08-20T10:00:00.000Z');
    assert.equal(trace.cwd, '/home/dev/legacy', 'cwd from the injected environment context');
    assert.deepEqual(
      trace.steps.map((s) => s.kind),
      ['user', 'tool_call', 'tool_result', 'assistant'],
    );
    const r = toolResult(trace, 'call_1');
    assert.ok(r.isError && r.exitCode === 1);
    assert.deepEqual(trace.unknown, {});
  });

  it('reads a TypeScript-CLI single-JSON rollout', async () => {
    const dir = tempDir('combee-codex-');
    const id = 'd2b9a1f0-1111-4222-8333-444455556666';
    const doc = {
      session: { timestamp: '2025-05-01T08:00:00.000Z', id, instructions: '' },
      items: [
        { id: 'msg_1', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'what changed?' }] },
        {
          id: 'fc_1',
          type: 'function_call',
          name: 'shell',
          call_id: 'call_1',
          arguments: '{"command":["git","status"],"workdir":"/home/dev/old"}',
        },
        {
          type: 'function_call_output',
          call_id: 'call_1',
          output: '{"output":"nothing to commit","metadata":{"exit_code":0,"duration_seconds":0.1}}',
        },
        { id: 'msg_2', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Nothing.' }] },
      ],
    };
    writeFileSync(join(dir, `rollout-2025-05-01-${id}.json`), JSON.stringify(doc, null, 2));
    const { trace, warnings } = await importOne(dir);
    assert.deepEqual(warnings, []);
    assert.equal(trace.id, `codex:${id}`);
    assert.equal(trace.startedAt, '2025-05-01T08:00:00.000Z');
    assert.deepEqual(
      trace.steps.map((s) => s.kind),
      ['user', 'tool_call', 'tool_result', 'assistant'],
    );
    const call = trace.steps[1];
    assert.ok(call.kind === 'tool_call' && call.command === 'git status');
    const r = toolResult(trace, 'call_1');
    assert.ok(!r.isError && r.exitCode === 0 && r.output === 'nothing to commit');
  });

  it('warns once about a damaged compressed rollout and produces no trace', async () => {
    const dir = tempDir('combee-codex-');
    writeFileSync(
      join(dir, 'rollout-2026-11-02T10-00-00-0199cccc-0000-7000-8000-000000000003.jsonl.zst'),
      Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0]),
    );
    const [file] = await discoverSessions(dir);
    assert.equal(file.agent, 'codex');
    const { traces, warnings } = await importFile(file, DEFAULT_READ_LIMITS, {});
    assert.equal(traces.length, 0);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /zstd stream damaged or cut short/);
  });

  it('caps malformed-line warnings at 3 per file plus one total', async () => {
    const dir = tempDir('combee-codex-');
    const t = '2026-11-02T11:00:00.000Z';
    const good = jsonl([
      env(t, 'session_meta', { id: '0199dddd-0000-7000-8000-000000000004', cwd: '/w', cli_version: '0.148.0' }),
      env(t, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }),
    ]);
    writeFileSync(
      join(dir, 'rollout-2026-11-02T11-00-00-0199dddd-0000-7000-8000-000000000004.jsonl'),
      `${good}{bad\n[1,2]\n\u0000\u0000\n{"x":\nnull\n`,
    );
    const { trace, warnings } = await importOne(dir);
    assert.equal(warnings.length, 4);
    assert.match(warnings[3], /5 malformed lines skipped in all/);
    assert.deepEqual(
      trace.steps.map((s) => s.kind),
      ['user'],
    );
  });

  it('does not claim unrelated JSON or the credential file', async () => {
    const dir = tempDir('combee-codex-');
    writeFileSync(join(dir, 'history.jsonl'), jsonl([{ session_id: 'x', ts: 1, text: 'hello' }]));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', items: [] }));
    writeFileSync(join(dir, 'auth.json'), JSON.stringify({ session: {}, items: [] }));
    assert.deepEqual(await discoverSessions(dir), []);
  });

  it('extracts the shell line from the argument shapes of shell, shell_command and exec_command', () => {
    assert.equal(commandFromArguments('{"command":["bash","-lc","pnpm test -- --run"]}'), 'pnpm test -- --run');
    assert.equal(commandFromArguments('{"command":"pnpm lint"}'), 'pnpm lint');
    assert.equal(commandFromArguments('{"cmd":"TZ=UTC pnpm vitest run"}'), 'TZ=UTC pnpm vitest run');
    assert.equal(commandFromArguments('*** Begin Patch'), undefined);
    assert.equal(commandFromArguments('{"path":"a.ts"}'), undefined);
    assert.equal(commandFromArgv(['rg', '-n', 'foo bar', 'src']), "rg -n 'foo bar' src");
    assert.equal(commandFromArgv(['powershell.exe', '-Command', 'Get-ChildItem']), 'Get-ChildItem');
  });
});
