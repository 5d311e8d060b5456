import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeProjectFolder } from '../../../src/core/memories/claudeCode';
import { MAX_MEMORY_FILE_BYTES, MAX_MEMORY_TOTAL_BYTES, readAgentMemories } from '../../../src/core/memories/read';
import type { MemoryItem } from '../../../src/core/memories/types';
import { judgeMemories } from '../../../src/core/memories/verdict';
import { makeTrace, shell, user } from '../../../testing/traces';
import { tempDir } from '../../../testing/tmp';

// Whose memory it is, and what it must show: a memory of a file kept for every project is a candidate only where it
// names this repository, a Copilot window is this one only by scheme, authority and path, and every command a
// memory names must have run and passed here.

function place() {
  const root = tempDir('combee-memory-scope-');
  const home = join(root, 'home');
  const workspace = join(root, 'acme-shop');
  mkdirSync(workspace, { recursive: true });
  return { root, home, workspace };
}

function write(path: string, text: string) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

const OTHER_PROJECT =
  'The billing-api deploy host is 10.20.30.40 for client Initech; run `git status` before deploying.';

/** Sessions of the workspace that ran generic commands and the project's own, all passing. */
function sessions(workspace: string) {
  return [
    makeTrace(
      'claude:a',
      [
        user('check the tree'),
        ...shell('git status', 'clean'),
        ...shell('pnpm db:seed', 'seeded'),
        ...shell('pnpm lint', 'ok'),
        ...shell('pnpm deploy:stg', 'deployed'),
        ...shell('pnpm build', 'built'),
        user('thanks'),
      ],
      { agent: 'claude-code', cwd: workspace, startedAt: '2026-11-02T10:00:00.000Z' },
    ),
    makeTrace(
      'claude:b',
      [
        user('again'),
        ...shell('git status', 'clean'),
        ...shell('pnpm db:seed', 'seeded'),
        ...shell('pnpm lint', 'ok'),
        ...shell('pnpm deploy:stg', 'deployed'),
        ...shell('pnpm build', 'built'),
        user('great'),
      ],
      { agent: 'claude-code', cwd: workspace, startedAt: '2026-11-03T10:00:00.000Z' },
    ),
  ];
}

describe('memories are scoped before they are judged', () => {
  it("reads of a global memory file (Codex, Gemini, Copilot's user memories) only what names this repository", async () => {
    const { home, workspace } = place();
    write(
      join(home, '.codex', 'memories', 'MEMORY.md'),
      `## billing-api\n\n- ${OTHER_PROJECT}\n\n## acme-shop\n\n- Run \`pnpm lint\` before pushing.\n`,
    );
    write(
      join(home, '.gemini', 'GEMINI.md'),
      `## Gemini Added Memories\n- ${OTHER_PROJECT}\n- In acme-shop, run \`pnpm build\` before a release.\n`,
    );
    write(
      join(
        home,
        '.config',
        'Code',
        'User',
        'globalStorage',
        'github.copilot-chat',
        'memory-tool',
        'memories',
        'notes.md',
      ),
      `- ${OTHER_PROJECT}\n- The acme-shop API lives in src/api.\n`,
    );
    const read = await readAgentMemories({ home, env: {}, workspace });
    assert.ok(!read.items.some((i) => i.text.includes('billing-api')), JSON.stringify(read.items.map((i) => i.text)));
    assert.deepEqual(
      read.items.map((i) => [i.agent, i.scope]),
      [
        ['codex', 'global'],
        ['gemini-cli', 'global'],
        ['copilot', 'global'],
      ],
    );
    assert.equal(read.warnings.filter((w) => w.includes('do not name this repository')).length, 3);
  });

  it("never proposes another project's memory on the strength of a generic command the sessions ran", async () => {
    const { home, workspace } = place();
    write(
      join(home, '.codex', 'memories', 'MEMORY.md'),
      `- ${OTHER_PROJECT}\n- acme-shop: run \`git status\` first.\n`,
    );
    const read = await readAgentMemories({ home, env: {}, workspace });
    const verdicts = judgeMemories(read.items, sessions(workspace));
    assert.ok(!verdicts.some((v) => v.item.text.includes('billing-api')));
    // it names the repository, but `git status` says nothing of this project: any project's sessions run it
    assert.deepEqual(
      verdicts.map((v) => v.verdict),
      ['unverified'],
    );
  });

  it("takes a Copilot window's repository memories only from a local single-folder window with this path", async () => {
    const { home, workspace } = place();
    const storage = join(home, '.config', 'Code', 'User', 'workspaceStorage');
    const window = (id: string, json: object, memory: string) => {
      write(join(storage, id, 'workspace.json'), JSON.stringify(json));
      write(join(storage, id, 'GitHub.copilot-chat', 'memory-tool', 'memories', 'repo', 'm.md'), `- ${memory}\n`);
    };
    window('local', { folder: `file://${workspace}` }, 'Local window memory.');
    window('ssh', { folder: `vscode-remote://ssh-remote%2Bprod-box${workspace}` }, 'SSH window memory.');
    window('multi', { workspace: `file://${workspace}/team.code-workspace` }, 'Multi-root memory.');
    window('host', { folder: `file://fileserver${workspace}` }, 'UNC share memory.');
    const read = await readAgentMemories({ home, env: {}, workspace });
    assert.deepEqual(
      read.items.map((i) => [i.text, i.scope]),
      [['Local window memory.', 'project']],
    );
  });

  it('caps the total read of all memory files, not only each file', async () => {
    const { home, workspace } = place();
    const dir = join(home, '.claude', 'projects', claudeProjectFolder(workspace), 'memory');
    const bullet = `- ${'x'.repeat(100)}\n`;
    const body = bullet.repeat(Math.floor((MAX_MEMORY_FILE_BYTES - 1024) / bullet.length));
    const files = Math.ceil(MAX_MEMORY_TOTAL_BYTES / body.length) + 2;
    for (let i = 0; i < files; i++) write(join(dir, `topic-${String(i).padStart(2, '0')}.md`), body);
    const read = await readAgentMemories({ home, env: {}, workspace });
    assert.ok(read.files.length < files, `${read.files.length} of ${files} files read`);
    assert.ok(read.files.length * body.length <= MAX_MEMORY_TOTAL_BYTES);
    assert.ok(read.warnings.some((w) => w.includes('of all memory files: not read')));
  });
});

describe('every command a memory names must be borne out', () => {
  const item = (text: string): MemoryItem => ({
    id: `mem-${text.length}`,
    agent: 'claude-code',
    file: '~/.claude/projects/x/memory/MEMORY.md',
    line: 1,
    scope: 'project',
    text,
    redacted: false,
    flags: [],
  });

  it('flags a memory whose borne-out command carries one no session ran', () => {
    const { workspace } = place();
    const memories = [
      'Before `pnpm db:seed`, run `export CACHE_DIR=/tmp/.cache`.',
      'After `pnpm lint` passes, run `make publish-docs`.',
      'Run `pnpm build` before a release.',
    ];
    const verdicts = judgeMemories(memories.map(item), sessions(workspace));
    assert.deepEqual(
      verdicts.map((v) => v.verdict),
      ['flagged', 'flagged', 'supported'],
    );
    assert.match(verdicts[0].item.flags[0].reason, /`export CACHE_DIR=\/tmp\/\.cache`, which no session/);
    assert.match(verdicts[1].item.flags[0].reason, /`make publish-docs`/);
  });
});
