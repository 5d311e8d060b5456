import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importSessions } from '../../../src/core/import/importer';
import { DEFAULT_READ_LIMITS } from '../../../src/core/import/limits';
import { sessionSignals } from '../../../src/core/learn/sessionSignals';
import { editedFiles } from '../../../src/core/trace/edits';
import type { Step, Trace } from '../../../src/core/trace/model';
import { TraceStore } from '../../../src/core/store/traceStore';
import { readerVersion } from '../../../src/core/trace/sources';
import { slashCommand } from '../../../src/core/trace/sources/aiderNotices';
import { tempDir } from '../../../testing/tmp';
import { discoverSessions, importFile } from '../../support/importFiles';

// Histories written here in the shapes of Aider's io.py (`> ` notices and `#### ` input end in two spaces), for what
// Aider did (edits, commits), the prompts it asked and the user's `/undo`.

async function importHistory(lines: string[]): Promise<{ traces: Trace[]; warnings: string[] }> {
  const dir = tempDir('combee-aider-actions-');
  writeFileSync(join(dir, '.aider.chat.history.md'), lines.join('\n'));
  const files = await discoverSessions(dir);
  assert.equal(files.length, 1);
  return importFile(files[0], DEFAULT_READ_LIMITS, {});
}

const BANNER = ['> aider --model gpt-4o  ', '> Aider v0.86.1  ', '> Git repo: .git with 3 files  ', ''];
const ALL = "Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: ";

const calls = (trace: Trace) =>
  trace.steps.filter((s): s is Extract<Step, { kind: 'tool_call' }> => s.kind === 'tool_call');

describe('Aider reader: what Aider did', () => {
  it('stores edits and commits as tool calls with their files, successful', async () => {
    const { traces, warnings } = await importHistory([
      '',
      '# aider chat started at 2026-05-04 08:00:00',
      '',
      ...BANNER,
      '#### greet the user in src\\hello.py  ',
      '',
      'I will add a greeting.',
      '',
      '> Committing src\\hello.py before applying edits.  ',
      '> Commit 1a2b3c4 chore: keep local changes to hello.py  ',
      '> Applied edit to src\\hello.py  ',
      '> Applied edit to README.md  ',
      "> Commit 5d6e7f8 feat: greet the user, don't exit  ",
      '> You can use /undo to undo and discard each aider commit.  ',
      '',
    ]);
    assert.deepEqual(warnings, []);
    assert.equal(traces.length, 1);
    const trace = traces[0];
    const done = calls(trace);
    assert.deepEqual(
      done.map((c) => c.tool),
      ['git commit', 'edit', 'edit', 'git commit'],
    );
    assert.deepEqual(JSON.parse(done[0].input), {
      command: "git commit -m 'chore: keep local changes to hello.py'",
      message: 'chore: keep local changes to hello.py',
      hash: '1a2b3c4',
      files: ['src\\hello.py'],
    });
    assert.deepEqual(editedFiles(done[1], trace.cwd), ['src/hello.py']);
    assert.deepEqual(editedFiles(done[2], trace.cwd), ['README.md']);
    assert.equal(done[3].command, "git commit -m 'feat: greet the user, don'\\''t exit'");
    assert.deepEqual(JSON.parse(done[3].input).files, ['src\\hello.py', 'README.md']);
    for (const call of done) {
      const result = trace.steps.find((s) => s.kind === 'tool_result' && s.callId === call.callId);
      assert.ok(result?.kind === 'tool_result' && !result.isError, call.callId);
    }
    assert.equal(new Set(done.map((c) => c.callId)).size, 4, 'call ids are unique');
    assert.deepEqual(sessionSignals(trace).edits, [done[1].index, done[2].index]);
  });

  it('reads /undo as the user undoing the last edit: a correction and a revert', async () => {
    const { traces } = await importHistory([
      '',
      '# aider chat started at 2026-05-04 09:00:00',
      '',
      ...BANNER,
      '#### rename parse to parseConfig  ',
      '',
      'Renamed.',
      '',
      '> Applied edit to config.ts  ',
      '> Commit 0badcafe refactor: rename parse  ',
      '',
      '#### /undo  ',
      '> Removed: 0badcafe refactor: rename parse  ',
      '> Now at:  1234abc first commit  ',
      '',
      '#### /u  ',
      '> The last commit was not made by aider in this chat session.  ',
      '',
    ]);
    const trace = traces[0];
    const undos = trace.steps.filter((s) => s.kind === 'user' && s.undo);
    // `/u` runs /undo too: Aider runs the one command a typed word is a unique prefix of
    assert.deepEqual(
      undos.map((s) => (s.kind === 'user' ? s.text : '')),
      ['/undo', '/u'],
    );
    assert.equal(trace.outcome.userCorrections, 2);
    const signals = sessionSignals(trace);
    assert.deepEqual(
      signals.corrections,
      undos.map((s) => s.index),
    );
    assert.deepEqual(
      signals.reverted,
      undos.map((s) => s.index),
    );
  });

  it('an undo before any agent work corrects nothing', async () => {
    const { traces } = await importHistory([
      '',
      '# aider chat started at 2026-05-04 09:30:00',
      '',
      ...BANNER,
      '#### /undo  ',
      '> The last commit was not made by aider in this chat session.  ',
      '',
    ]);
    assert.equal(traces[0].outcome.userCorrections, 0);
    assert.deepEqual(sessionSignals(traces[0]).reverted, []);
  });

  it("stores Aider's yes/no prompts as confirmations, once each, never as the user's words", async () => {
    const { traces } = await importHistory([
      '',
      '# aider chat started at 2026-05-04 10:00:00',
      '',
      '> Add .aider* to .gitignore (recommended)? (Y)es/(N)o [Yes]: y  ',
      '> Added .aider* to .gitignore  ',
      '',
      '# aider chat started at 2026-05-04 10:05:00',
      '',
      ...BANNER,
      '#### look at lib/a.ts and lib/b.ts  ',
      '> lib/a.ts  ',
      `> ${ALL}a  `,
      '> lib/b.ts  ',
      '',
      `#### ${ALL}all  `,
      `> ${ALL}a  `,
      '',
      'Both files read.',
      '',
      '#### /run make check  ',
      '> Add 0.2k tokens of command output to the chat? (Y)es/(N)o [Yes]: n  ',
      '',
      '#### /git status --short  ',
      '> M lib/a.ts  ',
      '',
    ]);
    // the first session only answered a start-up prompt: no session of its own
    assert.equal(traces.length, 1);
    const trace = traces[0];
    const confirmations = trace.steps.filter((s) => s.kind === 'user' && s.confirmation);
    // the group's "all" echoed as input and its own `> ` line are one answer
    assert.equal(confirmations.length, 3);
    assert.ok(confirmations.every((s) => s.kind === 'user' && s.isMeta));
    assert.equal(trace.title, 'look at lib/a.ts and lib/b.ts');
    assert.deepEqual(
      calls(trace).map((c) => `${c.tool}: ${c.command}`),
      ['run: make check', 'git: git status --short'],
    );
    assert.equal(trace.outcome.userCorrections, 0);
    assert.deepEqual(sessionSignals(trace).corrections, []);
  });

  it("reads older Aider's prompts (a question and a yes or no) from its own lines only", async () => {
    const { traces } = await importHistory([
      '',
      '# aider chat started at 2024-06-01 09:00:00',
      '',
      '#### was the lint clean? yes  ',
      '',
      'It was not.',
      '',
      '> ## Running: flake8 app.py  ',
      '> app.py:1:1: F401 unused import  ',
      '> Attempt to fix lint errors? [Y/n] y  ',
      '> Run pip install? n  ',
      '',
    ]);
    const users = traces[0].steps.filter((s) => s.kind === 'user');
    assert.deepEqual(
      users.map((s) => (s.kind === 'user' ? [s.text, Boolean(s.confirmation)] : [])),
      [
        ['was the lint clean? yes', false],
        ['Attempt to fix lint errors? [Y/n] y', true],
        ['Run pip install? n', true],
      ],
    );
    const lint = traces[0].steps.find((s) => s.kind === 'tool_result');
    assert.ok(lint?.kind === 'tool_result' && lint.output === 'app.py:1:1: F401 unused import');
  });

  it('resolves slash commands as Aider does: unique prefixes, ambiguous words run nothing', () => {
    assert.deepEqual(slashCommand('/undo'), { name: 'undo', args: '' });
    assert.deepEqual(slashCommand('/te npm test'), { name: 'test', args: 'npm test' });
    assert.deepEqual(slashCommand('!ls -la'), { name: 'run', args: 'ls -la' });
    assert.equal(slashCommand('/r x')?.name, undefined, '/r is run, read-only, reset, report…');
    assert.equal(slashCommand('/model gpt-4o')?.name, 'model', 'an exact name wins over longer ones');
    assert.equal(slashCommand('fix the bug'), undefined);
  });
});

describe('Aider reader: a history cut mid-line', () => {
  const session = (n: number) => [
    '',
    `# aider chat started at 2026-05-0${n} 11:00:00`,
    '',
    ...BANNER,
    `#### task number ${n}  `,
    '',
    `Done with task ${n}.`,
    '',
  ];

  it('keeps every complete session and warns once about the cut one', async () => {
    const lines = [1, 2, 3, 4, 5, 6].flatMap(session);
    // the sixth session's reply stops in the middle of its line: no newline after it
    lines.splice(lines.length - 2, 2, 'Done with ta');
    const { traces, warnings } = await importHistory(lines);
    assert.equal(traces.length, 6);
    for (const [i, trace] of traces.slice(0, 5).entries())
      assert.deepEqual(
        trace.steps.map((s) => s.kind),
        ['user', 'assistant'],
        `session ${i + 1}`,
      );
    assert.deepEqual(
      traces[5].steps.map((s) => s.kind),
      ['user'],
      'the partial line is dropped',
    );
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /ends mid-line \(cut\): the last line, of the session started at 2026-05-06 11:00:00/);
  });

  it('a header cut mid-line starts no session', async () => {
    const lines = [...[1, 2].flatMap(session), '', '# aider chat started at 2026-05-0'];
    const { traces, warnings } = await importHistory(lines);
    assert.equal(traces.length, 2);
    assert.equal(warnings.length, 1);
  });
});

describe('Aider reader: histories imported by an older version', () => {
  it('are read again in full, changed or not, and then left alone', async () => {
    const dir = tempDir('combee-aider-version-');
    writeFileSync(
      join(dir, '.aider.chat.history.md'),
      [
        '',
        '# aider chat started at 2026-05-07 12:00:00',
        '',
        '#### add a footer  ',
        '',
        'Added.',
        '',
        '> Applied edit to footer.html  ',
        '',
      ].join('\n'),
    );
    const store = new TraceStore(tempDir('combee-aider-store-'));
    const first = await importSessions({ from: dir, store });
    assert.equal(first.files, 1);
    const index = await store.loadIndex();
    const [path] = Object.keys(index.files);
    assert.equal(index.files[path].readerVersion, readerVersion('aider'));
    // as an import before the reader knew edits left it: version 1, no tool call stored
    delete index.files[path].readerVersion;
    await store.saveIndex(index);
    const again = await importSessions({ from: dir, store });
    assert.equal(again.unchangedFiles, 0, 'read again though unchanged');
    assert.equal((await store.loadIndex()).files[path].readerVersion, readerVersion('aider'));
    const trace = await store.loadTrace(index.files[path].traceIds[0]);
    assert.equal(trace?.steps.filter((s) => s.kind === 'tool_call').length, 1);
    const third = await importSessions({ from: dir, store });
    assert.equal(third.unchangedFiles, 1);
  });
});
