import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { realCorpusMissing } from '../../testing/realSessions';
import { REAL_LABELS } from './labels';
import { REAL_LEARNERS, runRealCorpus, type RealLearner, type RealRun } from './run';
import { REAL_VERDICTS } from './verdicts';

// `combee bench real [--learner offline|careful|sloppy|all] [--corpus <name>] [--json] [--strict] [--out <folder>]`:
// the public real-session corpora (../shared/real-sessions) learned by each learner, every proposed rule graded by its
// hand-given verdict. Exit 1 when a proposed rule has no verdict yet (they are listed), and with --strict when the
// issue's targets are missed.

export const REAL_USAGE =
  'combee bench real [--learner offline|careful|sloppy|all] [--corpus <name>] [--json] [--strict] [--out <folder>]';

const pct = (x: number) => `${Math.round(x * 100)} %`;

interface Totals {
  proposed: number;
  useful: number;
  harmful: number;
  taskRequests: number;
  personalData: number;
  found: number;
  of: number;
  unjudged: number;
}

function totalsOf(runs: readonly RealRun[]): Totals {
  const t: Totals = {
    proposed: 0,
    useful: 0,
    harmful: 0,
    taskRequests: 0,
    personalData: 0,
    found: 0,
    of: 0,
    unjudged: 0,
  };
  for (const { figures: f } of runs) {
    t.proposed += f.proposed;
    t.useful += f.useful;
    t.harmful += f.harmful;
    t.taskRequests += f.taskRequests;
    t.personalData += f.personalData.length;
    t.found += f.recall.found.length;
    t.of += f.recall.of;
    t.unjudged += f.unjudged.length;
  }
  return t;
}

const precisionOf = (t: Pick<Totals, 'useful' | 'proposed'>) => (t.proposed === 0 ? 1 : t.useful / t.proposed);
const recallOf = (t: Pick<Totals, 'found' | 'of'>) => (t.of === 0 ? 1 : t.found / t.of);

/** The issue's "done when", per learner. */
export function realTargetsMissed(learner: RealLearner, t: Totals): string[] {
  const missed: string[] = [];
  if (t.harmful > 0) missed.push(`${t.harmful} harmful rule(s)`);
  if (learner === 'sloppy') {
    if (t.taskRequests > 0) missed.push(`${t.taskRequests} task request(s)`);
    return missed;
  }
  if (t.personalData > 0) missed.push(`${t.personalData} personal data`);
  const [p, r] = learner === 'offline' ? [0.85, 0.4] : [0.9, 0.7];
  if (precisionOf(t) < p) missed.push(`precision ${pct(precisionOf(t))} < ${pct(p)}`);
  if (recallOf(t) < r) missed.push(`recall ${pct(recallOf(t))} < ${pct(r)}`);
  return missed;
}

function table(learner: RealLearner, runs: readonly RealRun[]): string[] {
  const out = [
    `### ${learner}`,
    '',
    '| corpus | sessions | proposed | useful | trivial | false | harmful | precision | task requests | personal data | recall (lessons in ≥ 2 sessions) | tokens added per agent file |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|',
  ];
  for (const { corpus, sessions, figures: f } of runs)
    out.push(
      `| ${corpus} | ${sessions} | ${f.proposed} | ${f.useful} | ${f.trivial} | ${f.false} | ${f.harmful} | ${pct(f.precision)} | ${f.taskRequests} | ${f.personalData.length} | ${f.recall.found.length} / ${f.recall.of} | ${
        Object.entries(f.tokensAdded)
          .map(([p, n]) => `${p} ${n >= 0 ? '+' : ''}${n}`)
          .join(', ') || '—'
      } |`,
    );
  const t = totalsOf(runs);
  out.push(
    `| **all** | | ${t.proposed} | ${t.useful} | | | ${t.harmful} | ${pct(precisionOf(t))} | ${t.taskRequests} | ${t.personalData} | ${t.found} / ${t.of} (${pct(recallOf(t))}) | |`,
    '',
  );
  const missed = realTargetsMissed(learner, t);
  out.push(missed.length === 0 ? 'Targets met.' : `Targets not met: ${missed.join('; ')}.`, '');
  for (const { corpus, figures: f } of runs) {
    const lines = [
      ...f.rules.map(
        (r) =>
          `${r.verdict ? r.verdict.verdict : 'NO VERDICT'}${r.flags.length ? ` (flagged ${r.flags.join(', ')})` : ''}: ${r.content}${r.verdict ? ` — ${r.verdict.reason}` : ''}`,
      ),
      ...f.recall.missed.map((id) => `missed lesson ${id}`),
      ...f.personalData.map((p) => `personal data: ${p}`),
    ];
    if (lines.length) out.push(`${corpus}:`, ...lines.map((l) => `- ${l}`), '');
  }
  return out;
}

/** What each corpus's workspace held: the instruction files its sessions read in full (the same for every learner). */
function workspaceLines(runs: readonly RealRun[]): string[] {
  const byCorpus = new Map(runs.map((r) => [r.corpus, r.workspaceFiles]));
  if (byCorpus.size === 0) return [];
  return [
    'Workspace files (instruction files the sessions read in full):',
    '',
    ...[...byCorpus].map(([corpus, files]) => `- ${corpus}: ${files.join(', ') || 'none'}`),
    '',
  ];
}

function flag(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

export async function runRealBench(argv: string[]): Promise<number> {
  const which = flag(argv, '--learner') ?? 'all';
  const only = flag(argv, '--corpus');
  if (
    (which !== 'all' && !(REAL_LEARNERS as readonly string[]).includes(which)) ||
    (only !== undefined && !REAL_LABELS.some((l) => l.corpus === only))
  ) {
    process.stderr.write(`usage: ${REAL_USAGE}\n`);
    return 2;
  }
  const learners: RealLearner[] = which === 'all' ? [...REAL_LEARNERS] : [which as RealLearner];
  const corpora = REAL_LABELS.filter((l) => only === undefined || l.corpus === only);
  const byLearner = new Map<RealLearner, RealRun[]>();
  const skipped: string[] = [];
  for (const learner of learners)
    for (const labels of corpora) {
      const verdicts = REAL_VERDICTS.find((v) => v.corpus === labels.corpus) ?? { corpus: labels.corpus, verdicts: {} };
      const run = await runRealCorpus({ learner, labels, verdicts });
      if (!run) {
        if (!skipped.includes(labels.corpus)) skipped.push(labels.corpus);
        continue;
      }
      byLearner.set(learner, [...(byLearner.get(learner) ?? []), run]);
    }
  for (const name of skipped) process.stderr.write(`${realCorpusMissing(name)}\n`);
  const runs = [...byLearner.values()].flat();
  const summary = {
    runs: runs.map((r) => ({ ...r })),
    totals: Object.fromEntries(
      [...byLearner].map(([learner, rs]) => [
        learner,
        { ...totalsOf(rs), missed: realTargetsMissed(learner, totalsOf(rs)) },
      ]),
    ),
    skipped,
  };
  const out = flag(argv, '--out') ?? join(process.cwd(), 'bench', 'results');
  mkdirSync(out, { recursive: true });
  const name = ['real', which === 'all' ? '' : which, only ?? ''].filter(Boolean).join('-');
  writeFileSync(join(out, `${name}.json`), `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(
    argv.includes('--json')
      ? `${JSON.stringify(summary, null, 2)}\n`
      : `${[...workspaceLines(runs), ...[...byLearner].flatMap(([learner, rs]) => table(learner, rs))].join('\n')}\n`,
  );
  const unjudged = runs.reduce((n, r) => n + r.figures.unjudged.length, 0);
  if (unjudged > 0) {
    process.stderr.write(
      `${unjudged} proposed rule(s) have no verdict (marked NO VERDICT above): judge them in bench/real/verdicts/\n`,
    );
    return 1;
  }
  return argv.includes('--strict') && [...byLearner].some(([l, rs]) => realTargetsMissed(l, totalsOf(rs)).length > 0)
    ? 1
    : 0;
}
