import { DEFAULT_PLAYBOOK_PATH } from '../assets/playbookAsset';
import { DEFAULTS, learn } from '../learn/run';
import { contentSeed } from '../learn/seed';
import type { Aggregator, EmbedFn, ProviderInfo, Reflector } from '../learn/types';
import { findBullet } from '../playbook/model';
import type { TraceStore } from '../store/traceStore';
import { redactText } from '../trace/redact';
import { createWorkspaceMatcher } from '../trace/workspaceMatch';
import { markBoilerplate } from '../trace/turns/boilerplate';
import { resolveInWorkspace, workspaceRelative } from '../trust/workspacePath';
import { playbookAt, type PlaybookThen } from './playbookAt';
import { replay, type LearnedRule, type Mistake, type RuleReplay } from './replay';
import { DEFAULT_RATIO, sessionTime, splitSessions, type Dated, type SplitChoice } from './split';

// The backtest: learn from the earlier sessions as a real run would (nothing saved, nothing marked learned, no
// workspace file written), then replay what was learned over the later ones. Same store and seed, same bytes.

export const BACKTEST_VERSION = 1;

export interface BacktestOptions {
  store: TraceStore;
  workspace: string;
  reflector: Reflector;
  aggregator: Aggregator;
  provider: ProviderInfo;
  embed?: EmbedFn;
  playbookPath?: string;
  /** Default: the first half of the sessions teaches. */
  split?: SplitChoice;
  seed?: number;
  /** Sessions per learning batch: a fixed number (a measured batch size would depend on this run's latencies). */
  batchSize?: number;
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (message: string, fraction: number) => void;
}

export interface PartFigures {
  sessions: number;
  /** When its first and last sessions ended (ISO), when it has any. */
  from?: string;
  to?: string;
}

export interface BacktestReport {
  version: typeof BACKTEST_VERSION;
  workspace: string;
  provider: string;
  model: string;
  seed: number;
  split: { at: string } | { ratio: number };
  earlier: PartFigures;
  later: PartFigures;
  undated: number;
  /** The playbook the earlier sessions were learned against. */
  playbook: { path: string; source: PlaybookThen['source'] };
  /** How the learning of the earlier part ended (a failed model call learns less). */
  learnStatus: string;
  rules: RuleReplay[];
  mistakes: Mistake[];
  totals: {
    mistakes: number;
    prevented: number;
    /** Rules that would have misled at least one later session, and the sessions they would have misled. */
    misleadingRules: number;
    misledSessions: number;
    /** Rules that would have prevented at least one mistake. */
    preventingRules: number;
  };
  summary: string;
  warnings: string[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function summarize(report: Pick<BacktestReport, 'totals' | 'later' | 'rules'>): string {
  const { totals } = report;
  if (report.later.sessions === 0) return 'no later sessions to replay: nothing to measure';
  if (report.rules.length === 0)
    return `the earlier sessions taught no rule; the later sessions hold ${plural(totals.mistakes, 'mistake')}`;
  return `would have prevented ${totals.prevented} of ${plural(totals.mistakes, 'mistake')} in the later sessions; ${plural(totals.misleadingRules, 'rule')} would have misled ${plural(totals.misledSessions, 'session')}`;
}

function part(sessions: readonly Dated[]): PartFigures {
  if (sessions.length === 0) return { sessions: 0 };
  const iso = (s: (typeof sessions)[number]) => new Date(sessionTime(s)).toISOString();
  return { sessions: sessions.length, from: iso(sessions[0]), to: iso(sessions[sessions.length - 1]) };
}

/** The rules the run added or changed, as they stand in its playbook, in id order. */
function learnedRules(result: Awaited<ReturnType<typeof learn>>): LearnedRule[] {
  const keys = new Map<string, string | undefined>();
  for (const a of result.applied) {
    if (a.status !== 'applied' || !a.id || a.op.op === 'REMOVE') continue;
    keys.set(a.id, a.op.key ?? keys.get(a.id));
  }
  const rules: LearnedRule[] = [];
  for (const [id, key] of keys) {
    const found = findBullet(result.playbook, id);
    if (!found) continue;
    rules.push({ id, section: found.section.title, content: found.bullet.content, ...(key ? { key } : {}) });
  }
  return rules.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export async function backtest(options: BacktestOptions): Promise<BacktestReport> {
  const playbookPath = workspaceRelative(options.playbookPath ?? DEFAULT_PLAYBOOK_PATH, options.workspace);
  resolveInWorkspace(options.workspace, playbookPath); // refused before any work when it leaves the workspace
  const warnings: string[] = [];
  let invalid = 0;
  const inWorkspace = createWorkspaceMatcher([options.workspace]);
  const summaries = (await options.store.listSummaries(() => invalid++)).filter((s) => inWorkspace(s.cwd));
  const split = splitSessions(summaries, options.split ?? { ratio: DEFAULT_RATIO });
  const load = (ids: string[]) => options.store.loadTraces(ids, () => invalid++);
  // boilerplate (a persona prompt in every opening message) is context on both sides of the split: it never counts
  const loaded = markBoilerplate([
    ...(await load(split.earlier.map((s) => s.id))),
    ...(await load(split.later.map((s) => s.id))),
  ]).traces;
  const earlierIds = new Set(split.earlier.map((s) => s.id));
  const earlier = loaded.filter((t) => earlierIds.has(t.id));
  const later = loaded.filter((t) => !earlierIds.has(t.id));
  if (invalid > 0) warnings.push(`${plural(invalid, 'stored session')} could not be read and were left out`);
  if (split.undated > 0) warnings.push(`${plural(split.undated, 'session')} without a time were left out`);

  const firstEarlier = earlier.length > 0 ? Date.parse(earlier[0].startedAt ?? earlier[0].endedAt ?? '') : NaN;
  const then = await playbookAt(
    options.workspace,
    playbookPath,
    Number.isFinite(firstEarlier) ? firstEarlier : Number.POSITIVE_INFINITY,
  );
  if (then.source.kind === 'working tree')
    warnings.push(
      `${playbookPath} has no history to place it before the earlier sessions: learned against today's file, whose rules are not counted as learned`,
    );
  const seed = options.seed ?? contentSeed(earlier);
  let rules: LearnedRule[] = [];
  let learnStatus = 'nothing to learn';
  if (earlier.length > 0) {
    const result = await learn({
      traces: earlier,
      playbook: then.playbook,
      reflector: options.reflector,
      aggregator: options.aggregator,
      provider: options.provider,
      workspace: options.workspace,
      embed: options.embed,
      seed,
      batchSize: options.batchSize ?? DEFAULTS.batchSize,
      concurrency: options.concurrency,
      signal: options.signal,
      onProgress: (message, fraction) => options.onProgress?.(`learning: ${message}`, fraction * 0.9),
    });
    options.signal?.throwIfAborted();
    learnStatus = result.record.status;
    warnings.push(...result.record.warnings.map(redactText));
    if (result.failedTraces.length > 0)
      warnings.push(`${plural(result.failedTraces.length, 'earlier session')} could not be learned (a failed call)`);
    rules = learnedRules(result);
  }
  options.onProgress?.(`replaying ${plural(rules.length, 'rule')} over ${plural(later.length, 'later session')}`, 0.9);
  const replayed = replay(rules, later);
  const misled = new Set(replayed.rules.flatMap((r) => r.misled));
  const totals = {
    mistakes: replayed.mistakes.length,
    prevented: replayed.mistakes.filter((m) => m.preventedBy.length > 0).length,
    misleadingRules: replayed.rules.filter((r) => r.misled.length > 0).length,
    misledSessions: misled.size,
    preventingRules: replayed.rules.filter((r) => r.mistakesPrevented > 0 || r.prevented.length > 0).length,
  };
  const report: Omit<BacktestReport, 'summary'> = {
    version: BACKTEST_VERSION,
    workspace: options.workspace,
    provider: options.provider.provider,
    model: options.provider.model,
    seed,
    split: split.by,
    earlier: part(split.earlier),
    later: part(split.later),
    undated: split.undated,
    playbook: { path: playbookPath, source: then.source },
    learnStatus,
    rules: replayed.rules.map((r) => ({ ...r, content: redactText(r.content) })),
    mistakes: replayed.mistakes.map((m) => ({ ...m, lesson: redactText(m.lesson) })),
    totals,
    warnings,
  };
  options.onProgress?.('done', 1);
  return { ...report, summary: summarize(report) };
}
