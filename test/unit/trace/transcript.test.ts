import assert from 'node:assert/strict';
import { transcript } from '../../../src/core/trace/transcript';
import { TRACE_SCHEMA_VERSION, type Trace } from '../../../src/core/trace/model';

const trace: Trace = {
  schemaVersion: TRACE_SCHEMA_VERSION,
  id: 'claude-code:abc',
  agent: 'claude-code',
  sourcePath: '/x.jsonl',
  title: 'Fix the cart',
  startedAt: '2026-11-30T10:00:00.000Z',
  cwd: '/home/dev/shop',
  steps: [
    { index: 0, kind: 'user', text: 'Fix the cart total.\nIt is NaN.' },
    { index: 1, kind: 'tool_call', callId: 'c1', tool: 'Bash', command: 'pnpm test', input: '{"command":"pnpm test"}' },
    { index: 2, kind: 'tool_result', callId: 'c1', output: 'FAIL cart.test.ts', isError: true, exitCode: 1 },
    { index: 3, kind: 'assistant', text: 'The coupon has no expiry.' },
  ],
  warnings: [],
  unknown: {},
  outcome: { toolErrors: 1, corrections: 0, testsPassed: false },
  redactions: 0,
} as unknown as Trace;

describe('a session as a transcript', () => {
  it('reads as the session went, each step where stepLines says', () => {
    const { text, stepLines } = transcript(trace);
    const lines = text.split('\n');
    assert.equal(lines[0], 'Fix the cart');
    assert.match(lines[1], /^claude-code · 2026-11-30T10:00:00.000Z · 4 step\(s\)$/);
    assert.equal(lines[stepLines.get(0)!], '#0 USER:');
    assert.deepEqual(lines.slice(stepLines.get(0)! + 1, stepLines.get(0)! + 3), [
      '    Fix the cart total.',
      '    It is NaN.',
    ]);
    assert.equal(lines[stepLines.get(1)!], '#1 TOOL Bash:');
    assert.equal(lines[stepLines.get(1)! + 1], '    $ pnpm test');
    assert.equal(lines[stepLines.get(2)!], '#2 RESULT (error, exit 1):');
    assert.equal(lines[stepLines.get(3)!], '#3 AGENT:');
  });

  it('says which user steps are no words to the agent: an answered prompt, an undo, injected context', () => {
    const steps = [
      { index: 0, kind: 'user', text: 'Add file to the chat? (Y)es/(N)o [Yes]: y', isMeta: true, confirmation: true },
      { index: 1, kind: 'user', text: '/undo', isMeta: true, undo: true },
      { index: 2, kind: 'user', text: '<system-reminder>', isMeta: true },
    ];
    const { text, stepLines } = transcript({ ...trace, steps } as unknown as Trace);
    const lines = text.split('\n');
    assert.equal(lines[stepLines.get(0)!], "#0 USER (answered the agent tool's prompt):");
    assert.equal(lines[stepLines.get(1)!], "#1 USER (undid the agent's last edit):");
    assert.equal(lines[stepLines.get(2)!], '#2 USER (injected context):');
  });
});
