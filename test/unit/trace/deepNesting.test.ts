import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { importSessions } from '../../../src/core/import/importer';
import { TOO_DEEP } from '../../../src/core/trace/sources/jsonText';
import { TraceStore } from '../../../src/core/store/traceStore';
import { EXAMPLES } from '../../support/paths';
import { tempDir } from '../../../testing/tmp';

const DEEP = 100_000;
const deep = `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`;

async function importOne(rel: string, text: string) {
  const home = tempDir('combee-deep-');
  mkdirSync(dirname(join(home, rel)), { recursive: true });
  writeFileSync(join(home, rel), text);
  const store = new TraceStore(join(home, '.store'));
  const summary = await importSessions({ from: home, store, concurrency: 1 });
  return { summary, traces: await store.listTraces() };
}

describe('a value nested 100,000 deep costs only itself', () => {
  it('in a Claude Code tool input (JSONL): the session is imported, the input kept as a marker', async () => {
    const name = '5302349f-ae26-47a9-88e3-015ea33a41f6.jsonl';
    const text = readFileSync(
      join(EXAMPLES, 'sessions', 'claude-code', 'projects', '-home-dev-acme-shop', name),
      'utf8',
    );
    assert.ok(text.includes('"input":{'));
    const { summary, traces } = await importOne(
      `.claude/projects/-p/${name}`,
      text.replace('"input":{', `"input":{"deep":${deep},`),
    );
    assert.equal(summary.sessions, 1, summary.warningMessages.join('\n'));
    assert.ok(traces[0].steps.some((s) => s.kind === 'tool_call' && s.input === TOO_DEEP));
  });

  it('in a Gemini CLI tool call (one JSON document)', async () => {
    const session = {
      sessionId: 'session-1',
      projectHash: 'ab12',
      startTime: '2025-12-16T23:47:00.000Z',
      lastUpdated: '2025-12-16T23:48:00.000Z',
      messages: [
        { id: 'm1', timestamp: '2025-12-16T23:47:01.000Z', type: 'user', content: 'Run a command' },
        {
          id: 'm2',
          timestamp: '2025-12-16T23:47:02.000Z',
          type: 'gemini',
          content: '',
          toolCalls: [
            { id: 'c1', name: 'run_shell_command', args: { command: 'ls', deep: 'DEEP' }, status: 'success' },
          ],
        },
      ],
    };
    const { summary } = await importOne(
      '.gemini/tmp/ab12/chats/session-2025-12-16T23-47-1.json',
      JSON.stringify(session).replace('"DEEP"', deep),
    );
    assert.equal(summary.sessions, 1, summary.warningMessages.join('\n'));
  });
});
