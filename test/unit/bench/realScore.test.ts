import assert from 'node:assert/strict';
import { lessonsBySession, realScriptedModel } from '../../../bench/real/models';
import { personalDataIn, scoreCorpus } from '../../../bench/real/score';
import { sessionKeys } from '../../../bench/real/sessionKeys';
import { normalizeRuleText, type CorpusLabels, type CorpusVerdicts } from '../../../bench/real/types';

// The real-session benchmark's grading, on labels and rules written here (not the real corpora).

const labels: CorpusLabels = {
  corpus: 'made-up',
  summary: 'a made-up corpus',
  lessons: [
    {
      id: 'py3',
      statement: '`python` is not installed; use `python3`.',
      kind: 'pitfall',
      sessions: [
        { session: 'a.jsonl', where: 'U2' },
        { session: 'b.jsonl', where: 'U3' },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/python3/] },
    },
    {
      id: 'once',
      statement: 'Run `make gen` first.',
      kind: 'workflow',
      sessions: [{ session: 'a.jsonl', where: 'U1' }],
      repeated: false,
      standing: false,
      repoStates: 'no',
      match: { all: [/make gen/] },
    },
  ],
  traps: [
    {
      id: 'task',
      kind: 'task-request',
      what: 'fix the login page',
      why: 'one task',
      sessions: [],
      match: { all: [/login page/i] },
    },
  ],
};

const verdicts: CorpusVerdicts = {
  corpus: 'made-up',
  verdicts: {
    [normalizeRuleText('Use `python3`: `python` is not installed.')]: { verdict: 'useful', reason: 'r', label: 'py3' },
    [normalizeRuleText('Fix the login page.')]: { verdict: 'false', reason: 'a task', trap: 'task' },
  },
};

describe('real-session benchmark: grading', () => {
  it('counts verdicts, task requests, recall of repeated lessons and lists rules with no verdict', () => {
    const f = scoreCorpus({
      labels,
      verdicts,
      rules: [
        { id: 'a-1', op: 'ADD', content: 'Use `python3`: `python` is not installed.', flags: [] },
        { id: 'a-2', op: 'ADD', content: 'fix the login page', flags: [] },
        { id: 'a-3', op: 'ADD', content: 'Something nobody judged.', flags: [] },
      ],
      files: [{ path: 'AGENTS.md', before: '', after: 'one two three' }],
    });
    assert.equal(f.proposed, 3);
    assert.equal(f.useful, 1);
    assert.equal(f.false, 1);
    assert.equal(f.taskRequests, 1);
    assert.deepEqual(f.unjudged, ['Something nobody judged.']);
    assert.ok(Math.abs(f.precision - 1 / 3) < 1e-9);
    assert.deepEqual(f.recall, { found: ['py3'], of: 1, missed: [] });
    assert.ok(f.tokensAdded['AGENTS.md'] > 0);
  });

  it('finds personal data added to a file, not what the file already held', () => {
    assert.deepEqual(personalDataIn('mail jane.doe@example.org from /Users/jane/x'), [
      'e-mail address: jane.doe@example.org',
      'home folder: /Users/jane',
    ]);
    assert.deepEqual(personalDataIn('~/x and <workspace>/y'), []);
    const f = scoreCorpus({
      labels,
      verdicts,
      rules: [],
      files: [{ path: 'CLAUDE.md', before: 'owner a@b.io', after: 'owner a@b.io\nping c@d.io' }],
    });
    assert.deepEqual(f.personalData, ['CLAUDE.md: e-mail address: c@d.io']);
  });

  it('knows a session by its id, file name, or an Aider header time', () => {
    const keys = sessionKeys({
      id: 'aider:0123abcd',
      source: { path: '/r/.aider.chat.history.md', bytes: 1 },
      startedAt: '2025-06-02T13:08:34+02:00',
    });
    assert.ok(keys.includes('2025-06-02 13:08:34'));
    assert.ok(sessionKeys({ id: 'codex:x', source: { path: '/s/rollout-1.jsonl', bytes: 1 } }).includes('rollout-1'));
  });

  it('the careful model answers with the lessons a session shows, citing the steps that name them', async () => {
    const model = realScriptedModel('careful', lessonsBySession(labels, [{ id: 'codex:a', keys: ['a.jsonl'] }]));
    const prompt = [
      'Session codex:a (codex)',
      '#0 USER: do the thing',
      '#1 TOOL shell: $ python x.py',
      '#2 RESULT FAILED exit 127: python: not found',
      'Return JSON {"lessons":[]}',
    ].join('\n');
    const reply = await model({ model: 'm', messages: [{ role: 'user', content: prompt }] }, 0);
    const lessons = JSON.parse(reply.content ?? '{}').lessons as Array<{ content: string; evidence_steps: number[] }>;
    assert.deepEqual(
      lessons.map((l) => l.content),
      labels.lessons.map((l) => l.statement),
    );
    assert.deepEqual(lessons[0].evidence_steps, [1, 2]);
  });
});
