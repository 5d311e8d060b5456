import assert from 'node:assert/strict';
import { REAL_LABELS } from '../../../bench/real/labels';
import { REAL_VERDICTS } from '../../../bench/real/verdicts';
import { matches } from '../../../bench/quality/types';
import { normalizeRuleText, type CorpusLabels } from '../../../bench/real/types';

const CORPORA = [
  'entireio-cli',
  'packmind-context-evaluator',
  'testframework-codex',
  'destyler-specstory',
  'monochromatic-aider',
  'mozgoslav-aider',
];

/** Every human-readable string of a corpus's labels (not its matchers). */
function texts(c: CorpusLabels): string[] {
  return [
    c.summary,
    ...c.lessons.flatMap((l) => [l.statement, l.note ?? '', ...l.sessions.flatMap((e) => [e.session, e.where])]),
    ...c.traps.flatMap((t) => [t.what, t.why, ...t.sessions.flatMap((e) => [e.session, e.where])]),
  ];
}

describe('real-session labels', () => {
  it('label each of the six corpora once', () => {
    assert.deepEqual(REAL_LABELS.map((c) => c.corpus).sort(), [...CORPORA].sort());
  });

  for (const c of REAL_LABELS) {
    describe(c.corpus, () => {
      it('have unique ids', () => {
        const ids = [...c.lessons, ...c.traps].map((x) => x.id);
        assert.equal(new Set(ids).size, ids.length);
      });

      it('call a lesson repeated exactly when two or more sessions show it', () => {
        for (const l of c.lessons) {
          const sessions = new Set(l.sessions.map((e) => e.session)).size;
          assert.equal(l.repeated, sessions >= 2, l.id);
        }
      });

      it("recognize each lesson's own statement, and no other lesson's", () => {
        for (const l of c.lessons) {
          assert.ok(matches(l.match, l.statement), `${l.id} does not match its statement`);
          for (const other of c.lessons) {
            if (other !== l) assert.ok(!matches(l.match, other.statement), `${l.id} matches ${other.id}`);
          }
        }
      });

      it('never take a lesson for a trap', () => {
        for (const t of c.traps) {
          for (const l of c.lessons) assert.ok(!matches(t.match, l.statement), `trap ${t.id} matches ${l.id}`);
        }
      });

      it('carry no personal data', () => {
        for (const text of texts(c)) {
          assert.doesNotMatch(text, /[\w.+-]+@[\w-]+\.[a-z]{2,}/i, text);
          assert.doesNotMatch(text, /\/Users\/\w|\/home\/\w|C:\\Users\\/i, text);
        }
      });
    });
  }
});

describe('real-session verdicts', () => {
  it('exist for each labelled corpus, filed under normalized rule text, naming only known labels and traps', () => {
    assert.deepEqual(REAL_VERDICTS.map((v) => v.corpus).sort(), [...CORPORA].sort());
    for (const v of REAL_VERDICTS) {
      const labels = REAL_LABELS.find((c) => c.corpus === v.corpus)!;
      const lessonIds = new Set(labels.lessons.map((l) => l.id));
      const trapIds = new Set(labels.traps.map((t) => t.id));
      for (const [key, verdict] of Object.entries(v.verdicts)) {
        assert.equal(normalizeRuleText(key), key, `${v.corpus}: key not normalized: ${key}`);
        assert.ok(verdict.reason.trim() !== '' && !verdict.reason.includes('\n'), `${v.corpus}: reason of ${key}`);
        if (verdict.label) assert.ok(lessonIds.has(verdict.label), `${v.corpus}: unknown label ${verdict.label}`);
        if (verdict.trap) assert.ok(trapIds.has(verdict.trap), `${v.corpus}: unknown trap ${verdict.trap}`);
      }
    }
  });
});

describe('normalizeRuleText', () => {
  it('files the same rule under one key whatever its case, spacing, list marker or closing punctuation', () => {
    const key = normalizeRuleText('Run `bun run test` before committing');
    assert.equal(normalizeRuleText('- run  `bun run test`\nbefore committing.'), key);
    assert.equal(normalizeRuleText('2. Run `bun run test` before committing;'), key);
  });

  it('keeps rules that differ in a word apart', () => {
    assert.notEqual(normalizeRuleText('Run `bun run lint`'), normalizeRuleText('Run `bun run test`'));
  });
});
