import assert from 'node:assert/strict';
import { instructionFiles, numberedReadText } from '../../../bench/real/instructionFiles';
import type { StepInput } from '../../../src/core/trace/model';
import { makeTrace } from '../../../testing/traces';

// The real-session benchmark's workspace files, rebuilt from reads in traces written here (not the real corpora).

const CWD = '/home/dev/acme-shop';
let calls = 0;

/** A Claude Code Read call and its result. */
function read(input: Record<string, unknown>, output: string, extra: { truncatedFrom?: number } = {}): StepInput[] {
  const callId = `read-${++calls}`;
  return [
    { kind: 'tool_call', callId, tool: 'Read', input: JSON.stringify(input) },
    { kind: 'tool_result', callId, output, isError: false, ...extra },
  ];
}

/** A Codex shell call (its workdir relative to the session's folder) and its output with Codex's header. */
function codexShell(command: string, text: string, workdir = '.'): StepInput[] {
  const callId = `shell-${++calls}`;
  return [
    { kind: 'tool_call', callId, tool: 'shell_command', command, workdir, input: JSON.stringify({ command }) },
    {
      kind: 'tool_result',
      callId,
      output: `Exit code: 0\nWall time: 0 seconds\nOutput:\n${text}`,
      isError: false,
      exitCode: 0,
    },
  ];
}

/** Lines as Claude Code's Read shows them: the number right-aligned in six columns, an arrow, the line. */
const numbered = (lines: string[], from = 1) =>
  lines.map((line, i) => `${String(from + i).padStart(6)}→${line}`).join('\n');
const REMINDER = '\n\n<system-reminder>\nA note from the client.\n</system-reminder>\n';

describe('real-session workspace files', () => {
  it('strips the line numbers of a whole Read, keeping indentation, arrows and blank lines in the text', () => {
    const lines = ['# Guide', '', '  - run `make check` → then push', '\tindented'];
    assert.equal(numberedReadText(numbered(lines) + REMINDER), `${lines.join('\n')}\n`);
    const files = instructionFiles([
      makeTrace('a', read({ file_path: `${CWD}/CLAUDE.md` }, numbered(lines) + REMINDER), { cwd: CWD }),
    ]);
    assert.deepEqual([...files], [['CLAUDE.md', `${lines.join('\n')}\n`]]);
  });

  it('reads a path written with the home folder as ~ and a skill file below the repository', () => {
    const files = instructionFiles([
      makeTrace('a', read({ file_path: '~/acme-shop/.claude/skills/deploy/SKILL.md' }, numbered(['steps'])), {
        cwd: CWD,
      }),
    ]);
    assert.deepEqual([...files], [['.claude/skills/deploy/SKILL.md', 'steps\n']]);
  });

  it('ignores partial reads: a line range, a result that does not start at line 1, a cut output', () => {
    const files = instructionFiles([
      makeTrace(
        'a',
        [
          ...read({ file_path: `${CWD}/CLAUDE.md`, offset: 10, limit: 5 }, numbered(['x'], 10)),
          ...read({ file_path: `${CWD}/AGENTS.md` }, numbered(['a', 'b'], 3)),
          ...read({ file_path: `${CWD}/GEMINI.md` }, numbered(['a', 'b']), { truncatedFrom: 90_000 }),
          ...read({ file_path: `${CWD}/CONVENTIONS.md` }, `${numbered(['a'])}\n… the rest cut`),
        ],
        { cwd: CWD },
      ),
    ]);
    assert.deepEqual([...files], []);
  });

  it('keeps only instruction files inside the working folder', () => {
    const files = instructionFiles([
      makeTrace(
        'a',
        [
          ...read({ file_path: `${CWD}/src/index.ts` }, numbered(['code'])),
          ...read({ file_path: '/home/dev/other/CLAUDE.md' }, numbered(['theirs'])),
          ...read({ file_path: `${CWD}/../CLAUDE.md` }, numbered(['above'])),
          ...read({ file_path: `${CWD}/web/AGENTS.md` }, numbered(['nested'])),
        ],
        { cwd: CWD },
      ),
    ]);
    assert.deepEqual([...files], [['web/AGENTS.md', 'nested\n']]);
  });

  it('takes the newest whole read of a file, across sessions and within one', () => {
    const older = makeTrace('z-older', read({ file_path: `${CWD}/CLAUDE.md` }, numbered(['first'])), {
      cwd: CWD,
      startedAt: '2026-01-01T00:00:00.000Z',
    });
    const newer = makeTrace(
      'a-newer',
      [
        ...read({ file_path: `${CWD}/CLAUDE.md` }, numbered(['second'])),
        ...read({ file_path: `${CWD}/CLAUDE.md` }, numbered(['third'])),
        ...read({ file_path: `${CWD}/CLAUDE.md`, limit: 1 }, numbered(['partial, later'])),
      ],
      { cwd: CWD, startedAt: '2026-02-01T00:00:00.000Z' },
    );
    assert.equal(instructionFiles([newer, older]).get('CLAUDE.md'), 'third\n');
    assert.equal(instructionFiles([older, newer]).get('CLAUDE.md'), 'third\n');
  });

  it('reads a Codex cat or sed -n of the whole file, in the call’s folder; not a range the file outran or a pipe', () => {
    const codex = (steps: StepInput[]) => instructionFiles([makeTrace('c', steps, { agent: 'codex', cwd: CWD })]);
    assert.deepEqual(
      [...codex(codexShell('cat AGENTS.md', '# Agents\nuse pnpm\n'))],
      [['AGENTS.md', '# Agents\nuse pnpm\n']],
    );
    assert.deepEqual(
      [...codex(codexShell("sed -n '1,200p' AGENTS.md", 'short\n', 'web'))],
      [['web/AGENTS.md', 'short\n']],
    );
    assert.deepEqual([...codex(codexShell("sed -n '1,2p' AGENTS.md", 'one\ntwo\n'))], []);
    assert.deepEqual([...codex(codexShell('cat AGENTS.md | head -5', 'one\n'))], []);
    assert.deepEqual(
      [...codex(codexShell('cat ~/acme-shop/CONVENTIONS.md', 'conv\n'))],
      [['CONVENTIONS.md', 'conv\n']],
    );
  });
});
