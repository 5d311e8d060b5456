import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { importSessions } from '../../../src/core/import/importer';
import { TraceStore } from '../../../src/core/store/traceStore';
import { join } from 'node:path';
import { DEFAULT_READ_LIMITS } from '../../../src/core/import/limits';
import { writeClaudeSession } from '../../../testing/claudeSessions';
import { SHARED_TRACES, hasSharedTraces } from '../../support/paths';
import { tempDir } from '../../../testing/tmp';
import { discoverSessions, importFile } from '../../support/importFiles';

describe('Claude Code reader', () => {
  it('counts an odd content block and keeps the rest of its line', async () => {
    const home = tempDir('combee-claude-odd-');
    const path = writeClaudeSession(home, '22222222-aaaa-4bbb-8ccc-000000000002', '/home/dev/shop', [
      { user: 'first' },
    ]);
    const sessionId = '22222222-aaaa-4bbb-8ccc-000000000002';
    const odd = {
      type: 'user',
      sessionId,
      cwd: '/home/dev/shop',
      uuid: '22222222-0000-4000-8000-00000000abcd',
      timestamp: '2026-11-02T09:10:00.000Z',
      message: { role: 'user', content: [42, { type: 'text', text: 'second' }, { text: 'no type' }] },
    };
    writeFileSync(path, `${readFileSync(path, 'utf8')}${JSON.stringify(odd)}\n`);
    const [file] = await discoverSessions(path);
    const { traces, warnings } = await importFile(file, DEFAULT_READ_LIMITS, {});
    assert.deepEqual(warnings, []);
    assert.deepEqual(
      traces[0].steps.map((s) => s.kind === 'user' && s.text),
      ['first', 'second'],
    );
    assert.equal(traces[0].unknown['user-block:invalid'], 2);
  });

  it('reads a tool output of 40 MB on one line (over the 16 MiB line cap) cut in the middle, with its exit code, head and tail', async () => {
    const home = tempDir('combee-claude-huge-');
    const output = `FIRST LINE OF OUTPUT\n${'build log line ✓ ok\n'.repeat(2_000_000)}FAIL src/cart.test.ts: expected 3, got 4\n`;
    const path = writeClaudeSession(home, '22222222-aaaa-4bbb-8ccc-000000000001', '/home/dev/shop', [
      { user: 'run the tests' },
      { bash: { command: 'pnpm test', output, exitCode: 1 } },
      { user: 'thanks' },
    ]);
    const [file] = await discoverSessions(path);
    const { traces, warnings } = await importFile(file, DEFAULT_READ_LIMITS, {});
    assert.deepEqual(warnings, []);
    const result = traces[0].steps.find((s) => s.kind === 'tool_result');
    assert.ok(result && result.kind === 'tool_result');
    assert.equal(result.exitCode, 1);
    assert.equal(result.isError, true);
    assert.ok(result.output.startsWith('Exit code 1\nFIRST LINE OF OUTPUT'));
    assert.ok(result.output.endsWith('FAIL src/cart.test.ts: expected 3, got 4\n'));
    assert.ok(result.output.length <= DEFAULT_READ_LIMITS.maxOutputChars);
    // counted in source bytes: close to the 40 M characters of the original
    assert.ok(
      result.truncatedFrom !== undefined && Math.abs(result.truncatedFrom - output.length) / output.length < 0.2,
      String(result.truncatedFrom),
    );
    assert.deepEqual(
      traces[0].steps.filter((s) => s.kind === 'user').map((s) => s.kind === 'user' && s.text),
      ['run the tests', 'thanks'],
    );
  });

  const sharedDir = join(SHARED_TRACES, 'claude-code', 'vscode-copilot-chat_claude-fixtures');

  (hasSharedTraces ? it : it.skip)('reads a real 2.1.37 session with a Bash tool call and its result', async () => {
    const [file] = await discoverSessions(join(sharedDir, 'bd937e2a-89e9-4d7b-8125-293a35863fa4.jsonl'));
    assert.equal(file.agent, 'claude-code');
    const { traces, warnings } = await importFile(file, DEFAULT_READ_LIMITS, {});
    assert.deepEqual(warnings, []);
    assert.equal(traces.length, 1);
    const trace = traces[0];
    assert.equal(trace.id, 'claude-code:bd937e2a-89e9-4d7b-8125-293a35863fa4');
    assert.equal(trace.agentVersion, '2.1.37');
    const call = trace.steps.find((s) => s.kind === 'tool_call');
    assert.ok(call && call.kind === 'tool_call');
    assert.equal(call.tool, 'Bash');
    assert.equal(call.command, 'sleep 4');
    const result = trace.steps.find((s) => s.kind === 'tool_result');
    assert.ok(result && result.kind === 'tool_result' && result.callId === call.callId);
    // the injected <system-reminder> is not part of what the user said
    const user = trace.steps.find((s) => s.kind === 'user');
    assert.ok(user && user.kind === 'user');
    assert.equal(user.text, 'run sleep 4');
    assert.equal(trace.cwd, '/Users/tyleonha/Code/Microsoft/vscode-copilot-chat');
  });

  (hasSharedTraces ? it : it.skip)(
    'finds the parent session and its subagent transcript in the 2.1.x layout',
    async () => {
      const files = await discoverSessions(sharedDir);
      const sub = files.find((f) => f.path.includes('/subagents/'));
      assert.ok(sub, 'subagent file discovered');
      const { traces } = await importFile(sub, DEFAULT_READ_LIMITS, {});
      assert.equal(traces.length, 1);
      assert.equal(traces[0].parentId, 'claude-code:50a7220d-7250-46f3-b38e-b716ce25032e');
      assert.ok(traces[0].steps.every((s) => s.sidechain === true));
    },
  );

  (hasSharedTraces ? it : it.skip)(
    'keeps unknown record types as counted metadata from the 2.1.x schema catalogue',
    async () => {
      const [file] = await discoverSessions(
        join(SHARED_TRACES, 'claude-code', 'agent-sessions_schema-catalogue_small.jsonl'),
      );
      const { traces } = await importFile(file, DEFAULT_READ_LIMITS, {});
      assert.ok(traces.length >= 1);
      const unknownTotal = traces.reduce((sum, t) => sum + Object.values(t.unknown).reduce((a, b) => a + b, 0), 0);
      assert.ok(unknownTotal > 0, 'some record types are unknown and counted');
      assert.ok(
        traces.some((t) => t.steps.some((s) => s.kind === 'tool_result' && s.isError)),
        'the rejected tool use is an error',
      );
    },
  );

  it('merges the one-block-per-line assistant split, skips malformed lines with a warning and dedupes copied uuids', async () => {
    const dir = tempDir('combee-cc-');
    const path = join(dir, 'aaaa-1111.jsonl');
    const base = {
      sessionId: 'aaaa-1111',
      cwd: '/home/dev/shop',
      version: '2.1.50',
      timestamp: '2026-10-01T10:00:00.000Z',
    };
    const lines = [
      { ...base, type: 'user', uuid: 'u1', message: { role: 'user', content: 'run the tests' } },
      {
        ...base,
        type: 'assistant',
        uuid: 'a1',
        message: { id: 'msg_1', role: 'assistant', content: [{ type: 'text', text: 'Running' }] },
      },
      {
        ...base,
        type: 'assistant',
        uuid: 'a2',
        message: { id: 'msg_1', role: 'assistant', content: [{ type: 'text', text: 'the suite.' }] },
      },
      {
        ...base,
        type: 'assistant',
        uuid: 'a3',
        message: {
          id: 'msg_1',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm test' } }],
        },
      },
      {
        ...base,
        type: 'user',
        uuid: 'u2',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't1', content: 'Exit code 1\nFAIL', is_error: true }],
        },
      },
      {
        ...base,
        type: 'user',
        uuid: 'u2',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't1', content: 'Exit code 1\nFAIL', is_error: true }],
        },
      },
      { ...base, type: 'brand-new-record', uuid: 'x1' },
    ].map((l) => JSON.stringify(l));
    writeFileSync(path, `${lines.slice(0, 3).join('\n')}\n{"truncated": \n${lines.slice(3).join('\n')}\n`);
    const [file] = await discoverSessions(dir);
    const { traces, warnings } = await importFile(file, DEFAULT_READ_LIMITS, {});
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /malformed JSON line/);
    const t = traces[0];
    assert.deepEqual(
      t.steps.map((s) => s.kind),
      ['user', 'assistant', 'tool_call', 'tool_result'],
    );
    const assistant = t.steps[1];
    assert.ok(assistant.kind === 'assistant' && assistant.text === 'Running\nthe suite.');
    const result = t.steps[3];
    assert.ok(result.kind === 'tool_result' && result.exitCode === 1 && result.isError);
    assert.deepEqual(t.outcome.testRuns, { passed: 0, failed: 1 });
    assert.equal(t.unknown['brand-new-record'], 1);
  });

  it('reads subagent transcripts written beside the sessions as subagents of their parent, each stored', async () => {
    const home = tempDir('combee-claude-beside-');
    const parent = '33333333-aaaa-4bbb-8ccc-000000000003';
    const path = writeClaudeSession(home, parent, '/home/dev/shop', [
      { user: 'fix the cart test' },
      { bash: { command: 'pnpm test', output: 'ok' } },
    ]);
    // an older layout: agent-<id>.jsonl in the project folder, every line a sidechain with the parent's sessionId
    for (const agent of ['a1', 'b2', 'c3']) {
      const lines = readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((line) => {
          const record = JSON.parse(line) as Record<string, unknown>;
          return JSON.stringify({
            ...record,
            isSidechain: true,
            agentId: agent,
            uuid: `${agent}-${String(record.uuid)}`,
          });
        });
      writeFileSync(join(dirname(path), `agent-${agent}.jsonl`), `${lines.join('\n')}\n`);
    }
    const store = new TraceStore(tempDir('combee-claude-beside-store-'));
    const result = await importSessions({ from: home, store });
    const stored = await store.listTraces();
    assert.equal(result.sessions, 4);
    assert.equal(stored.length, 4, JSON.stringify(stored.map((t) => t.id)));
    const subagents = stored.filter((t) => t.parentId !== undefined);
    assert.deepEqual(
      subagents.map((t) => [t.id, t.parentId]).sort(),
      ['a1', 'b2', 'c3'].map((a) => [`claude-code:${parent}/agent-${a}`, `claude-code:${parent}`]),
    );
  });
});
