import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importSessions } from '../../src/core/import/importer';
import { rulesForSession } from '../../src/core/llm/prompts';
import { parsePlaybook } from '../../src/core/playbook/markdown';
import { TraceStore } from '../../src/core/store/traceStore';
import { condenseTrace, DEFAULT_CONDENSE_BUDGET } from '../../src/core/trace/condense';
import { countTokens } from '../../src/core/util/tokens';
import { tempDir } from '../../testing/tmp';
import { CORPORA, writeQualityCorpus } from './corpus';
import type { RepoSpec } from './types';

// `combee bench relevance [--json] [--out <folder>]`: which rules a reflection prompt shows. Every session of both
// quality corpora (eight repositories of eight ecosystems) is shown rules from one large playbook that holds every
// repository's team rules and planted lessons, as a monorepo's playbook would: the rules the session had in play
// (its designed tags) and the rules that state its own lessons must be shown; another repository's rules are noise.

export const RELEVANCE_USAGE = 'combee bench relevance [--json] [--out <folder>]';

export interface RelevanceFigures {
  sessions: number;
  playbookRules: number;
  /** Team rules a session had in play (tagged helpful, harmful or violated by design), and how many were shown. */
  inPlay: number;
  inPlayShown: number;
  /** Rules stating a lesson the session shows, and how many were shown. */
  ownLessons: number;
  ownLessonsShown: number;
  /** Rules of other repositories shown, summed over sessions. */
  foreignShown: number;
  /** Rules shown and the rules block's tokens, averaged per session. */
  meanShown: number;
  meanTokens: number;
  /** Each in-play rule or own lesson that was not shown: `session: id text`. */
  missed: string[];
}

interface PooledRule {
  id: string;
  repo: string;
  text: string;
  /** The team rule's id in its own repository, or the lesson label. */
  source: string;
}

/** Every repository's team rules and lessons under ids unique in the pool (a session's own team rules keep theirs). */
function pooledRules(repos: readonly RepoSpec[], own: RepoSpec): PooledRule[] {
  let next = 1;
  const fresh = () => `pool-${String(next++).padStart(5, '0')}`;
  return repos.flatMap((repo) => [
    ...repo.teamRules.map((r) => ({
      id: repo === own ? r.id : fresh(),
      repo: repo.name,
      text: r.content,
      source: r.id,
    })),
    ...repo.labels
      .filter((l) => l.kind === 'lesson')
      .map((l) => ({ id: fresh(), repo: repo.name, text: l.text, source: l.id })),
  ]);
}

function playbookText(rules: readonly PooledRule[]): string {
  return ['# Playbook', '', '## Rules', ...rules.map((r) => `[${r.id}] helpful=0 harmful=0 :: ${r.text}`), ''].join(
    '\n',
  );
}

export async function relevanceFigures(seed = 1): Promise<RelevanceFigures> {
  const repos = [...CORPORA.main, ...CORPORA.heldout];
  const root = tempDir('combee-relevance-');
  const corpus = writeQualityCorpus(join(root, 'corpus'), seed, repos);
  const store = new TraceStore(join(root, 'store'));
  await importSessions({ from: corpus.homes, store });
  const figures: RelevanceFigures = {
    sessions: 0,
    playbookRules: 0,
    inPlay: 0,
    inPlayShown: 0,
    ownLessons: 0,
    ownLessonsShown: 0,
    foreignShown: 0,
    meanShown: 0,
    meanTokens: 0,
    missed: [],
  };
  for (const repo of repos) {
    const pool = pooledRules(repos, repo);
    const playbook = parsePlaybook(playbookText(pool));
    figures.playbookRules = pool.length;
    for (const spec of repo.sessions) {
      const written = corpus.sessions.find((s) => s.repo === repo.name && s.key === spec.key);
      const trace = written && (await store.loadTrace(written.traceId));
      if (!trace) throw new Error(`${repo.name} ${spec.key}: not imported`);
      const block = rulesForSession(playbook, condenseTrace(trace, DEFAULT_CONDENSE_BUDGET).text);
      const shown = new Set([...block.matchAll(/^\[([a-z]{2,5}-\d{5})\] /gm)].map((m) => m[1]));
      const mine = pool.filter((r) => r.repo === repo.name);
      const expect = (rule: PooledRule | undefined, kind: 'inPlay' | 'ownLessons') => {
        if (!rule) return;
        figures[kind]++;
        if (shown.has(rule.id)) figures[kind === 'inPlay' ? 'inPlayShown' : 'ownLessonsShown']++;
        else figures.missed.push(`${spec.key}: ${rule.source} ${rule.text}`);
      };
      for (const id of Object.keys(spec.tags))
        expect(
          mine.find((r) => r.source === id),
          'inPlay',
        );
      for (const id of spec.lessons)
        expect(
          mine.find((r) => r.source === id),
          'ownLessons',
        );
      figures.foreignShown += pool.filter((r) => r.repo !== repo.name && shown.has(r.id)).length;
      figures.sessions++;
      figures.meanShown += shown.size;
      figures.meanTokens += countTokens(block);
    }
  }
  figures.meanShown = Math.round((figures.meanShown / figures.sessions) * 10) / 10;
  figures.meanTokens = Math.round(figures.meanTokens / figures.sessions);
  return figures;
}

export async function runRelevanceBench(argv: string[]): Promise<number> {
  const figures = await relevanceFigures();
  const at = argv.indexOf('--out');
  const out = at >= 0 ? argv[at + 1] : join(process.cwd(), 'bench', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'relevance.json'), `${JSON.stringify(figures, null, 2)}\n`);
  const f = figures;
  process.stdout.write(
    argv.includes('--json')
      ? `${JSON.stringify(f, null, 2)}\n`
      : [
          `${f.sessions} sessions, each shown rules from one playbook of ${f.playbookRules} (8 repositories' team rules and lessons)`,
          `rules in play shown: ${f.inPlayShown} / ${f.inPlay}`,
          `rules stating the session's own lessons shown: ${f.ownLessonsShown} / ${f.ownLessons}`,
          `other repositories' rules shown: ${f.foreignShown} (${(f.foreignShown / f.sessions).toFixed(1)} per session)`,
          `per session: ${f.meanShown} rules shown, ${f.meanTokens} tokens`,
          ...f.missed.map((m) => `not shown: ${m}`),
          '',
        ].join('\n'),
  );
  return 0;
}
