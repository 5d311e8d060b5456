import assert from 'node:assert/strict';
import { errorLine } from '../../../src/core/llm/offline/errorLine';
import { condenseTrace } from '../../../src/core/trace/condense';
import { normalizeTrace } from '../../../src/core/trace/normalize';
import { createRedactor } from '../../../src/core/trace/redact';
import { stripTerminalCodes } from '../../../src/core/util/terminalCodes';

const ESC = '\u001b';

describe('terminal escape codes', () => {
  it('are stripped whole, and as the remnants left when the ESC byte was lost', () => {
    assert.equal(stripTerminalCodes(`${ESC}[1;31mFAIL${ESC}[0m src/a.test.ts`), 'FAIL src/a.test.ts');
    assert.equal(stripTerminalCodes('[31mError[39m: boom[0m'), 'Error: boom');
    assert.equal(stripTerminalCodes('[2K[1Gdone'), 'done');
  });

  it('leave brackets that are text', () => {
    for (const text of ['arr[0]', 'see [m] here', 'x[1m]', '[ERROR] build failed', '- [x] done'])
      assert.equal(stripTerminalCodes(text), text);
  });

  it('reach no error line, no stored output and no prompt', () => {
    const output = `${ESC}[31merror${ESC}[39m TS2304: Cannot find name 'x'.\n[1mexit[22m`;
    assert.equal(errorLine(output), "error TS2304: Cannot find name 'x'.");
    const trace = normalizeTrace(
      {
        id: 't',
        agent: 'codex',
        source: { path: '/tmp/t.jsonl', bytes: 1 },
        warnings: [],
        unknown: {},
        steps: [
          { kind: 'tool_call', index: 0, tool: 'shell', callId: 'c', input: '{}', command: 'tsc' },
          { kind: 'tool_result', index: 1, callId: 'c', output, isError: true, exitCode: 2 },
          { kind: 'error', index: 2, text: `${ESC}[31mboom${ESC}[0m` },
        ],
      },
      createRedactor(),
    );
    const stored = JSON.stringify(trace.steps);
    assert.ok(!stored.includes('\\u001b') && !stored.includes('[31m') && !stored.includes('[1m'), stored);
    // a session stored before the codes were stripped at import
    const old = {
      ...trace,
      steps: [trace.steps[0], { kind: 'tool_result' as const, index: 1, callId: 'c', output, isError: true }],
    };
    const prompt = condenseTrace(old).text;
    assert.ok(!prompt.includes(ESC) && !prompt.includes('[31m'), prompt);
  });
});
