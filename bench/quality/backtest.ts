import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backtest, type BacktestReport } from '../../src/core/eval/backtest';
import { importSessions } from '../../src/core/import/importer';
import { offlineRoles, openAiRoles } from '../../src/core/llm/providers';
import { TraceStore } from '../../src/core/store/traceStore';
import { startModelServer } from '../../testing/modelServer';
import { tempDir } from '../../testing/tmp';
import { REPOS, writeQualityCorpus } from './corpus';
import { scriptedModel } from './models';
import { LEARNERS, type Learner } from './run';

// `combee bench backtest [--learner offline|careful|sloppy|all] [--seed n] [--json] [--out <folder>]`: the backtest
// (src/core/eval) on each repository of the quality corpus — the earlier half of its sessions learned, the rules
// replayed over the later half — with what they would have prevented and whom they would have misled.

export const BACKTEST_USAGE =
  'combee bench backtest [--learner offline|careful|sloppy|all] [--seed n] [--json] [--out <folder>]';

export interface BacktestBenchRun {
  learner: Learner;
  seed: number;
  repos: Array<{ repo: string; report: BacktestReport }>;
  totals: { mistakes: number; prevented: number; rules: number; misleadingRules: number; misledSessions: number };
}

export async function runBacktestCorpus(learner: Learner, seed: number): Promise<BacktestBenchRun> {
  const root = tempDir(`combee-backtest-${learner}-`);
  const corpus = writeQualityCorpus(join(root, 'corpus'), seed);
  const store = new TraceStore(join(root, 'store'));
  await importSessions({ from: corpus.homes, store });
  const server =
    learner === 'offline' ? undefined : await startModelServer({ responder: scriptedModel(learner, seed) });
  const roles = server
    ? openAiRoles({ baseUrl: server.url, apiKey: 'not-needed', model: `${learner}-sim` })
    : offlineRoles();
  const repos: BacktestBenchRun['repos'] = [];
  try {
    for (const repo of REPOS) {
      const report = await backtest({
        store,
        workspace: corpus.workspaces[repo.name],
        ...roles,
        provider: roles.info,
        seed,
      });
      // the corpus is written to a temporary folder: the report names the repository instead
      repos.push({ repo: repo.name, report: { ...report, workspace: repo.name } });
    }
  } finally {
    await server?.close();
  }
  const sum = (f: (r: BacktestReport) => number) => repos.reduce((n, { report }) => n + f(report), 0);
  return {
    learner,
    seed,
    repos,
    totals: {
      mistakes: sum((r) => r.totals.mistakes),
      prevented: sum((r) => r.totals.prevented),
      rules: sum((r) => r.rules.length),
      misleadingRules: sum((r) => r.totals.misleadingRules),
      misledSessions: sum((r) => r.totals.misledSessions),
    },
  };
}

/** One table per learner: a row per repository, then what each rule that misled did. */
export function backtestTable(runs: readonly BacktestBenchRun[]): string {
  const out: string[] = [];
  for (const run of runs) {
    out.push(
      `### backtest, ${run.learner} (seed ${run.seed}): the earlier half of each repository's sessions learned, the later half replayed`,
      '',
      '| repository | sessions (earlier / later) | rules learned | mistakes prevented | rules that misled | sessions misled |',
      '|---|--:|--:|--:|--:|--:|',
    );
    for (const { repo, report } of run.repos)
      out.push(
        `| ${repo} | ${report.earlier.sessions} / ${report.later.sessions} | ${report.rules.length} | ${report.totals.prevented} / ${report.totals.mistakes} | ${report.totals.misleadingRules} | ${report.totals.misledSessions} |`,
      );
    const t = run.totals;
    out.push(
      `| **all** | | ${t.rules} | ${t.prevented} / ${t.mistakes} | ${t.misleadingRules} | ${t.misledSessions} |`,
      '',
    );
    for (const { repo, report } of run.repos) {
      const lines = [
        ...report.rules
          .filter((r) => r.misled.length > 0)
          .map((r) => `misled ${r.misled.length}: [${r.id}] ${r.content}`),
        ...report.mistakes
          .filter((m) => m.preventedBy.length === 0)
          .map((m) => `not prevented (${m.kind}, ${m.sessionId}): ${m.lesson}`),
      ];
      if (lines.length > 0) out.push(`${repo}: ${report.summary}`, ...lines.map((l) => `- ${l}`), '');
    }
  }
  return out.join('\n');
}

function flag(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

export async function runBacktestBench(argv: string[]): Promise<number> {
  const which = flag(argv, '--learner') ?? 'offline';
  const seed = Number(flag(argv, '--seed') ?? '1');
  if ((which !== 'all' && !(LEARNERS as readonly string[]).includes(which)) || !Number.isInteger(seed)) {
    process.stderr.write(`usage: ${BACKTEST_USAGE}\n`);
    return 2;
  }
  const learners: Learner[] = which === 'all' ? [...LEARNERS] : [which as Learner];
  const runs: BacktestBenchRun[] = [];
  for (const learner of learners) runs.push(await runBacktestCorpus(learner, seed));
  const out = flag(argv, '--out') ?? join(process.cwd(), 'bench', 'results');
  mkdirSync(out, { recursive: true });
  const json = `${JSON.stringify({ seed, runs }, null, 2)}\n`;
  writeFileSync(join(out, 'backtest.json'), json);
  process.stdout.write(argv.includes('--json') ? json : `${backtestTable(runs)}\n`);
  return 0;
}
