import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { mergeSkipped, skipCounter, skippedTotal, type Skipped } from '../../../src/core/trace/skipped';
import { prerequisiteTurns, writeClaudeSession } from '../../../testing/claudeSessions';
import { tempDir } from '../../../testing/tmp';
import { capture } from '../../../testing/cliOutput';

/** An agent home with one real session and every kind of file an import must not pass over in silence. */
function oddHome() {
  const root = tempDir('combee-skipped-');
  const home = join(root, '.claude');
  writeClaudeSession(home, 'abababab-aaaa-4bbb-8ccc-000000000001', '/home/dev/shop', prerequisiteTurns());
  const project = join(home, 'projects', 'odd');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'notes.jsonl'), '{"hello": "world"}\n{"not": "a session"}\n');
  writeFileSync(join(project, 'empty.jsonl'), '');
  execFileSync('mkfifo', [join(project, 'pipe.jsonl')]);
  mkdirSync(join(project, 'folder.jsonl'));
  symlinkSync(join(root, 'nowhere.jsonl'), join(project, 'broken.jsonl'));
  symlinkSync(home, join(project, 'loop'));
  return { root, home };
}

describe('import: every file seen and not imported is counted by reason', () => {
  it('not a session, empty, special file, folder named like a session, broken link, link loop — with sample paths', async () => {
    const { root, home } = oddHome();
    const out = capture();
    assert.equal(
      await runCli(['import', '--from', home, '--store', join(root, 'store'), '--json', '--workers', '0'], out),
      0,
    );
    const summary = JSON.parse(out.stdout.join('\n'));
    assert.equal(summary.sessions, 1);
    assert.deepEqual(summary.skipped, {
      'not a session': 1,
      empty: 1,
      'special file': 1,
      'folder named like a session': 1,
      unreadable: 1,
      'symbolic link loop': 1,
    });
    assert.match(summary.skippedSamples['not a session'][0], /notes\.jsonl$/);
    assert.match(summary.skippedSamples['special file'][0], /pipe\.jsonl$/);
    assert.match(summary.skippedSamples['symbolic link loop'][0], /loop$/);
    const again = capture();
    assert.equal(await runCli(['import', '--from', home, '--store', join(root, 'store'), '--workers', '0'], again), 0);
    assert.match(
      again.stdout.join('\n'),
      /Not imported: .*1 not a session \(.*notes\.jsonl\)/,
      'a non-session file seen before is still counted',
    );
  });

  it("--agent X reads a file of X's name as X even when X's sniffer does not recognize it, and says what it found", async () => {
    const { root, home } = oddHome();
    const out = capture();
    assert.equal(
      await runCli(
        [
          'import',
          '--from',
          home,
          '--store',
          join(root, 'store'),
          '--json',
          '--workers',
          '0',
          '--agent',
          'claude-code',
        ],
        out,
      ),
      0,
    );
    const summary = JSON.parse(out.stdout.join('\n'));
    assert.equal(summary.skipped['not a session'], undefined, 'read as Claude Code, not sniffed away');
    assert.ok(summary.warnings > 0, JSON.stringify(summary.warningMessages));
  });
});

describe('skip counting', () => {
  it('counts a path once; too large, learned by reading it, replaces a reason given before and is never replaced', () => {
    const into: Skipped = { skipped: {}, skippedSamples: {} };
    const skip = skipCounter(into);
    skip('not a session', '/a/ui_messages.json');
    skip('not a session', '/a/notes.json');
    skip('not a session', '/a/notes.json');
    skip('too large', '/a/ui_messages.json');
    skip('not a session', '/a/ui_messages.json');
    skip('too large', '/b/big.json');
    skip('empty', '/b/big.json');
    assert.deepEqual(into, {
      skipped: { 'not a session': 1, 'too large': 2 },
      skippedSamples: { 'not a session': ['/a/notes.json'], 'too large': ['/a/ui_messages.json', '/b/big.json'] },
    });
    assert.equal(skippedTotal(into), 3);
  });

  it('merges the imports of several folders: counts added, at most 3 sample paths per reason', () => {
    const one: Skipped = {
      skipped: { empty: 2, 'too large': 1 },
      skippedSamples: { empty: ['/1/a', '/1/b'], 'too large': ['/1/c'] },
    };
    const two: Skipped = { skipped: { empty: 3 }, skippedSamples: { empty: ['/2/a', '/2/b', '/2/c'] } };
    assert.deepEqual(mergeSkipped([one, two]), {
      skipped: { empty: 5, 'too large': 1 },
      skippedSamples: { empty: ['/1/a', '/1/b', '/2/a'], 'too large': ['/1/c'] },
    });
    assert.deepEqual(mergeSkipped([]), { skipped: {}, skippedSamples: {} });
  });
});
