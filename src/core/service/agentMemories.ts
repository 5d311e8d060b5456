import { homedir } from 'node:os';
import type { LearnResult } from '../learn/run';
import { memoryNote, memoryOps, memoryOrigin, memoryWarnings } from '../memories/candidates';
import { readAgentMemories } from '../memories/read';
import type { MemoryVerdict } from '../memories/types';
import { judgeMemories } from '../memories/verdict';
import { applyDelta, type AppliedOp } from '../playbook/apply';
import type { DeltaOp } from '../playbook/delta';
import { bullets, type Playbook } from '../playbook/model';
import type { Trace } from '../trace/model';
import type { TraceSummary } from '../trace/summary';
import type { TraceStore } from '../store/traceStore';
import { createWorkspaceMatcher } from '../trace/workspaceMatch';
import { pushApplyNode } from './learnRun/applyNode';

/** Where the agents' memories are read from: the user's own home and environment (settings, never a repository's). */
export interface AgentMemorySettings {
  home: string;
  env?: Record<string, string | undefined>;
  extraRedactionPatterns?: string[];
}

/** The environment variables that move the agents' folders: the only ones a memory reading is handed. */
const MEMORY_ENV = [
  'CLAUDE_CONFIG_DIR',
  'XDG_CONFIG_HOME',
  'CODEX_HOME',
  'GEMINI_CLI_HOME',
  'APPDATA',
  'VSCODE_PORTABLE',
] as const;

export function memoryEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of MEMORY_ENV) if (env[name]) out[name] = env[name] as string;
  return out;
}

/** Where this process reads the agents' memories: this user's home and the variables that move their folders. */
export function memoriesOfThisUser(extraRedactionPatterns: string[]): AgentMemorySettings {
  return { home: homedir(), env: memoryEnv(process.env), extraRedactionPatterns };
}

/** The newest sessions a memory is judged against: enough to show a habit, bounded so a large store stays quick. */
export const MAX_MEMORY_SESSIONS = 500;

const timeOf = (t: TraceSummary) => Date.parse(t.endedAt ?? t.startedAt ?? '') || 0;

/** This workspace's stored sessions, the newest MAX_MEMORY_SESSIONS of them (ties by id, so always the same ones). */
export async function sessionsForMemories(
  store: TraceStore,
  workspace: string,
  allWorkspaces = false,
): Promise<{ traces: Trace[]; leftOut: number }> {
  const inWorkspace = createWorkspaceMatcher([workspace]);
  const all = await store.listSummaries();
  const mine = (allWorkspaces ? all : all.filter((t) => inWorkspace(t.cwd))).sort(
    (a, b) => timeOf(b) - timeOf(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const kept = mine.slice(0, MAX_MEMORY_SESSIONS);
  return { traces: await store.loadTraces(kept.map((t) => t.id)), leftOut: mine.length - kept.length };
}

export interface MemoryReport {
  verdicts: MemoryVerdict[];
  /** The memory files read, home shown as `~`. */
  files: string[];
  warnings: string[];
  /** The sessions they were judged against. */
  traces: Trace[];
}

/** Reads the agents' memories for the workspace and judges each against its stored sessions. */
export async function agentMemoryReport(input: {
  store: TraceStore;
  workspace: string;
  settings: AgentMemorySettings;
  playbook: Playbook;
  allWorkspaces?: boolean;
}): Promise<MemoryReport> {
  const read = await readAgentMemories(
    { home: input.settings.home, env: input.settings.env ?? {}, workspace: input.workspace },
    { extraRedactionPatterns: input.settings.extraRedactionPatterns },
  );
  if (read.items.length === 0) return { verdicts: [], files: read.files, warnings: read.warnings, traces: [] };
  const { traces, leftOut } = await sessionsForMemories(input.store, input.workspace, input.allWorkspaces);
  const warnings = [...read.warnings];
  if (leftOut > 0)
    warnings.push(
      `agent memories were checked against the newest ${traces.length} sessions; ${leftOut} older ones were not read`,
    );
  return { verdicts: judgeMemories(read.items, traces, bullets(input.playbook)), files: read.files, warnings, traces };
}

/**
 * The supported memories as rules of the run's proposal (one more apply node of its tree), the rest reported in its
 * warnings. Returns the note each new rule's review shows, by rule id.
 */
export function proposeMemories(
  result: LearnResult,
  report: MemoryReport,
  veto: (op: DeltaOp) => string | undefined,
): Map<string, MemoryVerdict> {
  result.record.warnings.push(...report.warnings, ...memoryWarnings(report.verdicts));
  // the team's decisions hold for a memory as for a lesson of the run: turned down on these sessions, it stays out
  const all = memoryOps(report.verdicts).map((c) => ({ ...c, vetoed: veto(c.op) }));
  const candidates = all.filter((c) => c.vetoed === undefined);
  const decided = all.flatMap(({ op, verdict, vetoed }): Array<AppliedOp & { verdict: MemoryVerdict }> =>
    vetoed === undefined ? [] : [{ op, status: 'skipped', reason: vetoed, verdict }],
  );
  if (decided.length > 0) result.record.warnings.push(decidedMemoriesWarning(decided));
  const byRule = new Map<string, MemoryVerdict>();
  if (all.length === 0) return byRule;
  const applied = applyDelta(result.playbook, { ops: candidates.map((c) => c.op), tags: [] });
  result.playbook = applied.playbook;
  result.applied.push(...applied.applied);
  applied.applied.forEach((a, i) => {
    if (a.status === 'applied' && a.id) byRule.set(a.id, candidates[i].verdict);
  });
  pushApplyNode(
    result,
    'memories',
    `${byRule.size} rule(s) from the agents' memories that sessions bear out` +
      (decided.length > 0 ? `, ${decided.length} left out as decided before` : ''),
    [...applied.applied, ...decided.map(({ verdict: _v, ...a }) => a)],
  );
  return byRule;
}

/** One counted line for the memories the team's earlier decisions kept out, each with where it was read and why. */
function decidedMemoriesWarning(decided: ReadonlyArray<{ reason?: string; verdict: MemoryVerdict }>): string {
  const each = decided.map((d) => `${memoryOrigin(d.verdict)}: ${d.reason}`);
  return `${decided.length} agent memory(ies) left out, decided before on the same sessions (${each.join('; ')})`;
}

export { memoryNote };
