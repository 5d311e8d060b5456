import assert from 'node:assert/strict';
import { join } from 'node:path';
import { memoriesCommand } from '../../../src/cli/commands/memories';
import type { Output } from '../../../src/cli/output';
import { TraceStore } from '../../../src/core/store/traceStore';
import { tempDir } from '../../../testing/tmp';
import { MEMORY, memorySessions, TOKEN, writeMemoryFolders } from './fixtures';

function capture(): Output & { text: () => string } {
  const lines: string[] = [];
  return { result: (t) => lines.push(t), info: () => undefined, warn: () => undefined, text: () => lines.join('\n') };
}

describe('combee memories', () => {
  const saved = { HOME: process.env.HOME, CODEX_HOME: process.env.CODEX_HOME };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  });

  it('lists each memory with its verdict and evidence, the same bytes each time, and never a secret', async () => {
    const root = tempDir('combee-memories-cli-');
    const { home, workspace } = writeMemoryFolders(root);
    const storeDir = join(root, 'store');
    const store = new TraceStore(storeDir);
    for (const trace of memorySessions(workspace)) await store.saveTrace(trace);
    process.env.HOME = home;
    delete process.env.CODEX_HOME;
    const run = async (...flags: string[]) => {
      const out = capture();
      assert.equal(await memoriesCommand(['--workspace', workspace, '--store', storeDir, ...flags], out), 0);
      return out.text();
    };
    const json = await run('--json');
    assert.equal(await run('--json'), json, 'deterministic');
    const listed = JSON.parse(json) as { memories: Array<{ text: string; verdict: string; against: unknown[] }> };
    const verdictOf = (text: string) => listed.memories.find((m) => m.text === text)?.verdict;
    assert.equal(verdictOf(MEMORY.tests), 'supported');
    assert.equal(verdictOf(MEMORY.npm), 'contradicted');
    assert.equal(verdictOf(MEMORY.prose), 'unverified');
    assert.equal(verdictOf(MEMORY.injection), 'flagged');
    assert.ok(!json.includes(TOKEN));
    const text = await run();
    assert.match(
      text,
      /\[contradicted\] Claude Code ~\/\.claude\/projects\/.*\/memory\/MEMORY\.md:4: Install packages/,
    );
    assert.match(text, /against codex:npm step\(s\)/);
  });
});
