import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { hideHomesInCommand, homeOf } from '../../../src/core/trace/homePaths';
import { normalizeTrace } from '../../../src/core/trace/normalize';
import { createRedactor } from '../../../src/core/trace/redact';
import type { TraceDraft } from '../../../src/core/trace/model';

const HOME = '/home/alice';

/** What bash prints for `command` with HOME set to the user's folder: the meaning to keep. */
function run(command: string): string {
  return execFileSync('bash', ['-c', command], { env: { HOME, PATH: process.env.PATH ?? '' }, encoding: 'utf8' });
}

const COMMANDS = [
  `printf '%s|' /home/alice/src "/home/alice/my dir/x" '/home/alice/q' --out=/home/alice/o`,
  `printf '%s|' "$(printf %s /home/alice/a)" $'tab\\t/home/alice/b' 'pre/home/alice/mid'`,
  `cat <<EOF\nwrote /home/alice/notes.md\nEOF`,
  `X=/home/alice/y; printf '%s|' "$X" "\${X}" "/Users/bob"`,
];

describe('home folders in a command line', () => {
  it('are hidden in forms bash expands to the same words', () => {
    for (const command of COMMANDS) {
      const hidden = hideHomesInCommand(command, HOME);
      assert.ok(!hidden.includes('/home/alice'), hidden);
      assert.equal(run(hidden), run(command), hidden);
    }
  });

  it('use ~ at the start of an unquoted word, $HOME elsewhere, closed quotes around "$HOME" in single quotes', () => {
    assert.equal(hideHomesInCommand('ls /home/alice/src'), 'ls ~/src');
    assert.equal(hideHomesInCommand('cat "/home/alice/a b"'), 'cat "$HOME/a b"');
    assert.equal(hideHomesInCommand("grep x '/home/alice/f'"), `grep x ''"$HOME"'/f'`);
    assert.equal(hideHomesInCommand('node --cwd=/home/alice/app'), 'node --cwd=$HOME/app');
  });

  it("are only the session's own when its working folder tells: another user's folder is not $HOME", () => {
    assert.equal(hideHomesInCommand('cp /home/alice/a /Users/Shared/b', HOME), 'cp ~/a /Users/Shared/b');
    assert.equal(homeOf('/home/alice/src/app'), HOME);
    assert.equal(homeOf('/srv/app'), undefined);
  });

  it('are left as they are where nothing expands: a heredoc with a quoted delimiter, a line that does not parse', () => {
    const literal = "cat > notes.md <<'EOF'\nsee /home/alice/x\nEOF";
    assert.equal(hideHomesInCommand(literal), literal);
    assert.equal(
      hideHomesInCommand('echo "/home/alice/a" "unterminated /home/alice/b'),
      'echo "$HOME/a" "unterminated /home/alice/b',
    );
  });

  it('keep their meaning in the stored command and in the tool input that holds it; outputs show ~', () => {
    const command = 'ls "/home/alice/my dir"';
    const draft: TraceDraft = {
      id: 't1',
      cwd: '/home/alice/src',
      agent: 'claude-code',
      source: { path: '/tmp/t1.jsonl', bytes: 1 },
      warnings: [],
      unknown: {},
      steps: [
        { kind: 'tool_call', index: 0, tool: 'Bash', callId: 'c1', input: JSON.stringify({ command }), command },
        {
          kind: 'tool_result',
          index: 1,
          callId: 'c1',
          output: 'ls: cannot access "/home/alice/my dir"',
          isError: true,
        },
      ],
    };
    const trace = normalizeTrace(draft, createRedactor());
    const [call, result] = trace.steps;
    assert.equal(call.kind === 'tool_call' && call.command, 'ls "$HOME/my dir"');
    assert.equal(call.kind === 'tool_call' && call.input, JSON.stringify({ command: 'ls "$HOME/my dir"' }));
    assert.equal(result.kind === 'tool_result' && result.output, 'ls: cannot access "~/my dir"');
  });
});
