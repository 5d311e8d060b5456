import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_READ_LIMITS } from '../../../src/core/import/limits';
import type { Trace } from '../../../src/core/trace/model';
import { git, gitInstalled, writeIn } from '../../../testing/gitRepo';
import { tempDir } from '../../../testing/tmp';
import { discoverSessions, importFile } from '../../support/importFiles';

// Aider writes session times without a zone: the zone comes from the same repository's commits, else the machine.

const session = (start: string, notices: string[] = []) => [
  '',
  `# aider chat started at ${start}`,
  '',
  '#### tidy up  ',
  '',
  'Tidied.',
  '',
  ...notices,
  '',
];

async function importIn(dir: string, lines: string[]): Promise<Trace[]> {
  writeFileSync(join(dir, '.aider.chat.history.md'), lines.join('\n'));
  const files = await discoverSessions(dir);
  return (await importFile(files[0], DEFAULT_READ_LIMITS, {})).traces;
}

function commit(repo: string, file: string, date: string): string {
  writeIn(repo, file, date);
  git(repo, ['add', file]);
  git(repo, ['commit', '-q', '-m', `change ${file}`], date);
  return git(repo, ['rev-parse', '--short=7', 'HEAD']).trim();
}

const machine = (y: number, mo: number, d: number, h: number, mi: number) =>
  new Date(y, mo - 1, d, h, mi, 0).toISOString();

(gitInstalled() ? describe : describe.skip)('Aider reader: session times', () => {
  it("takes the zone from the commits the session made, else from that day's, else the machine's", async () => {
    const repo = tempDir('combee-aider-clock-');
    git(repo, ['init', '-q']);
    commit(repo, 'a.txt', '2026-03-10T09:00:00+05:30');
    const own = commit(repo, 'b.txt', '2026-03-12T16:20:00-07:00');
    commit(repo, 'c.txt', '2026-03-12T16:25:00+01:00');
    const traces = await importIn(repo, [
      ...session('2026-03-10 10:15:00'),
      ...session('2026-03-12 16:00:00', [`> Commit ${own} change b.txt  `]),
      ...session('2026-03-20 08:00:00'),
    ]);
    assert.equal(traces.length, 3);
    assert.deepEqual(traces[0].clock, { zone: '+05:30', from: 'git' });
    assert.equal(traces[0].startedAt, '2026-03-10T04:45:00.000Z');
    // that day's nearest commit is at +01:00, but the session's own commit says where it ran
    assert.deepEqual(traces[1].clock, { zone: '-07:00', from: 'git' });
    assert.equal(traces[1].startedAt, '2026-03-12T23:00:00.000Z');
    assert.equal(traces[2].clock?.from, 'machine');
    assert.equal(traces[2].startedAt, machine(2026, 3, 20, 8, 0));
  });

  it('without its own commit, the commit of that day nearest in time', async () => {
    const repo = tempDir('combee-aider-clock-');
    git(repo, ['init', '-q']);
    commit(repo, 'a.txt', '2026-04-01T08:00:00+02:00');
    commit(repo, 'b.txt', '2026-04-01T18:00:00-04:00');
    const traces = await importIn(repo, [...session('2026-04-01 17:00:00')]);
    assert.deepEqual(traces[0].clock, { zone: '-04:00', from: 'git' });
    assert.equal(traces[0].startedAt, '2026-04-01T21:00:00.000Z');
  });

  it("a history below a repository's top is not that repository's: the machine's zone", async () => {
    const repo = tempDir('combee-aider-clock-');
    git(repo, ['init', '-q']);
    commit(repo, 'a.txt', '2026-03-10T09:00:00+05:30');
    const below = join(repo, 'notes');
    mkdirSync(below);
    const traces = await importIn(below, session('2026-03-10 10:15:00'));
    assert.deepEqual(traces[0].clock?.from, 'machine');
    assert.equal(traces[0].startedAt, machine(2026, 3, 10, 10, 15));
  });
});
