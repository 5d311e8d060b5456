import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPOS, teamPlaybook, TEAM_COMMIT_DATE, writeQualityCorpus } from '../../../bench/quality/corpus';
import { targetsMissed } from '../../../bench/quality/main';
import { scriptedModel } from '../../../bench/quality/models';
import { webShop } from '../../../bench/quality/repos/webShop';
import { runQualityCorpus } from '../../../bench/quality/run';
import { scoreRepo, totalsOf, type AcceptedRepo } from '../../../bench/quality/score';
import { matches } from '../../../bench/quality/types';
import { importSessions } from '../../../src/core/import/importer';
import { reflectionPrompt } from '../../../src/core/llm/prompts';
import { parsePlaybook } from '../../../src/core/playbook/markdown';
import { TraceStore } from '../../../src/core/store/traceStore';
import { condenseTrace } from '../../../src/core/trace/condense';
import { git, gitInstalled } from '../../../testing/gitRepo';
import { tempDir } from '../../../testing/tmp';

/** Every file under `dir` except git's own folder, with the folder the corpus was written to blanked. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === '.git') continue;
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      // Claude Code names a project's folder after its path: blanked too
      else
        out.set(
          relative(dir, path)
            .split(dir.replace(/[^A-Za-z0-9]/g, '-'))
            .join('<root>'),
          readFileSync(path, 'utf8').split(dir).join('<root>'),
        );
    }
  };
  walk(dir);
  return out;
}

const PLAYBOOK = '.combee/playbook.md';
const shopLesson = (id: string) => webShop.labels.find((l) => l.id === id)?.text ?? '';

/** web-shop's files after a good accept: the correction in place of the npm rule, every lesson added once. */
function goodShop(extra: string[] = [], drop: string[] = []): Record<string, string> {
  const team = teamPlaybook(webShop)
    .replace('[bat-00001] helpful=0', '[bat-00001] helpful=4')
    .replace('[bat-00003] helpful=0', '[bat-00003] helpful=3')
    .replace('Install dependencies with `npm install`.', shopLesson('shop-pnpm-install'));
  const lessons = ['shop-prereq', 'shop-tz', 'shop-apifetch', 'shop-env'].filter((id) => !drop.includes(id));
  const added = [...lessons.map(shopLesson), ...extra].map(
    (t, i) => `[pitf-${String(10 + i).padStart(5, '0')}] helpful=0 harmful=0 :: ${t}`,
  );
  return { [PLAYBOOK]: `${team}## Pitfalls\n${added.join('\n')}\n`, 'AGENTS.md': webShop.agentsText };
}

const goodEvidence: AcceptedRepo['evidence'] = [
  { id: 'bat-00001', traceId: 's1', tag: 'helpful' },
  { id: 'bat-00002', traceId: 's3', tag: 'harmful' },
  { id: 'bat-00002', traceId: 's4', tag: 'harmful' },
  { id: 'bat-00003', traceId: 's5', tag: 'helpful' },
  { id: 'conv-00004', traceId: 's10', tag: 'violated' },
  { id: 'conv-00004', traceId: 's11', tag: 'violated' },
];

describe('quality benchmark corpus (bench/quality)', function () {
  before(function () {
    if (!gitInstalled()) this.skip();
  });

  it('is deterministic: the same seed writes the same bytes and commits, another seed other session ids', () => {
    const [a, b, c] = [tempDir('combee-q-a-'), tempDir('combee-q-b-'), tempDir('combee-q-c-')];
    writeQualityCorpus(a, 1);
    writeQualityCorpus(b, 1);
    const other = writeQualityCorpus(c, 2);
    assert.deepEqual(snapshot(a), snapshot(b));
    for (const repo of REPOS) {
      const head = (root: string) => git(join(root, 'repos', repo.name), ['rev-parse', 'HEAD']).trim();
      assert.equal(head(a), head(b), repo.name);
    }
    const sessionFiles = (m: Map<string, string>) => [...m.keys()].filter((k) => k.startsWith('homes')).sort();
    assert.notDeepEqual(sessionFiles(snapshot(a)), sessionFiles(snapshot(c)));
    assert.equal(
      other.sessions.length,
      REPOS.reduce((n, r) => n + r.sessions.length, 0),
    );
  });

  it('has four repositories of different ecosystems and 40+ sessions of both agents, read by the real importer', async () => {
    const root = tempDir('combee-q-import-');
    const corpus = writeQualityCorpus(root, 1);
    assert.ok(REPOS.length >= 4);
    assert.equal(new Set(REPOS.map((r) => r.ecosystem)).size, REPOS.length);
    const store = new TraceStore(join(root, 'store'));
    const summary = await importSessions({ from: corpus.homes, store });
    assert.ok(summary.sessions >= 40, `${summary.sessions} sessions`);
    assert.ok(summary.byAgent['claude-code'].sessions >= 10 && summary.byAgent.codex.sessions >= 10);
    assert.deepEqual(summary.traceIds.slice().sort(), corpus.sessions.map((s) => s.traceId).sort());
    const traces = await store.loadTraces(summary.traceIds);
    for (const trace of traces) {
      const written = corpus.sessions.find((s) => s.traceId === trace.id);
      assert.equal(trace.cwd, corpus.workspaces[written?.repo ?? '']);
      assert.ok(
        trace.steps.some((s) => s.kind === 'tool_call' && s.command),
        `${trace.id} runs commands`,
      );
    }
  });

  it("commits each repository's team files before its first session, with every team rule in the agents' files", () => {
    const corpus = writeQualityCorpus(tempDir('combee-q-git-'), 1);
    for (const repo of REPOS) {
      const workspace = corpus.workspaces[repo.name];
      const first = corpus.sessions.filter((s) => s.repo === repo.name).map((s) => Date.parse(s.startedAt));
      for (const path of [PLAYBOOK, 'AGENTS.md', 'CLAUDE.md']) {
        const committed = git(workspace, ['log', '-1', '--format=%cI', '--', path]).trim();
        assert.ok(committed, `${repo.name}/${path} is committed`);
        assert.ok(Date.parse(committed) === Date.parse(TEAM_COMMIT_DATE) && Date.parse(committed) < Math.min(...first));
      }
      assert.equal(git(workspace, ['status', '--porcelain']), '');
      const agents = readFileSync(join(workspace, 'AGENTS.md'), 'utf8');
      const claude = readFileSync(join(workspace, 'CLAUDE.md'), 'utf8');
      assert.ok(agents.startsWith(repo.agentsText), 'the team text stays outside the block');
      for (const rule of repo.teamRules) {
        assert.ok(agents.includes(`[${rule.id}] ${rule.content}`) && claude.includes(`[${rule.id}]`), rule.id);
        assert.ok(teamPlaybook(repo).includes(`[${rule.id}] helpful=0 harmful=0 :: ${rule.content}`));
      }
    }
  });

  it('plants each lesson in two sessions or more, and each label matches its own wordings', () => {
    for (const repo of REPOS) {
      const kinds = new Set(repo.teamRules.map((r) => r.expected));
      assert.deepEqual([...kinds].sort(), ['harmful', 'helpful', 'untouched', 'violated'], repo.name);
      for (const label of repo.labels.filter((l) => l.kind === 'lesson')) {
        const seen = repo.sessions.filter((s) => s.lessons.includes(label.id)).length;
        assert.ok(seen >= 2, `${label.id} is in ${seen} session(s)`);
        for (const wording of [label.text, ...(label.paraphrases ?? [])])
          assert.ok(matches(label.match, wording), wording);
      }
      // the labels do not contradict the noise: what a careful curator writes is never noise, nor a falsehood
      for (const text of [
        ...repo.labels.filter((l) => l.kind !== 'wrong').map((l) => l.text),
        ...repo.teamRules.map((r) => r.content),
      ]) {
        assert.deepEqual(
          repo.noise.filter((n) => matches(n.match, text)).map((n) => n.id),
          [],
          text,
        );
        const wrong = repo.labels.find((l) => l.kind === 'wrong' && matches(l.match, text));
        const team = repo.teamRules.find((r) => r.content === text);
        if (!team || team.expected !== 'harmful') assert.equal(wrong, undefined, text);
      }
      for (const rule of repo.teamRules) {
        const label = repo.labels.find((l) => l.id === rule.label);
        assert.ok(label && matches(label.match, rule.content), `${rule.id} states ${rule.label}`);
      }
      // a team rule that is wrong has a correction among the lessons, and the corpus knows they conflict
      for (const rule of repo.teamRules.filter((r) => r.expected === 'harmful')) {
        const correction = repo.labels.find((l) => l.corrects === rule.id);
        assert.ok(correction, `${rule.id} has a correction`);
        assert.ok(
          repo.conflicts.some((c) => matches(c.a, rule.content)),
          `${rule.id} is one side of a conflict`,
        );
      }
    }
  });

  it('the careful model answers a reflection with exactly the lessons planted in that session; the sloppy one paraphrases', async () => {
    const root = tempDir('combee-q-model-');
    const corpus = writeQualityCorpus(root, 3);
    const store = new TraceStore(join(root, 'store'));
    await importSessions({ from: corpus.homes, store });
    const written = corpus.sessions.find((s) => s.key === 'shop-03');
    const [trace] = await store.loadTraces([written?.traceId ?? '']);
    const request = {
      model: 'm',
      messages: reflectionPrompt(condenseTrace(trace).text, parsePlaybook(teamPlaybook(webShop))),
    };
    const answer = (style: 'careful' | 'sloppy') =>
      JSON.parse((scriptedModel(style, 3)(request, 0) as { content: string }).content) as {
        lessons: Array<{ content: string; evidence_steps: number[] }>;
        bullet_tags: Array<{ id: string; tag: string }>;
      };
    const careful = answer('careful');
    assert.deepEqual(
      careful.lessons.map((l) => l.content),
      [shopLesson('shop-pnpm-install')],
    );
    assert.deepEqual(careful.bullet_tags.map((t) => `${t.id}:${t.tag}`).sort(), [
      'bat-00001:helpful',
      'bat-00002:harmful',
    ]);
    const cited = careful.lessons[0].evidence_steps.map((n) => trace.steps[n]);
    assert.ok(
      cited.some((s) => s.kind === 'user' && /pnpm install/.test(s.text)),
      'it cites the user saying it',
    );
    const sloppy = answer('sloppy');
    assert.notEqual(sloppy.lessons[0].content, careful.lessons[0].content);
    assert.ok(
      matches(
        webShop.labels.find((l) => l.id === 'shop-pnpm-install')?.match ?? { all: [] },
        sloppy.lessons[0].content,
      ),
    );
    assert.deepEqual(sloppy.bullet_tags, []);
  });

  it('gives the same figures and accepted files for the same seed', async () => {
    const [a, b] = [
      await runQualityCorpus({ learner: 'offline', seed: 1 }),
      await runQualityCorpus({ learner: 'offline', seed: 1 }),
    ];
    assert.equal(a.repos.length, REPOS.length);
    assert.equal(a.corpus.sessions, b.corpus.sessions);
    assert.deepEqual(a.repos, b.repos);
    assert.deepEqual(a.accepted, b.accepted);
    for (const repo of REPOS) assert.ok(a.accepted[repo.name][PLAYBOOK].includes('[conv-00005]'), repo.name);
  });
});

describe('quality benchmark scorer (bench/quality/score.ts)', () => {
  it('counts a good accept as good: every lesson, precise, no duplicate, noise or contradiction, evidence right', () => {
    const f = scoreRepo({ repo: webShop, files: goodShop(), evidence: goodEvidence });
    assert.deepEqual(f.lessons.missed, []);
    assert.equal(f.lessons.found.length, 5);
    assert.deepEqual(f.added, { total: 5, precise: 5, imprecise: [] });
    assert.deepEqual([f.duplicates, f.noise, f.contradictions], [[], [], []]);
    assert.deepEqual(
      f.evidence.filter((e) => !e.right).map((e) => e.mismatch),
      [],
    );
    assert.deepEqual(targetsMissed({ learner: 'careful', totals: totalsOf([f]) }), []);
  });

  it('finds the contradiction the team files start with, and nothing learned', () => {
    const f = scoreRepo({
      repo: webShop,
      files: { [PLAYBOOK]: teamPlaybook(webShop), 'AGENTS.md': webShop.agentsText },
      evidence: [],
    });
    assert.equal(f.lessons.found.length, 0);
    assert.deepEqual(
      f.contradictions.map((c) => [c.conflict, c.a]),
      [['npm-vs-pnpm', 'Install dependencies with `npm install`.']],
    );
    const wrong = f.evidence.filter((e) => !e.right).map((e) => e.id);
    assert.deepEqual(wrong, ['bat-00001', 'bat-00002', 'bat-00003', 'conv-00004']);
  });

  it('detects a duplicate, a noise rule, a contradiction and a missing lesson', () => {
    const files = goodShop(
      [
        'Use `apiFetch` from `src/lib/http.ts` for every API call.',
        'Run `pnpm vitest run src/cart/total.test.ts` after changing the cart.',
        'Run the tests with `npm test`.',
      ],
      ['shop-env'],
    );
    const f = scoreRepo({ repo: webShop, files, evidence: goodEvidence });
    assert.deepEqual(f.lessons.missed, ['shop-env']);
    assert.deepEqual(
      f.duplicates.map((d) => [d.label, d.statements.length]),
      [['shop-apifetch', 2]],
    );
    assert.deepEqual(
      f.noise.map((n) => n.kind),
      ['test-file, one-off-path'],
    );
    // the wrong rule conflicts with the team's text and with the correction: two pairs, one wrong side
    assert.deepEqual([...new Set(f.contradictions.map((c) => c.a))], ['Run the tests with `npm test`.']);
    assert.deepEqual(f.added.imprecise, [
      'Run `pnpm vitest run src/cart/total.test.ts` after changing the cart.',
      'Run the tests with `npm test`.',
    ]);
    const totals = totalsOf([f]);
    assert.deepEqual([totals.duplicates, totals.noise, totals.contradictions, totals.lessonsFound], [1, 1, 2, 4]);
    assert.equal(totals.precision, 5 / 7); // the correction, four lessons (one of them twice) of seven added
    assert.deepEqual(targetsMissed({ learner: 'sloppy', totals }), ['2 contradiction(s) left', '1 duplicate(s)']);
  });

  it("counts a rule that restates the team's own text outside the block as a duplicate", () => {
    const files = goodShop(['Always use pnpm here, never npm.']);
    const f = scoreRepo({ repo: webShop, files, evidence: goodEvidence });
    assert.deepEqual(
      f.duplicates.map((d) => d.label),
      ['shop-pnpm'],
    );
  });

  it('calls evidence wrong when a wrong rule stays, a right one turns harmful or a broken one counts as followed', () => {
    const files = goodShop();
    files[PLAYBOOK] = files[PLAYBOOK].replace(
      shopLesson('shop-pnpm-install'),
      'Install dependencies with `npm install`.',
    )
      .replace('[bat-00003] helpful=3 harmful=0', '[bat-00003] helpful=1 harmful=2')
      .replace('[conv-00004] helpful=0', '[conv-00004] helpful=2');
    const evidence = goodEvidence.filter((e) => e.tag !== 'violated');
    const f = scoreRepo({ repo: webShop, files, evidence });
    assert.deepEqual(
      f.evidence.filter((e) => !e.right).map((e) => e.id),
      ['bat-00002', 'bat-00003', 'conv-00004'],
    );
    assert.match(f.evidence[1].mismatch ?? '', /still in the playbook as it was/);
    assert.match(f.evidence[3].mismatch ?? '', /never called violated.*gained helpful 2/);
    assert.equal(f.contradictions.length, 1);
  });
});
