import assert from 'node:assert/strict';
import { join } from 'node:path';
import { importSessions } from '../../../src/core/import/importer';
import type { Trace } from '../../../src/core/trace/model';
import { TraceStore } from '../../../src/core/store/traceStore';
import { EXAMPLES } from '../../support/paths';
import { tempDir } from '../../../testing/tmp';

// The shipped acme-shop sessions feed the README demo and the extension tests: their counts are part of the contract.
describe('example sessions', () => {
  let traces: Trace[];
  let summary: Awaited<ReturnType<typeof importSessions>>;

  before(async () => {
    const store = new TraceStore(tempDir('combee-examples-'));
    summary = await importSessions({ from: join(EXAMPLES, 'sessions'), store });
    traces = await store.listTraces();
  });

  it('import cleanly with the expected counts', () => {
    assert.deepEqual(summary.warningMessages, []);
    assert.equal(summary.warnings, 0);
    assert.equal(summary.files, 5);
    assert.equal(summary.sessions, 5);
    assert.equal(summary.byAgent['claude-code'].sessions, 3);
    assert.equal(summary.byAgent.codex.sessions, 2);
    assert.equal(summary.byAgent['claude-code'].toolCalls, 28);
    assert.equal(summary.byAgent.codex.toolCalls, 17);
    assert.equal(summary.toolCalls, 45);
    assert.equal(summary.toolErrors, 4);
    assert.ok(summary.redactions >= 1, 'the fake OPENAI_API_KEY is redacted');
    assert.equal(traces.length, 5);
  });

  it('were all recorded in the acme-shop checkout, with nothing left unknown', () => {
    for (const trace of traces) {
      assert.equal(trace.cwd, '/home/dev/acme-shop', trace.id);
      assert.deepEqual(trace.unknown, {}, trace.id);
    }
  });

  it('show the planted lessons: two user corrections, failing then passing test runs, the key redacted', () => {
    const total = (pick: (t: Trace) => number) => traces.reduce((sum, t) => sum + pick(t), 0);
    assert.equal(
      total((t) => t.outcome.userCorrections),
      2,
    );
    assert.equal(
      total((t) => t.outcome.testRuns.failed),
      2,
    );
    const commands = traces.flatMap((t) =>
      t.steps.flatMap((s) => (s.kind === 'tool_call' && s.command ? [s.command] : [])),
    );
    for (const expected of [
      'pnpm db:generate',
      'pnpm add lodash-es',
      'git checkout -- src/generated/client.ts',
      'TZ=UTC pnpm vitest run src/cart',
      'pnpm lint --fix',
      'pnpm build',
      'pnpm typecheck',
    ]) {
      assert.ok(commands.includes(expected), expected);
    }
    assert.equal(commands.filter((c) => c === 'pnpm lint --fix').length, 2, 'the lint fix recurs across both agents');
    assert.ok(!JSON.stringify(traces).includes('sk-proj-'));
  });
});
