import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_READ_LIMITS } from '../../../src/core/import/limits';
import type { Trace } from '../../../src/core/trace/model';
import { openCodeReader } from '../../../src/core/trace/sources/openCode';
import { SHARED_TRACES, hasSharedTraces } from '../../support/paths';
import { CLAUDE_LINE, CODEX_LINE, counts, toolResult } from '../../support/readerFixtures';
import { discoverSessions, importFile } from '../../support/importFiles';

async function importAll(path: string): Promise<{ traces: Map<string, Trace>; warnings: string[] }> {
  const files = await discoverSessions(path);
  assert.ok(files.length > 0, `sessions under ${path}`);
  const traces = new Map<string, Trace>();
  const warnings: string[] = [];
  for (const file of files) {
    assert.equal(file.agent, 'opencode', file.path);
    const out = await importFile(file, DEFAULT_READ_LIMITS, {});
    warnings.push(...out.warnings);
    for (const t of out.traces) traces.set(t.id, t);
  }
  return { traces, warnings };
}

function write(dir: string, name: string, value: unknown): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));
}

describe('OpenCode reader', () => {
  (hasSharedTraces ? it : it.skip)(
    'reads the ≤1.1 JSON storage sample: two sessions, messages and parts from the sibling folders',
    async () => {
      const { traces, warnings } = await importAll(join(SHARED_TRACES, 'opencode', 'agent-sessions_storage_v2'));
      assert.deepEqual(warnings, []);
      assert.deepEqual([...traces.keys()].sort(), ['opencode:s_stage0_large', 'opencode:s_stage0_small']);

      const large = traces.get('opencode:s_stage0_large') as Trace;
      assert.equal(large.agentVersion, '1.3.17');
      assert.equal(large.cwd, '/tmp/large');
      assert.equal(large.title, 'OpenCode Large');
      assert.equal(large.startedAt, new Date(1730000100000).toISOString());
      assert.equal(large.endedAt, new Date(1730000109000).toISOString());
      assert.deepEqual(
        large.steps.map((s) => s.kind),
        ['user', 'tool_call', 'tool_result', 'assistant', 'error', 'user', 'assistant'],
      );
      assert.deepEqual(counts(large), { user: 2, tool_call: 1, tool_result: 1, assistant: 2, error: 1 });
      const call = large.steps[1];
      assert.ok(
        call.kind === 'tool_call' &&
          call.tool === 'bash' &&
          call.command === 'ls /non-existent-directory' &&
          call.callId === 'call_large_1',
      );
      const failed = toolResult(large, 'call_large_1');
      assert.ok(failed.isError && failed.exitCode === 1, 'status completed, metadata.exit 1');
      assert.ok(large.steps[4].kind === 'error' && large.steps[4].text === 'turn aborted: The operation was aborted.');
      const answer = large.steps[3];
      assert.ok(answer.kind === 'assistant' && answer.model === 'gpt-4o-mini');
      assert.equal(large.outcome.toolErrors, 1);
      assert.equal(large.outcome.interrupted, true);
      assert.deepEqual(large.unknown, {}, 'file, reasoning, step-start/finish, compaction and patch parts are known');

      const small = traces.get('opencode:s_stage0_small') as Trace;
      assert.equal(small.cwd, '/tmp/repo');
      assert.deepEqual(
        small.steps.map((s) => s.kind),
        ['user', 'tool_call', 'tool_result', 'assistant'],
      );
      assert.deepEqual(counts(small), { user: 1, tool_call: 1, tool_result: 1, assistant: 1 });
      const ok = toolResult(small, 'call_1');
      assert.ok(!ok.isError && ok.exitCode === 0 && ok.output === 'a.txt\nb.txt\n');
      assert.equal(small.outcome.toolErrors, 0);
      assert.deepEqual(small.unknown, {});
    },
  );

  it('reads a subagent session: error and unfinished tool states, synthetic user text, unknown parts, a bad part file', async () => {
    // Synthetic, in the message-v2 shapes of research §8.
    const storage = join(mkdtempSync(join(tmpdir(), 'combee-opencode-')), 'storage');
    const sid = 'ses_01JCHILD';
    write(join(storage, 'session', 'prj_1'), `${sid}.json`, {
      id: sid,
      version: '1.1.40',
      projectID: 'prj_1',
      directory: '/home/dev/shop',
      parentID: 'ses_01JPARENT',
      title: 'Check the build',
      time: { created: 1760000000000, updated: 1760000060000 },
    });
    write(join(storage, 'message', sid), 'msg_02.json', {
      id: 'msg_02',
      sessionID: sid,
      role: 'assistant',
      time: { created: 1760000002000, completed: 1760000009000 },
      modelID: 'claude-sonnet-4-5',
      providerID: 'anthropic',
      path: { cwd: '/home/dev/shop', root: '/home/dev/shop' },
      error: { name: 'ProviderAuthError', data: { message: 'bad key' } },
    });
    write(join(storage, 'message', sid), 'msg_01.json', {
      id: 'msg_01',
      sessionID: sid,
      role: 'user',
      time: { created: 1760000001000 },
    });
    write(join(storage, 'part', 'msg_01'), 'prt_01.json', { id: 'prt_01', type: 'text', text: 'build it' });
    write(join(storage, 'part', 'msg_01'), 'prt_02.json', {
      id: 'prt_02',
      type: 'text',
      text: 'Called the Read tool with {"path":"a.ts"}',
      synthetic: true,
    });
    write(join(storage, 'part', 'msg_02'), 'prt_03.json', {
      id: 'prt_03',
      type: 'tool',
      callID: 'toolu_1',
      tool: 'bash',
      state: {
        status: 'error',
        input: { command: 'pnpm build' },
        error: 'Error: command exited with 2',
        time: { start: 1760000003000, end: 1760000004000 },
      },
    });
    write(join(storage, 'part', 'msg_02'), 'prt_04.json', {
      id: 'prt_04',
      type: 'tool',
      callID: 'toolu_2',
      tool: 'edit',
      state: { status: 'running', input: { filePath: 'a.ts' }, time: { start: 1760000005000 } },
    });
    write(join(storage, 'part', 'msg_02'), 'prt_05.json', {
      id: 'prt_05',
      type: 'tool',
      callID: 'toolu_3',
      tool: 'bash',
      state: { status: 'denied', input: { command: 'rm -rf /' } },
    });
    write(join(storage, 'part', 'msg_02'), 'prt_06.json', { id: 'prt_06', type: 'hologram' });
    write(join(storage, 'part', 'msg_02'), 'prt_07.json', '{"id":"prt_07","type":"te');
    const { traces, warnings } = await importAll(join(storage, 'session'));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /prt_07\.json: malformed JSON; skipped/);
    const trace = traces.get(`opencode:${sid}`) as Trace;
    assert.equal(trace.parentId, 'opencode:ses_01JPARENT');
    assert.ok(trace.steps.every((s) => s.sidechain === true));
    assert.deepEqual(
      trace.steps.map((s) => s.kind),
      ['user', 'user', 'tool_call', 'tool_result', 'tool_call', 'tool_call', 'error'],
    );
    assert.ok(
      trace.steps[1].kind === 'user' && trace.steps[1].isMeta === true,
      'synthetic text is not typed by the user',
    );
    const failed = toolResult(trace, 'toolu_1');
    assert.ok(failed.isError && failed.output === 'Error: command exited with 2');
    assert.ok(trace.steps[6].kind === 'error' && trace.steps[6].text === 'ProviderAuthError: bad key');
    assert.deepEqual(trace.unknown, { 'tool-status:denied': 1, 'part:hologram': 1 });
    assert.equal(trace.outcome.toolErrors, 1);
  });

  it('warns about a malformed session file and produces no trace', async () => {
    const storage = join(mkdtempSync(join(tmpdir(), 'combee-opencode-')), 'storage');
    write(
      join(storage, 'session', 'prj_1'),
      'ses_cut.json',
      '{"id":"ses_cut","projectID":"prj_1","directory":"/w","time":{"created":1',
    );
    const [file] = await discoverSessions(storage);
    assert.equal(file.agent, 'opencode');
    const { traces, warnings } = await importFile(file, DEFAULT_READ_LIMITS, {});
    assert.equal(traces.length, 0);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /malformed OpenCode session JSON/);
  });

  it('does not claim Claude Code or Codex lines, nor message and part files', () => {
    assert.equal(openCodeReader.sniff('/s/session/p/ses_x.json', `${CLAUDE_LINE}\n`), false);
    assert.equal(openCodeReader.sniff('/s/session/p/ses_x.json', `${CODEX_LINE}\n`), false);
    assert.equal(openCodeReader.accepts('/s/session/p/ses_x.json'), true);
    assert.equal(openCodeReader.accepts('/s/message/ses_x/msg_1.json'), false);
    assert.equal(openCodeReader.accepts('/s/part/msg_1/prt_1.json'), false);
  });
});
