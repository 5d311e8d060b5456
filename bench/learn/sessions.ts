import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sessionPage } from '../../src/core/service/sessionList';
import { TRACE_SCHEMA_VERSION, type Step, type Trace } from '../../src/core/trace/model';
import { TraceStore } from '../../src/core/store/traceStore';
import { WorkspaceState } from '../../src/core/store/workspaceState';
import { createWorkspaceMatcher } from '../../src/core/trace/workspaceMatch';

// `combee bench sessions [--sessions n] [--json] [--out <folder>]`: a store of n sessions (default 10,000, shaped
// like imported Claude Code sessions), then, each in a fresh process (nothing cached), the Sessions view's first page
// the way it is built now (pack-index summaries: sessionPage) and the way it was (every trace body read and parsed),
// timed, with the longest stretch the event loop was blocked meanwhile.

const WORKSPACE = '/home/dev/acme-shop';
const PAGE = 200;

/** A session of `steps` steps with outputs of a few KB, as the importer stores them (deterministic from `i`). */
function session(i: number): Trace {
  const steps: Step[] = [];
  const n = 20 + (i % 40);
  for (let index = 0; index < n; index++) {
    const kind = index % 4;
    steps.push(
      kind === 0
        ? { kind: 'user', index, text: `Please fix the failing checkout test ${i}-${index}. `.repeat(3) }
        : kind === 1
          ? { kind: 'assistant', index, text: 'Looking at the cart total and its rounding. '.repeat(6) }
          : kind === 2
            ? {
                kind: 'tool_call',
                index,
                callId: `c${index}`,
                tool: 'Bash',
                command: 'npm test',
                input: '{"command":"npm test"}',
              }
            : {
                kind: 'tool_result',
                index,
                callId: `c${index - 1}`,
                output: ` ✓ src/cart/total.test.ts > computes the total (3 ms)\n`.repeat(20 + ((i * 7 + index) % 60)),
                isError: false,
              },
    );
  }
  return {
    schemaVersion: TRACE_SCHEMA_VERSION,
    id: `claude-code:${String(i).padStart(8, '0')}-bench`,
    agent: 'claude-code',
    agentVersion: '2.1.50',
    cwd: i % 10 < 7 ? WORKSPACE : `/home/dev/other-${i % 10}`,
    title: `Fix the failing checkout test ${i}`,
    startedAt: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
    endedAt: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000 + 900_000).toISOString(),
    source: { path: `/home/dev/.claude/projects/acme/${i}.jsonl`, bytes: 40_000 + i },
    steps,
    outcome: { toolErrors: i % 3, testRuns: { passed: 1, failed: i % 2 }, userCorrections: i % 4, interrupted: false },
    unknown: {},
    warnings: [],
    redactions: i % 5,
  };
}

async function buildStore(dir: string, count: number): Promise<number> {
  const store = new TraceStore(dir);
  let bytes = 0;
  // in packs of 128, as the importer's batches write them
  for (let start = 0; start < count; start += 128) {
    const writer = store.openPack();
    for (let i = start; i < Math.min(count, start + 128); i++) {
      const trace = session(i);
      bytes += JSON.stringify(trace).length;
      await writer.save(trace);
    }
    await writer.close();
  }
  // a third of the workspace's sessions learned already
  const learned: Record<string, string> = {};
  for (let i = 0; i < count; i += 3) learned[session(i).id] = 'run-1';
  const state = new WorkspaceState(dir).dir(WORKSPACE);
  mkdirSync(state, { recursive: true });
  writeFileSync(join(state, 'learned.json'), JSON.stringify({ version: 1, learned, failed: {} }));
  return bytes;
}

interface Measured {
  firstPageMs: number;
  maxBlockedMs: number;
  sessions: number;
  heapMb: number;
}

/** Runs in the child: one first page, timed, with a probe that notes the longest gap between two event-loop turns. */
async function measure(dir: string, way: 'summaries' | 'bodies'): Promise<Measured> {
  let last = performance.now();
  let maxGap = 0;
  let probing = true;
  const probe = () => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
    if (probing) setImmediate(probe);
  };
  setImmediate(probe);
  const store = new TraceStore(dir);
  const start = performance.now();
  let shown: number;
  if (way === 'summaries') {
    shown = (await sessionPage(store, new WorkspaceState(dir), [WORKSPACE], PAGE)).rows.length;
  } else {
    const inWorkspace = createWorkspaceMatcher([WORKSPACE]);
    const [traces] = await Promise.all([store.listTraces(), new WorkspaceState(dir).loadLearned(WORKSPACE)]);
    shown = traces
      .filter((t) => inWorkspace(t.cwd))
      .sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? ''))
      .slice(0, PAGE).length;
  }
  const firstPageMs = performance.now() - start;
  probing = false;
  probe();
  return { firstPageMs, maxBlockedMs: maxGap, sessions: shown, heapMb: process.memoryUsage().heapUsed / 2 ** 20 };
}

function inChild(cli: string, dir: string, way: string): Measured {
  const child = spawnSync(process.execPath, [cli, 'bench', 'sessions', '--measure', dir, '--way', way], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`measuring ${way} failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as Measured;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function runSessionsBench(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      sessions: { type: 'string', default: '10000' },
      runs: { type: 'string', default: '5' },
      json: { type: 'boolean', default: false },
      out: { type: 'string' },
      measure: { type: 'string' },
      way: { type: 'string', default: 'summaries' },
    },
  });
  if (values.measure) {
    process.stdout.write(JSON.stringify(await measure(values.measure, values.way as 'summaries' | 'bodies')));
    return 0;
  }
  const count = Number(values.sessions);
  const runs = Math.max(1, Number(values.runs));
  const dir = mkdtempSync(join(tmpdir(), 'combee-sessions-bench-'));
  try {
    const built = performance.now();
    const bytes = await buildStore(dir, count);
    process.stderr.write(
      `store of ${count} sessions (${(bytes / 2 ** 20).toFixed(0)} MB of traces) in ${((performance.now() - built) / 1000).toFixed(1)} s\n`,
    );
    const cli = process.argv[1];
    const result: Record<string, { firstPageMs: number; maxBlockedMs: number; sessions: number; heapMb: number }> = {};
    for (const way of ['summaries', 'bodies'] as const) {
      const all = Array.from({ length: way === 'bodies' ? Math.min(runs, 3) : runs }, () => inChild(cli, dir, way));
      result[way] = {
        firstPageMs: median(all.map((m) => m.firstPageMs)),
        maxBlockedMs: median(all.map((m) => m.maxBlockedMs)),
        sessions: all[0].sessions,
        heapMb: median(all.map((m) => m.heapMb)),
      };
    }
    const figures = { sessions: count, storeMb: bytes / 2 ** 20, page: PAGE, runs, ...result };
    if (values.out) {
      mkdirSync(values.out, { recursive: true });
      writeFileSync(join(values.out, 'sessions.json'), JSON.stringify(figures, null, 2) + '\n');
    }
    if (values.json) process.stdout.write(JSON.stringify(figures, null, 2) + '\n');
    else
      process.stdout.write(
        [
          `| Sessions view, first page of ${PAGE} (${count} sessions in the store, ${figures.storeMb.toFixed(0)} MB) | ready in | longest block of the event loop | heap |`,
          '|---|--:|--:|--:|',
          `| pack-index summaries (now) | ${result.summaries.firstPageMs.toFixed(0)} ms | ${result.summaries.maxBlockedMs.toFixed(0)} ms | ${result.summaries.heapMb.toFixed(0)} MB |`,
          `| every trace body read and parsed (before) | ${result.bodies.firstPageMs.toFixed(0)} ms | ${result.bodies.maxBlockedMs.toFixed(0)} ms | ${result.bodies.heapMb.toFixed(0)} MB |`,
        ].join('\n') + '\n',
      );
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
