import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPORA, REPOS, teamPlaybook, TEAM_COMMIT_DATE, writeQualityCorpus } from '../../../bench/quality/corpus';
import { HELDOUT_REPOS, HELDOUT_SLOPPY_EXTRAS } from '../../../bench/quality/heldout';
import { runQualityBench } from '../../../bench/quality/main';
import { scriptedModel } from '../../../bench/quality/models';
import { matches } from '../../../bench/quality/types';
import { importSessions } from '../../../src/core/import/importer';
import { reflectionPrompt } from '../../../src/core/llm/prompts';
import { parsePlaybook } from '../../../src/core/playbook/markdown';
import { TraceStore } from '../../../src/core/store/traceStore';
import { condenseTrace } from '../../../src/core/trace/condense';
import { git, gitInstalled } from '../../../testing/gitRepo';
import { tempDir } from '../../../testing/tmp';

const PLAYBOOK = '.combee/playbook.md';

/** The command a repository's sessions run most, by its first word (`./gradlew`, `mix`…). */
function mainTool(repo: (typeof HELDOUT_REPOS)[number]): string {
  const counts = new Map<string, number>();
  for (const s of repo.sessions)
    for (const step of s.steps)
      if ('run' in step) {
        const words = step.run.split(' ').filter((w) => !/^\w+=/.test(w));
        const tool = words[0] === 'bundle' || words[0] === 'bin/rails' ? 'bundler/rails' : words[0];
        counts.set(tool, (counts.get(tool) ?? 0) + 1);
      }
  return [...counts].sort((a, b) => b[1] - a[1])[0][0];
}

describe('held-out quality corpus (bench/quality/heldout)', function () {
  before(function () {
    if (!gitInstalled()) this.skip();
  });

  it('is four repositories or more of ecosystems and tools the main corpus does not have, 40+ sessions of both agents', async () => {
    assert.equal(CORPORA.heldout, HELDOUT_REPOS);
    assert.equal(CORPORA.main, REPOS);
    assert.ok(HELDOUT_REPOS.length >= 4);
    const ecosystems = new Set(HELDOUT_REPOS.map((r) => r.ecosystem));
    assert.equal(ecosystems.size, HELDOUT_REPOS.length);
    for (const main of REPOS) assert.ok(!ecosystems.has(main.ecosystem), main.ecosystem);
    for (const repo of HELDOUT_REPOS)
      assert.ok(!['pnpm', 'uv', 'cargo', 'make'].includes(mainTool(repo)), `${repo.name}: ${mainTool(repo)}`);
    const names = [...REPOS, ...HELDOUT_REPOS].map((r) => r.name);
    assert.equal(new Set(names).size, names.length);

    const root = tempDir('combee-qh-import-');
    const corpus = writeQualityCorpus(root, 1, HELDOUT_REPOS);
    const store = new TraceStore(join(root, 'store'));
    const summary = await importSessions({ from: corpus.homes, store });
    assert.ok(summary.sessions >= 40, `${summary.sessions} sessions`);
    assert.ok(summary.byAgent['claude-code'].sessions >= 10 && summary.byAgent.codex.sessions >= 10);
    assert.deepEqual(summary.traceIds.slice().sort(), corpus.sessions.map((s) => s.traceId).sort());
    for (const repo of HELDOUT_REPOS) {
      const agents = new Set(repo.sessions.map((s) => s.agent));
      assert.deepEqual([...agents].sort(), ['claude-code', 'codex'], repo.name);
      assert.ok(repo.sessions.length >= 10 && repo.sessions.length <= 12, repo.name);
    }
    for (const trace of await store.loadTraces(summary.traceIds)) {
      const written = corpus.sessions.find((s) => s.traceId === trace.id);
      assert.equal(trace.cwd, corpus.workspaces[written?.repo ?? '']);
    }
  });

  it("commits each repository's team files before its first session, every team rule in the agents' files", () => {
    const corpus = writeQualityCorpus(tempDir('combee-qh-git-'), 1, HELDOUT_REPOS);
    assert.deepEqual(Object.keys(corpus.workspaces).sort(), HELDOUT_REPOS.map((r) => r.name).sort());
    for (const repo of HELDOUT_REPOS) {
      const workspace = corpus.workspaces[repo.name];
      const first = Math.min(
        ...corpus.sessions.filter((s) => s.repo === repo.name).map((s) => Date.parse(s.startedAt)),
      );
      for (const path of [PLAYBOOK, 'AGENTS.md', 'CLAUDE.md', ...Object.keys(repo.files)]) {
        const committed = git(workspace, ['log', '-1', '--format=%cI', '--', path]).trim();
        assert.equal(Date.parse(committed), Date.parse(TEAM_COMMIT_DATE), `${repo.name}/${path}`);
        assert.ok(Date.parse(committed) < first, `${repo.name}/${path} before the first session`);
      }
      assert.equal(git(workspace, ['status', '--porcelain']), '');
      const agents = readFileSync(join(workspace, 'AGENTS.md'), 'utf8');
      assert.ok(agents.startsWith(repo.agentsText));
      for (const rule of repo.teamRules) {
        assert.ok(agents.includes(`[${rule.id}] ${rule.content}`), rule.id);
        assert.ok(teamPlaybook(repo).includes(`[${rule.id}] helpful=0 harmful=0 :: ${rule.content}`));
      }
    }
  });

  it('has consistent labels: every lesson in two sessions, wordings match, no label is noise, tags name team rules', () => {
    const keys = [...REPOS, ...HELDOUT_REPOS].flatMap((r) => r.sessions.map((s) => s.key));
    assert.equal(new Set(keys).size, keys.length, 'session keys are unique across the corpora');
    const lessonTexts = [...REPOS, ...HELDOUT_REPOS].flatMap((r) =>
      r.labels.filter((l) => l.kind === 'lesson').map((l) => l.text),
    );
    assert.equal(new Set(lessonTexts).size, lessonTexts.length, 'lesson texts are unique across the corpora');
    for (const key of Object.keys(HELDOUT_SLOPPY_EXTRAS)) assert.ok(keys.includes(key), key);

    for (const repo of HELDOUT_REPOS) {
      assert.deepEqual(
        repo.teamRules.map((r) => r.expected).sort(),
        ['harmful', 'helpful', 'helpful', 'untouched', 'violated'],
        repo.name,
      );
      const labelIds = new Set(repo.labels.map((l) => l.id));
      assert.equal(labelIds.size, repo.labels.length, `${repo.name}: label ids are unique`);
      const lessons = repo.labels.filter((l) => l.kind === 'lesson');
      assert.equal(lessons.length, 5, repo.name);
      for (const label of lessons) {
        const shownIn = repo.sessions.filter((s) => s.lessons.includes(label.id));
        assert.ok(shownIn.length >= 2, `${label.id} is in ${shownIn.length} session(s)`);
        assert.ok(new Set(shownIn.map((s) => s.agent)).size === 2, `${label.id} is shown to both agents`);
        assert.ok((label.paraphrases ?? []).length >= 2, `${label.id} has paraphrases`);
        for (const wording of [label.text, ...(label.paraphrases ?? [])])
          assert.ok(matches(label.match, wording), wording);
      }
      for (const text of [
        ...repo.labels.filter((l) => l.kind !== 'wrong').map((l) => l.text),
        ...(lessons.flatMap((l) => l.paraphrases ?? []) as string[]),
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
        assert.equal(label.kind, rule.expected === 'harmful' ? 'wrong' : 'fact', rule.id);
      }
      for (const rule of repo.teamRules.filter((r) => r.expected === 'harmful')) {
        assert.ok(
          repo.labels.some((l) => l.corrects === rule.id),
          `${rule.id} has a correction`,
        );
        assert.ok(
          repo.conflicts.some((c) => matches(c.a, rule.content)),
          `${rule.id} is one side of a conflict`,
        );
      }
      for (const rule of repo.teamRules) {
        const tagged = repo.sessions.filter((s) => rule.id in s.tags);
        if (rule.expected === 'untouched') assert.equal(tagged.length, 0, rule.id);
        else {
          assert.ok(tagged.length >= 1, `${rule.id} is in play`);
          for (const s of tagged) assert.equal(s.tags[rule.id], rule.expected, `${s.key} ${rule.id}`);
        }
      }
      for (const s of repo.sessions) for (const id of s.lessons) assert.ok(labelIds.has(id), `${s.key}: ${id}`);
      // what the users say overrules or teaches; none of it states a falsehood (their corrections name the wrong command)
      for (const s of repo.sessions)
        for (const step of s.steps)
          if ('user' in step)
            for (const sentence of step.user.split(/(?<=[.:;])\s+/))
              assert.equal(
                repo.labels.find((l) => l.kind === 'wrong' && matches(l.match, sentence))?.id,
                undefined,
                `${s.key}: ${sentence}`,
              );
      // the team's own text starts with no duplicate and no contradiction of its own rules
      const teamTexts = [...repo.agentsText.split('\n'), ...repo.teamRules.map((r) => r.content)];
      for (const c of repo.conflicts) {
        const both = teamTexts.filter((t) => matches(c.a, t)).length && teamTexts.filter((t) => matches(c.b, t)).length;
        assert.ok(!both || repo.teamRules.some((r) => r.expected === 'harmful' && matches(c.a, r.content)), c.id);
      }
      const noSession = repo.sessions.filter((s) => s.lessons.length === 0);
      assert.ok(noSession.length >= 1, `${repo.name} has a session of noise only`);
    }
  });

  it('the careful model answers a held-out reflection with the lessons planted in that session', async () => {
    const root = tempDir('combee-qh-model-');
    const corpus = writeQualityCorpus(root, 2, HELDOUT_REPOS);
    const store = new TraceStore(join(root, 'store'));
    await importSessions({ from: corpus.homes, store });
    const [repo] = HELDOUT_REPOS.filter((r) => r.name === 'orders');
    const spec = repo.sessions.find((s) => s.key === 'orders-03');
    const written = corpus.sessions.find((s) => s.key === 'orders-03');
    const [trace] = await store.loadTraces([written?.traceId ?? '']);
    const request = {
      model: 'm',
      messages: reflectionPrompt(condenseTrace(trace).text, parsePlaybook(teamPlaybook(repo))),
    };
    const answer = JSON.parse((scriptedModel('careful', 2, HELDOUT_REPOS)(request, 0) as { content: string }).content);
    assert.deepEqual(
      answer.lessons.map((l: { content: string }) => l.content),
      spec?.lessons.map((id) => repo.labels.find((l) => l.id === id)?.text),
    );
    assert.deepEqual(answer.bullet_tags.map((t: { id: string; tag: string }) => `${t.id}:${t.tag}`).sort(), [
      'bat-00001:helpful',
      'bat-00002:harmful',
    ]);
    // the main corpus's model does not know the held-out sessions
    const unknown = JSON.parse((scriptedModel('careful', 2)(request, 0) as { content: string }).content);
    assert.deepEqual(unknown.lessons, []);
  });

  it('`bench quality --corpus heldout` writes quality-heldout.json; an unknown corpus is a usage error', async () => {
    const out = tempDir('combee-qh-out-');
    const stdout: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => (stdout.push(String(chunk)), true)) as typeof process.stdout.write;
    let code: number;
    try {
      code = await runQualityBench(['--learner', 'offline', '--corpus', 'heldout', '--out', out]);
    } finally {
      process.stdout.write = write;
    }
    assert.equal(code, 0);
    assert.ok(!existsSync(join(out, 'quality.json')));
    const summary = JSON.parse(readFileSync(join(out, 'quality-heldout.json'), 'utf8'));
    assert.equal(summary.corpus, 'heldout');
    assert.deepEqual(
      summary.runs[0].repos.map((r: { repo: string }) => r.repo),
      HELDOUT_REPOS.map((r) => r.name),
    );
    assert.equal(
      summary.runs[0].corpus.sessions,
      HELDOUT_REPOS.reduce((n, r) => n + r.sessions.length, 0),
    );
    assert.match(stdout.join(''), /### offline \(4 repositories, 44 sessions/);
    const stderr: string[] = [];
    const writeErr = process.stderr.write;
    process.stderr.write = ((chunk: string) => (stderr.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      assert.equal(await runQualityBench(['--corpus', 'other', '--out', out]), 2);
    } finally {
      process.stderr.write = writeErr;
    }
    assert.match(stderr.join(''), /--corpus main\|heldout/);
  });
});
