import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_READ_LIMITS } from '../../../src/core/import/limits';
import type { Step, Trace } from '../../../src/core/trace/model';
import { aiderReader } from '../../../src/core/trace/sources/aider';
import { SHARED_TRACES, hasSharedTraces } from '../../support/paths';
import { CLAUDE_LINE, CODEX_LINE, counts } from '../../support/readerFixtures';
import { discoverSessions, importFile } from '../../support/importFiles';

const traceId = (path: string, start: string) =>
  `aider:${createHash('sha256').update(`${path}${start}`).digest('hex').slice(0, 16)}`;
/** Session headers are local time without a zone. */
const local = (y: number, mo: number, d: number, h: number, mi: number, s: number) =>
  new Date(y, mo - 1, d, h, mi, s).toISOString();

async function importAll(path: string): Promise<{ traces: Trace[]; warnings: string[] }> {
  const files = await discoverSessions(path);
  assert.equal(files.length, 1, `one history file under ${path}`);
  assert.equal(files[0].agent, 'aider');
  return importFile(files[0], DEFAULT_READ_LIMITS, {});
}

describe('Aider reader', () => {
  (hasSharedTraces ? it : it.skip)('splits the real chat-history excerpt into its sessions', async () => {
    const path = join(SHARED_TRACES, 'aider', 'aider_tests_fixtures_chat-history.EXCERPT.md');
    const { traces, warnings } = await importAll(path);
    // The excerpt starts in the middle of a session: those lines are skipped, once, with a warning.
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /91 line\(s\) before the first "# aider chat started at" header skipped/);
    // 13 session headers; 5 sessions hold only the banner (or nothing) and give no trace; two hold only a commit.
    assert.equal(traces.length, 8);
    const expected: Array<[string, Partial<Record<Step['kind'], number>>]> = [
      ['2024-08-05 19:33:02', { tool_call: 1, tool_result: 1 }],
      ['2024-08-05 19:33:32', { user: 3, assistant: 1, tool_call: 2, tool_result: 2 }],
      ['2024-08-05 20:39:59', { user: 2, assistant: 1, error: 2 }],
      ['2024-08-05 20:40:33', { user: 2, error: 1 }],
      ['2024-08-05 20:41:15', { error: 1 }],
      ['2024-08-05 20:42:31', { tool_call: 1, tool_result: 1 }],
      ['2024-08-06 08:47:10', { user: 24, assistant: 10, tool_call: 25, tool_result: 25, error: 2 }],
      ['2024-08-06 08:55:14', { user: 24, assistant: 14, tool_call: 15, tool_result: 15, error: 11 }],
    ];
    traces.forEach((trace, i) => {
      const [start, kinds] = expected[i];
      assert.equal(trace.id, traceId(path, start), start);
      assert.deepEqual(counts(trace), kinds, start);
      const [date, time] = start.split(' ');
      const [y, mo, d] = date.split('-').map(Number);
      const [h, mi, s] = time.split(':').map(Number);
      // no repository holds the excerpt: the machine's zone, and the session says so
      assert.equal(trace.startedAt, local(y, mo, d, h, mi, s));
      assert.equal(trace.clock?.from, 'machine');
      assert.equal(trace.agentVersion, '0.47.2-dev');
      assert.equal(trace.cwd, join(SHARED_TRACES, 'aider'));
    });
    assert.deepEqual(traces[0].unknown, { 'preamble-lines': 91 });
    assert.equal(traces[1].title, 'Use the Spinner instead of the inlined custom spinner');

    const subtree = traces[6];
    const commands = subtree.steps
      .filter((s) => s.kind === 'tool_call' && (s.tool === 'lint' || s.tool === 'test'))
      .map((s) => (s.kind === 'tool_call' ? `${s.tool}: ${s.command}` : ''));
    assert.deepEqual(commands, [
      'lint: ~/Projects/aider/tmp.lint.sh tests/basic/test_repomap.py',
      'test: pytest tests/basic/test_repomap.py',
      'lint: ~/Projects/aider/tmp.lint.sh tests/basic/test_repomap.py',
      'test: pytest tests/basic/test_repomap.py',
      'lint: ~/Projects/aider/tmp.lint.sh tests/basic/test_repomap.py',
      'lint: ~/Projects/aider/tmp.lint.sh tests/basic/test_repomap.py',
    ]);
    assert.equal(subtree.outcome.toolErrors, 6, 'every lint and test run failed');
    const pytestCall = subtree.steps.find((s) => s.kind === 'tool_call' && s.tool === 'test');
    const pytest = subtree.steps.find(
      (s) => s.kind === 'tool_result' && pytestCall?.kind === 'tool_call' && s.callId === pytestCall.callId,
    );
    // The first copy of the pytest output is written unquoted after one `> ` line; it belongs to the command.
    assert.ok(
      pytest?.kind === 'tool_result' &&
        pytest.output.includes('platform darwin') &&
        pytest.output.includes('1 failed, 6 passed'),
    );
    assert.equal(subtree.steps.filter((s) => s.kind === 'user' && s.undo).length, 10);
    // prompts in the older shape (`Attempt to fix lint errors? y`) are confirmations too, not command output
    assert.equal(subtree.steps.filter((s) => s.kind === 'user' && s.confirmation).length, 4);
    // the last session's reply is cut inside a code fence: the user's `/undo` after it is still the user's
    assert.equal(traces[7].steps.filter((s) => s.kind === 'user' && s.undo).length, 5);
    assert.ok(
      subtree.steps.some(
        (s) => s.kind === 'error' && s.text.startsWith('Unexpected error: litellm.InternalServerError'),
      ),
    );
    assert.equal(
      traces[7].steps.filter((s) => s.kind === 'error' && s.text.startsWith('The LLM did not conform')).length,
      6,
    );
    assert.equal(traces[7].steps.filter((s) => s.kind === 'error' && s.text === 'turn aborted: ^C').length, 5);
    assert.equal(traces[2].outcome.interrupted, true);
  });

  it("reads commands the model ran, the user's ! commands, multi-line input, fences and errors; same-second sessions get distinct ids", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'combee-aider-'));
    const path = join(dir, '.aider.chat.history.md');
    // Synthetic, in aider's io.py format: `> ` lines end with two spaces, `#### ` on every line of the input.
    writeFileSync(
      path,
      [
        '',
        '# aider chat started at 2026-11-02 09:00:00',
        '',
        '> /usr/bin/aider --model gpt-4o  ',
        '> Aider v0.86.1  ',
        '> Main model: gpt-4o with diff edit format  ',
        '> Git repo: .git with 10 files  ',
        '',
        '#### run the tests please  ',
        '',
        "I'll run them.",
        '',
        '```bash',
        'npm test',
        '```',
        '',
        '> Tokens: 1k sent, 10 received.  ',
        '> Run shell command? (Y)es/(N)o [Yes]: y  ',
        '> Running npm test  ',
        '> FAIL src/cart.test.ts  ',
        '> 1 failed  ',
        '',
        '#### !ls  ',
        '> a.txt  ',
        '> b.txt  ',
        '',
        '#### no, keep jest  ',
        '####   ',
        '#### and explain this:  ',
        '',
        'Here is an example:',
        '',
        '```md',
        '#### inside a fence',
        '```',
        '',
        'Done.',
        '',
        '> Commit abc1234 fix: handle error in cart  ',
        '> Unexpected error: litellm.APIConnectionError: boom  ',
        '',
        '# aider chat started at 2026-11-02 09:00:00',
        '',
        '#### second session, same second  ',
        '',
        'ok',
        '',
      ].join('\n'),
    );
    const { traces, warnings } = await importAll(dir);
    assert.deepEqual(warnings, []);
    assert.equal(traces.length, 2);
    const [first, second] = traces;
    assert.equal(first.id, traceId(path, '2026-11-02 09:00:00'));
    assert.equal(second.id, traceId(path, '2026-11-02 09:00:00#2'));
    assert.equal(first.startedAt, local(2026, 11, 2, 9, 0, 0));
    assert.equal(first.cwd, dir);
    assert.equal(first.agentVersion, '0.86.1');
    assert.equal(first.title, 'run the tests please');
    assert.deepEqual(
      first.steps.map((s) => s.kind),
      [
        'user',
        'assistant',
        'user',
        'tool_call',
        'tool_result',
        'user',
        'tool_call',
        'tool_result',
        'user',
        'assistant',
        'tool_call',
        'tool_result',
        'error',
      ],
    );
    const assistant = first.steps[1];
    assert.ok(
      assistant.kind === 'assistant' &&
        assistant.text === "I'll run them.\n\n```bash\nnpm test\n```" &&
        assistant.model === 'gpt-4o',
    );
    const asked = first.steps[2];
    assert.ok(asked.kind === 'user' && asked.confirmation && asked.isMeta, 'the prompt answered, not words');
    const run = first.steps[3];
    assert.ok(run.kind === 'tool_call' && run.tool === 'shell' && run.command === 'npm test');
    const failed = first.steps[4];
    assert.ok(failed.kind === 'tool_result' && failed.isError && failed.output === 'FAIL src/cart.test.ts\n1 failed');
    const bang = first.steps[5];
    assert.ok(bang.kind === 'user' && bang.text === '!ls' && bang.isMeta);
    const ls = first.steps[7];
    assert.ok(ls.kind === 'tool_result' && !ls.isError && ls.output === 'a.txt\nb.txt');
    const multi = first.steps[8];
    assert.ok(multi.kind === 'user' && multi.text === 'no, keep jest\n\nand explain this:');
    const fenced = first.steps[9];
    assert.ok(
      fenced.kind === 'assistant' && fenced.text.includes('#### inside a fence') && fenced.text.endsWith('Done.'),
    );
    const commit = first.steps[10];
    assert.ok(commit.kind === 'tool_call' && commit.tool === 'git commit');
    assert.equal(commit.command, "git commit -m 'fix: handle error in cart'");
    const error = first.steps[12];
    assert.ok(
      error.kind === 'error' && error.text === 'Unexpected error: litellm.APIConnectionError: boom',
      'a commit subject mentioning "error" is not an error',
    );
    assert.deepEqual(first.outcome.testRuns, { passed: 0, failed: 1 });
    assert.equal(first.outcome.userCorrections, 1);
    assert.deepEqual(
      second.steps.map((s) => s.kind),
      ['user', 'assistant'],
    );
  });

  it('warns about a file cut at both ends and keeps the complete sessions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'combee-aider-'));
    writeFileSync(
      join(dir, 'history.md'),
      [
        '> ^C KeyboardInterrupt  ',
        '',
        '# aider chat started at 2026-11-03 10:00:00',
        '',
        '> Aider v0.86.1  ',
        '',
        '#### hello  ',
        '',
        'Hi!',
        '',
        '> Here are summaries of some files present in my git repository.',
        'src/a.ts',
        'src/b.ts',
      ].join('\n'),
    );
    const { traces, warnings } = await importAll(dir);
    assert.equal(warnings.length, 2);
    assert.match(warnings[0], /1 line\(s\) before the first/);
    // Aider ends every entry with a newline: the last line, without one, was cut
    assert.match(warnings[1], /ends mid-line \(cut\): the last line, of the session started at 2026-11-03 10:00:00/);
    assert.equal(traces.length, 1);
    assert.deepEqual(
      traces[0].steps.map((s) => s.kind),
      ['user', 'assistant'],
    );
    assert.deepEqual(traces[0].unknown, { 'preamble-lines': 1 });
  });

  it('does not claim Claude Code or Codex lines, nor other Markdown', () => {
    assert.equal(aiderReader.sniff('x.md', `${CLAUDE_LINE}\n`), false);
    assert.equal(aiderReader.sniff('x.md', `${CODEX_LINE}\n`), false);
    assert.equal(
      aiderReader.sniff('README.md', '# Project\n\nRun aider; it writes "# aider chat started at <time>" lines.\n'),
      false,
    );
    assert.equal(aiderReader.accepts('x.jsonl'), false);
  });
});
