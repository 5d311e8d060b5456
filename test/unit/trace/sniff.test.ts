import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { importSessions } from '../../../src/core/import/importer';
import { classifyFile } from '../../../src/core/trace/scan';
import { TraceStore } from '../../../src/core/store/traceStore';
import { prerequisiteTurns, writeClaudeSession } from '../../../testing/claudeSessions';
import { hasSharedTraces, SHARED_TRACES } from '../../support/paths';
import { tempDir } from '../../../testing/tmp';

const SESSION = 'abababab-aaaa-4bbb-8ccc-000000000001';

/** A real-shaped Claude Code session with `head` lines put before its records. */
function claudeWithHead(head: string[]): { home: string; path: string } {
  const home = join(tempDir('combee-sniff-'), '.claude');
  const path = writeClaudeSession(home, SESSION, '/home/dev/shop', prerequisiteTurns());
  writeFileSync(path, `${head.join('\n')}\n${readFileSync(path, 'utf8')}`);
  return { home, path };
}

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

async function importFrom(home: string) {
  return importSessions({ from: home, store: new TraceStore(join(dirname(home), 'store')), concurrency: 1 });
}

describe('sniffing: positive evidence, past damaged and unknown lines', () => {
  it('imports a Claude Code session whose first lines are a malformed line and a record type added later (the reported case)', async () => {
    const { home, path } = claudeWithHead([
      '{"type":"user","message":{"content":"cut off',
      JSON.stringify({ type: 'bridge-session', sessionId: SESSION, payload: { url: 'wss://x' } }),
    ]);
    assert.equal(await classifyFile(path), 'claude-code');
    const summary = await importFrom(home);
    assert.equal(summary.sessions, 1);
    assert.deepEqual(summary.skipped, {});
    assert.ok(
      summary.warningMessages.some((m) => m.includes(':1: malformed JSON line skipped')),
      summary.warningMessages.join('\n'),
    );
  });

  it("a key another agent uses (Codex's `payload` and `response_item`) does not hand a Claude Code session to that agent", async () => {
    const { path } = claudeWithHead([
      JSON.stringify({ timestamp: '2026-11-02T09:00:00.000Z', type: 'response_item', payload: { type: 'message' } }),
    ]);
    assert.equal(await classifyFile(path), 'claude-code');
  });

  it('a Gemini CLI log with a damaged first record is not taken for Claude Code (both have sessionId and "type":"user")', async () => {
    const dir = tempDir('combee-sniff-');
    const lines = [
      '{"sessionId":"g1","proj',
      JSON.stringify({
        id: 'g-user-1',
        timestamp: '2026-04-29T21:39:33.155Z',
        type: 'user',
        content: [{ text: 'hi' }],
        sessionId: 'g1',
      }),
    ];
    const loose = write(join(dir, 'log.jsonl'), `${lines.join('\n')}\n`);
    assert.notEqual(await classifyFile(loose), 'claude-code');
    // At Gemini's own place the file is Gemini's, and what cannot be read in it is said.
    const placed = write(
      join(dir, '.gemini', 'tmp', 'abc', 'chats', 'session-2026-04-29T21-39-g1.jsonl'),
      `${lines.join('\n')}\n`,
    );
    assert.equal(await classifyFile(placed), 'gemini-cli');
  });

  it('Copilot CLI events behind an event type added later and a malformed line', async function () {
    if (!hasSharedTraces) this.skip();
    const path = write(
      join(tempDir('combee-sniff-'), 'x', 'events.jsonl'),
      `{"type":"telemetry.flush","data":{},"id":"e0"}\n{oops\n${readFileSync(join(SHARED_TRACES, 'copilot', 'copilot-cli-subdir_v1', 'events.jsonl'), 'utf8')}`,
    );
    assert.equal(await classifyFile(path), 'copilot');
  });

  it('a cut file at a place only one agent writes is read as that agent\'s and warned about; elsewhere it is "not a session"', async () => {
    const root = tempDir('combee-sniff-');
    const cut = '{"parentUuid":null,"isSidechain":false,"userType":"ext';
    write(join(root, '.claude', 'projects', '-home-dev-shop', `${SESSION}.jsonl`), cut);
    write(join(root, '.claude', 'projects', '-home-dev-shop', 'notes.jsonl'), cut);
    const summary = await importFrom(join(root, '.claude'));
    assert.equal(summary.sessions, 0);
    assert.deepEqual(summary.skipped, { 'not a session': 1 });
    assert.match(summary.skippedSamples['not a session']?.[0] ?? '', /notes\.jsonl$/);
    assert.ok(
      summary.warningMessages.some(
        (m) => m.includes(`${SESSION}.jsonl: read as claude-code`) && m.includes('no session could be read from it'),
      ),
      summary.warningMessages.join('\n'),
    );
  });
});
