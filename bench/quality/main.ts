import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPORA, type CorpusName } from './corpus';
import { AGENT_LOADING } from '../../src/core/agents/loading';
import { CONTEXT_AGENTS, LEARNERS, runQualityCorpus, type Learner, type QualityRun } from './run';
import type { RepoFigures, Totals } from './score';

// `combee bench quality [--learner offline|careful|sloppy|all] [--corpus main|heldout] [--seed n] [--json] [--strict]
// [--out <folder>]`: the quality corpus (bench/quality/) learned and accepted by each learner, graded against the
// corpus's labels. `heldout` is a corpus the learner was never improved against.

export const QUALITY_USAGE =
  'combee bench quality [--learner offline|careful|sloppy|all] [--corpus main|heldout] [--seed n] [--json] [--strict] [--out <folder>]';

/** The issue's "done when", per learner: what `--strict` holds the run to. */
export function targetsMissed(run: Pick<QualityRun, 'learner' | 'totals'>): string[] {
  const t = run.totals;
  const missed: string[] = [];
  if (t.contradictions > 0) missed.push(`${t.contradictions} contradiction(s) left`);
  if (t.duplicates > 0) missed.push(`${t.duplicates} duplicate(s)`);
  if (run.learner === 'sloppy') return missed;
  if (t.lessonsFound < t.lessonsPlanted) missed.push(`${t.lessonsPlanted - t.lessonsFound} lesson(s) missed`);
  if (t.precision < 0.9) missed.push(`precision ${pct(t.precision)} < 90 %`);
  if (t.noise > 0) missed.push(`${t.noise} noise rule(s)`);
  if (t.evidenceRight < t.teamRules) missed.push(`${t.teamRules - t.evidenceRight} team rule(s) with wrong evidence`);
  return missed;
}

const pct = (x: number) => `${Math.round(x * 100)} %`;

function row(name: string, f: Totals | RepoFigures): string {
  const t: Totals =
    'lessonsPlanted' in f
      ? f
      : {
          lessonsPlanted: f.lessons.planted,
          lessonsFound: f.lessons.found.length,
          added: f.added.total,
          precise: f.added.precise,
          precision: f.added.total === 0 ? 1 : f.added.precise / f.added.total,
          duplicates: f.duplicates.reduce((n, d) => n + d.statements.length - 1, 0),
          noise: f.noise.length,
          contradictions: f.contradictions.length,
          teamRules: f.evidence.length,
          evidenceRight: f.evidence.filter((e) => e.right).length,
        };
  return `| ${name} | ${t.lessonsFound} / ${t.lessonsPlanted} | ${t.precise} / ${t.added} (${pct(t.precision)}) | ${t.duplicates} | ${t.noise} | ${t.contradictions} | ${t.evidenceRight} / ${t.teamRules} |`;
}

/** The Markdown report of the runs: one table per learner, then what each got wrong. */
export function qualityTable(runs: readonly QualityRun[]): string {
  const out: string[] = [];
  for (const run of runs) {
    out.push(
      `### ${run.learner} (${run.corpus.repos} repositories, ${run.corpus.sessions} sessions: ${Object.entries(
        run.corpus.byAgent,
      )
        .map(([a, n]) => `${n} ${a}`)
        .join(', ')}; seed ${run.seed})`,
      '',
      '| repository | lessons found | precision of what was added | duplicates | noise | contradictions left | team rule evidence right |',
      '|---|--:|--:|--:|--:|--:|--:|',
      ...run.repos.map((r) => row(r.repo, r)),
      row('**all**', run.totals),
      '',
    );
    out.push(
      "Tokens of Combee's text each agent loads at session start: the corpus as committed (AGENTS.md and CLAUDE.md each with a block of the team's rules) → as accepted:",
      '',
      `| repository | ${CONTEXT_AGENTS.map((a) => AGENT_LOADING[a].label).join(' | ')} |`,
      `|---|${CONTEXT_AGENTS.map(() => '--:').join('|')}|`,
      ...Object.entries(run.contextTokens).map(
        ([repo, costs]) => `| ${repo} | ${costs.map((c) => `${c.before} → ${c.after}`).join(' | ')} |`,
      ),
      '',
    );
    const missed = targetsMissed(run);
    out.push(missed.length === 0 ? 'Targets met.' : `Targets not met: ${missed.join('; ')}.`, '');
    const reduce = Object.values(run.reduce);
    const doubted = reduce.flatMap((r) => r.doubted);
    out.push(
      `Through the map phase's file and a reduce: ${reduce.filter((r) => r.sameProposal).length} / ${reduce.length} proposal(s) the live run's, byte for byte; ${doubted.length} of ${reduce.reduce((n, r) => n + r.lessons, 0)} lesson(s) doubted.`,
      ...doubted.map((d) => `- doubted: ${d}`),
      '',
    );
    for (const r of run.repos) {
      const lines = [
        ...r.lessons.missed.map((id) => `missed lesson ${id}`),
        ...r.added.imprecise.map((t) => `imprecise: ${t}`),
        ...r.noise.map((n) => `noise (${n.kind}): ${n.rule}`),
        ...r.duplicates.map((d) => `duplicate (${d.label}): ${d.statements.join(' | ')}`),
        ...r.contradictions.map((c) => `contradiction (${c.conflict}): ${c.a} | ${c.b}`),
        ...r.evidence.flatMap((e) => (e.mismatch ? [`evidence: ${e.mismatch}`] : [])),
      ];
      if (lines.length) out.push(`${r.repo}:`, ...lines.map((l) => `- ${l}`), '');
    }
  }
  return out.join('\n');
}

function flag(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

export async function runQualityBench(argv: string[]): Promise<number> {
  const which = flag(argv, '--learner') ?? 'all';
  const seed = Number(flag(argv, '--seed') ?? '1');
  const corpus = flag(argv, '--corpus') ?? 'main';
  if (
    (which !== 'all' && !(LEARNERS as readonly string[]).includes(which)) ||
    !Number.isInteger(seed) ||
    !Object.hasOwn(CORPORA, corpus)
  ) {
    process.stderr.write(`usage: ${QUALITY_USAGE}\n`);
    return 2;
  }
  const learners: Learner[] = which === 'all' ? [...LEARNERS] : [which as Learner];
  const runs: QualityRun[] = [];
  for (const learner of learners) runs.push(await runQualityCorpus({ learner, seed, corpus: corpus as CorpusName }));
  const summary = {
    corpus,
    seed,
    runs: runs.map((r) => ({ ...r, targetsMissed: targetsMissed(r) })),
  };
  const out = flag(argv, '--out') ?? join(process.cwd(), 'bench', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, corpus === 'main' ? 'quality.json' : `quality-${corpus}.json`),
    `${JSON.stringify(summary, null, 2)}\n`,
  );
  process.stdout.write(argv.includes('--json') ? `${JSON.stringify(summary, null, 2)}\n` : `${qualityTable(runs)}\n`);
  return argv.includes('--strict') && runs.some((r) => targetsMissed(r).length > 0) ? 1 : 0;
}
