import assert from 'node:assert/strict';
import type { Step, Trace } from '../../src/core/trace/model';

// What the reader tests share: a trace's steps counted by kind, the result of a tool call, and one line of another
// agent's log (a reader must not take it for its own).

export const counts = (t: Trace) =>
  t.steps.reduce<Partial<Record<Step['kind'], number>>>((c, s) => ({ ...c, [s.kind]: (c[s.kind] ?? 0) + 1 }), {});

export const CLAUDE_LINE = JSON.stringify({
  parentUuid: null,
  isSidechain: false,
  userType: 'external',
  cwd: '/w',
  sessionId: '5302349f-ae26-47a9-88e3-015ea33a41f6',
  version: '2.1.50',
  type: 'user',
  message: { role: 'user', content: 'hi' },
  uuid: 'u1',
  timestamp: '2026-11-02T09:00:00.000Z',
});

export const CODEX_LINE = JSON.stringify({
  timestamp: '2026-11-02T09:00:00.000Z',
  type: 'session_meta',
  payload: { id: '0199aaaa-0000-7000-8000-000000000001', cwd: '/w', cli_version: '0.148.0' },
});

/** The tool result of `callId` in a trace (fails the test when there is none). */
export function toolResult(t: Trace, callId: string) {
  const step = t.steps.find((s) => s.kind === 'tool_result' && s.callId === callId);
  assert.ok(step && step.kind === 'tool_result', `result for ${callId}`);
  return step;
}
