import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_READ_LIMITS } from '../../../src/core/import/limits';
import type { Trace } from '../../../src/core/trace/model';
import { cursorReader } from '../../../src/core/trace/sources/cursor';
import { SHARED_TRACES, hasSharedTraces } from '../../support/paths';
import { CLAUDE_LINE, CODEX_LINE, counts } from '../../support/readerFixtures';
import { discoverSessions, importFile } from '../../support/importFiles';

const jsonl = (lines: unknown[]) => `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`;

async function importAll(path: string): Promise<{ traces: Trace[]; warnings: string[] }> {
  const files = await discoverSessions(path);
  assert.ok(files.length > 0, `sessions under ${path}`);
  const traces: Trace[] = [];
  const warnings: string[] = [];
  for (const file of files) {
    assert.equal(file.agent, 'cursor', file.path);
    const out = await importFile(file, DEFAULT_READ_LIMITS, {});
    traces.push(...out.traces);
    warnings.push(...out.warnings);
  }
  return { traces, warnings };
}

describe('Cursor CLI reader', () => {
  (hasSharedTraces ? it : it.skip)(
    'reads the agent-transcript sample: <user_query> prompts, Shell tool calls without results',
    async () => {
      const { traces, warnings } = await importAll(
        join(SHARED_TRACES, 'cursor', 'agent-sessions_cursor-cli_agent-transcript.jsonl'),
      );
      assert.deepEqual(warnings, []);
      assert.equal(traces.length, 1);
      const trace = traces[0];
      assert.equal(trace.id, 'cursor:agent-sessions_cursor-cli_agent-transcript');
      assert.equal(trace.cwd, undefined, 'the file records no working directory');
      assert.equal(trace.startedAt, undefined, 'nor any time');
      assert.equal(trace.title, 'run ls command');
      assert.deepEqual(
        trace.steps.map((s) => s.kind),
        ['user', 'assistant', 'tool_call', 'assistant', 'user', 'assistant', 'tool_call', 'assistant'],
      );
      assert.deepEqual(counts(trace), { user: 2, assistant: 4, tool_call: 2 });
      const calls = trace.steps.filter((s) => s.kind === 'tool_call');
      assert.deepEqual(
        calls.map((c) => (c.kind === 'tool_call' ? [c.tool, c.command] : [])),
        [
          ['Shell', 'ls -la /tmp'],
          ['Shell', 'git status'],
        ],
      );
      const user = trace.steps[0];
      assert.ok(user.kind === 'user' && user.text === 'run ls command' && !user.isMeta);
      assert.equal(trace.outcome.toolErrors, 0);
      assert.deepEqual(trace.unknown, {});
    },
  );

  it('reads results when recorded, ignores turn_ended, counts unknown lines, warns on a bad line, links subagents', async () => {
    const root = mkdtempSync(join(tmpdir(), 'combee-cursor-'));
    const transcripts = join(root, 'projects', 'home-dev-shop', 'agent-transcripts');
    const parent = '0b5e7c1a-1111-4222-8333-444455556666';
    mkdirSync(join(transcripts, parent, 'subagents'), { recursive: true });
    // Synthetic, in the `{role, message:{content[]}}` shape of research §6.2.
    writeFileSync(
      join(transcripts, parent, `${parent}.jsonl`),
      jsonl([
        {
          role: 'user',
          message: {
            content: [
              { type: 'text', text: '<user_query>\nrun the tests\n</user_query>' },
              { type: 'text', text: '<open_files>src/a.ts</open_files>' },
            ],
          },
        },
        {
          role: 'assistant',
          message: {
            content: [
              { type: 'text', text: 'Running.' },
              { type: 'tool_use', id: 'tu_1', name: 'Shell', input: { command: 'npm test' } },
            ],
          },
        },
        '{"role":"user","message":{"content":[{"type":"tool_res',
        {
          role: 'user',
          message: { content: [{ type: 'tool_result', tool_use_id: 'tu_1', content: '1 failing', is_error: true }] },
        },
        { type: 'turn_ended', status: 'success' },
        { type: 'checkpoint', id: 'c1' },
        { role: 'assistant', message: { content: [{ type: 'hologram' }, { type: 'text', text: 'One test fails.' }] } },
      ]),
    );
    writeFileSync(
      join(transcripts, parent, 'subagents', 'aaaa0000-1111-4222-8333-444455556666.jsonl'),
      jsonl([
        { role: 'user', message: { content: [{ type: 'text', text: '<user_query>find the config</user_query>' }] } },
        { role: 'assistant', message: { content: [{ type: 'text', text: 'Found it.' }] } },
      ]),
    );
    const { traces, warnings } = await importAll(root);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /:3: malformed JSON line skipped/);
    const main = traces.find((t) => t.id === `cursor:${parent}`) as Trace;
    assert.deepEqual(
      main.steps.map((s) => s.kind),
      ['user', 'user', 'assistant', 'tool_call', 'tool_result', 'assistant'],
    );
    assert.ok(
      main.steps[1].kind === 'user' && main.steps[1].isMeta === true,
      'context outside <user_query> is injected',
    );
    const r = main.steps[4];
    assert.ok(r.kind === 'tool_result' && r.callId === 'tu_1' && r.isError);
    assert.deepEqual(main.outcome.testRuns, { passed: 0, failed: 1 });
    assert.deepEqual(main.unknown, { checkpoint: 1, 'block:hologram': 1 });
    const sub = traces.find((t) => t.id === 'cursor:aaaa0000-1111-4222-8333-444455556666') as Trace;
    assert.equal(sub.parentId, `cursor:${parent}`);
    assert.ok(sub.steps.every((s) => s.sidechain === true));
  });

  it('does not claim Claude Code or Codex lines', () => {
    assert.equal(cursorReader.sniff('x.jsonl', `${CLAUDE_LINE}\n`), false);
    assert.equal(cursorReader.sniff('x.jsonl', `${CODEX_LINE}\n`), false);
    assert.equal(cursorReader.sniff('x.jsonl', '{"role":"user","message":{"content":[]}}\n'), true);
  });
});
