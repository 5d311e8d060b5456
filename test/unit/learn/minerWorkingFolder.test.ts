import assert from 'node:assert/strict';
import { mineLessons } from '../../../src/core/llm/offline/miner';
import { emptyPlaybook } from '../../../src/core/playbook/markdown';
import { makeTrace, shell } from '../../../testing/traces';

type StepInput = Parameters<typeof makeTrace>[1][number];

// A cd stays in effect: a repository-relative path used after it names nothing, and works from the root.

let n = 0;
/** A call the shell ran in `workdir`, where an earlier call's cd left it (Claude Code records it per entry). */
function after(workdir: string, command: string, output: string, exitCode = 0): StepInput[] {
  const callId = `c-${++n}`;
  return [
    { kind: 'tool_call', callId, tool: 'Bash', command, workdir, input: JSON.stringify({ command }) },
    { kind: 'tool_result', callId, output, isError: exitCode !== 0, exitCode: exitCode === 0 ? undefined : exitCode },
  ];
}
const folderLessons = (id: string, steps: StepInput[]) =>
  mineLessons(makeTrace(id, steps, { cwd: '/home/dev/shop' }), emptyPlaybook()).lessons.filter((l) =>
    l.key?.startsWith('cwd:'),
  );

describe('offline miner: a cd that stays in effect', () => {
  it('learns it from a later call in the folder an earlier cd left, and from the rest of a cd line', () => {
    const persisted = folderLessons('a', [
      ...shell('cd services/api && go vet ./...', ''),
      ...after(
        'services/api',
        'git add services/api/handler.go',
        "fatal: pathspec 'services/api/handler.go' did not match any files",
        128,
      ),
      ...after('services/api', 'cd /home/dev/shop && git add services/api/handler.go', ''),
    ]);
    const inLine = folderLessons('b', [
      ...shell('cd /tmp/fixture && scripts/seed.sh', 'bash: scripts/seed.sh: No such file or directory', 127),
      ...shell('scripts/seed.sh', 'seeded'),
    ]);
    assert.equal(persisted.length, 1);
    assert.equal(inLine.length, 1);
    assert.equal(persisted[0].key, inLine[0].key);
    assert.equal(persisted[0].minSupport, 2);
    assert.match(persisted[0].content, /^A cd stays in effect .* from the repository root/);
    assert.match(persisted[0].content, /`services\/api\/handler\.go`/);
  });

  it('learns nothing when the failure names no path of the line, or the path never works from the root', () => {
    assert.deepEqual(
      folderLessons('a', [
        ...after('services/api', 'go test ./internal/...', 'FAIL internal/db', 1),
        ...after('services/api', 'cd /home/dev/shop && go test ./internal/...', 'ok'),
      ]),
      [],
    );
    assert.deepEqual(
      folderLessons('b', [
        ...after('services/api', 'cat docs/notes.md', 'cat: docs/notes.md: No such file or directory', 1),
        ...after('services/api', 'ls', 'main.go'),
      ]),
      [],
    );
  });
});
