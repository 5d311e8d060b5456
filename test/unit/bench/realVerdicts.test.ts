import assert from 'node:assert/strict';
import { REAL_LABELS } from '../../../bench/real/labels';
import { REAL_VERDICTS } from '../../../bench/real/verdicts';
import { normalizeRuleText, type CorpusVerdicts } from '../../../bench/real/types';
import { hashedRuleKey, isHashedRuleKey, verdictFor } from '../../../bench/real/verdictKey';
import { personalDataIn } from '../../../bench/real/score';

describe('real-session verdict files', () => {
  for (const v of REAL_VERDICTS) {
    describe(v.corpus, () => {
      const labels = REAL_LABELS.find((c) => c.corpus === v.corpus);

      it('belong to a labelled corpus', () => {
        assert.ok(labels, `no labels for ${v.corpus}`);
      });

      it('file every verdict under a normalized key: the rule text as normalizeRuleText gives it, or its hash', () => {
        for (const key of Object.keys(v.verdicts)) {
          assert.equal(key, normalizeRuleText(key), `key not normalized: ${key}`);
          if (key.startsWith('sha256:')) assert.ok(isHashedRuleKey(key), `malformed hashed key: ${key}`);
        }
      });

      it('file no rule twice (under its text and under its hash)', () => {
        for (const key of Object.keys(v.verdicts)) {
          if (!isHashedRuleKey(key)) assert.ok(!(hashedRuleKey(key) in v.verdicts), `filed twice: ${key}`);
        }
      });

      it('name only lessons and traps of this corpus', () => {
        const lessons = new Set(labels?.lessons.map((l) => l.id));
        const traps = new Set(labels?.traps.map((t) => t.id));
        for (const [key, verdict] of Object.entries(v.verdicts)) {
          if (verdict.label) assert.ok(lessons.has(verdict.label), `${key}: unknown lesson ${verdict.label}`);
          if (verdict.trap) assert.ok(traps.has(verdict.trap), `${key}: unknown trap ${verdict.trap}`);
        }
      });

      it('give a one-line reason and keep no personal data in keys or reasons', () => {
        for (const [key, verdict] of Object.entries(v.verdicts)) {
          assert.ok(verdict.reason.trim() !== '' && !/\n/.test(verdict.reason), `${key}: reason`);
          assert.deepEqual(personalDataIn(`${key}\n${verdict.reason}`), [], key);
        }
      });
    });
  }
});

describe('verdictFor', () => {
  const verdicts: CorpusVerdicts = {
    corpus: 'example',
    verdicts: {
      'run `make test` before committing': { verdict: 'trivial', reason: 'the Makefile says so' },
      [hashedRuleKey('Please fix the login page today')]: { verdict: 'false', reason: 'a task request' },
    },
  };

  it('finds a verdict filed under the rule text, whatever its case, spacing or list marker', () => {
    assert.equal(verdictFor(verdicts, '- Run  `make test`\nbefore committing.')?.verdict, 'trivial');
  });

  it('finds a verdict filed under the hash of the rule text, after the same normalization', () => {
    assert.equal(verdictFor(verdicts, '1. please fix the login   page today!')?.verdict, 'false');
  });

  it('finds nothing for an unjudged rule, nor for names every object inherits', () => {
    assert.equal(verdictFor(verdicts, 'Run `make lint` before committing'), undefined);
    assert.equal(verdictFor(verdicts, 'constructor'), undefined);
    assert.equal(verdictFor(verdicts, 'toString'), undefined);
  });
});
