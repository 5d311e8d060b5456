import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { realCorpus, realCorpusMissing } from '../../../../testing/realSessions';
import { assertSameCounts, importCorpus, jsonlFiles, noCounts, traceCounts, type Counts } from './counts';

// Codex rollouts read by Combee against the raw files read here, by Codex's own markers: a `user_message` event is
// what the user sent (Codex emits none for the context it injects), a call item is a tool call, a shell output's
// "Exit code: N" line or `metadata.exit_code` its exit, an `apply_patch` call an edit.

interface Item {
  type?: string;
  payload?: Record<string, unknown>;
}

function rawCounts(dir: string): Counts {
  const counts = noCounts();
  for (const file of jsonlFiles(dir)) {
    let turns = 0;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const item = JSON.parse(line) as Item;
      const p = item.payload ?? {};
      if (item.type === 'event_msg' && p.type === 'user_message') counts.userMessages++;
      if (item.type !== 'response_item') continue;
      if (p.type === 'message') turns++;
      if (p.type === 'function_call' || p.type === 'custom_tool_call' || p.type === 'local_shell_call') {
        turns++;
        counts.toolCalls++;
        if (p.name === 'apply_patch') counts.edits++;
      }
      if (p.type === 'function_call_output' || p.type === 'custom_tool_call_output') {
        const exit = exitOf(p.output);
        if (exit !== undefined && exit !== 0) counts.failingExits++;
      }
    }
    if (turns > 0) counts.sessions++;
  }
  return counts;
}

function exitOf(output: unknown): number | undefined {
  if (typeof output !== 'string') return undefined;
  const stated = /^Exit code: (-?\d+)/.exec(output);
  if (stated) return Number(stated[1]);
  try {
    const code = (JSON.parse(output) as { metadata?: { exit_code?: unknown } }).metadata?.exit_code;
    return typeof code === 'number' ? code : undefined;
  } catch {
    return undefined;
  }
}

describe('real corpus testframework-codex (Codex rollouts)', function () {
  const dir = realCorpus('testframework-codex');
  before(function () {
    if (!dir) {
      console.log(`      ${realCorpusMissing('testframework-codex')}`);
      this.skip();
    }
  });

  it('imports with the counts of the raw files', async () => {
    const { traces, warnings } = await importCorpus(dir!);
    assert.deepEqual(warnings, []);
    assertSameCounts(traceCounts(traces), rawCounts(dir!));
  });

  it('keeps each call’s folder, relative to the session’s', async () => {
    const { traces } = await importCorpus(dir!);
    const calls = traces.flatMap((t) => t.steps).filter((s) => s.kind === 'tool_call');
    const folders = new Set(calls.map((c) => (c.kind === 'tool_call' ? c.workdir : undefined)));
    // every call of this corpus ran in the session's own folder, or named none
    assert.deepEqual([...folders].sort(), ['.', undefined]);
  });

  it('titles sessions with the user’s own first words, not the prompt expanded at the start of most of them', async () => {
    const { traces } = await importCorpus(dir!);
    const firstMessages = traces.map((t) => t.steps.find((s) => s.kind === 'user'));
    const expanded = firstMessages.filter((s) => s?.kind === 'user' && s.isMeta);
    assert.ok(
      expanded.length >= traces.length / 2,
      `${expanded.length} of ${traces.length} open with an expanded prompt`,
    );
    for (const trace of traces) {
      const own = trace.steps.find((s) => s.kind === 'user' && !s.isMeta);
      if (own?.kind === 'user') assert.ok(own.text.startsWith(trace.title ?? '\0'), trace.id);
    }
  });
});
