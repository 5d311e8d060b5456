import assert from 'node:assert/strict';
import { DEFAULT_READ_LIMITS } from '../../../src/core/import/limits';
import { writeClaudeSession } from '../../../testing/claudeSessions';
import { tempDir } from '../../../testing/tmp';
import { discoverSessions, importFile } from '../../support/importFiles';

// Claude Code's shell keeps the folder a `cd` moved it to, and every entry records the folder it was written in: a
// call made after `cd web` ran in web/, though its own line names no folder.

describe('Claude Code reader: the folder each shell call ran in', () => {
  it('gives a call the folder its entry records when an earlier cd moved the shell, relative to the session', async () => {
    const home = tempDir('combee-claude-cwd-');
    const path = writeClaudeSession(home, '33333333-aaaa-4bbb-8ccc-000000000001', '/home/dev/shop', [
      { user: 'build the web app' },
      { bash: { command: 'cd web && pnpm build', output: 'built' } },
      { bash: { command: 'pnpm lint', output: 'ok', cwd: '/home/dev/shop/web' } },
      { bash: { command: 'ls', output: 'a b', cwd: '/tmp/scratch' } },
      { bash: { command: 'git status', output: 'clean', cwd: '/home/dev/shop' } },
    ]);
    const [file] = await discoverSessions(path);
    const { traces } = await importFile(file, DEFAULT_READ_LIMITS, {});
    const calls = traces[0].steps.flatMap((s) => (s.kind === 'tool_call' ? [[s.command, s.workdir]] : []));
    assert.deepEqual(calls, [
      ['cd web && pnpm build', undefined],
      ['pnpm lint', 'web'],
      ['ls', '/tmp/scratch'],
      ['git status', undefined],
    ]);
  });
});
