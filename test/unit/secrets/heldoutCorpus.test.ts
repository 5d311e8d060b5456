import assert from 'node:assert/strict';
import { sinkLeaks } from '../../../bench/secrets/secretsBench';
import { createRedactor } from '../../../src/core/trace/redact';
import { buildCorpus } from '../../../testing/secretCorpus';
import { buildHeldoutCorpus, HELDOUT_LOOK_ALIKES } from '../../../testing/secretCorpusHeldout';

const redact = (text: string) => createRedactor({ homePaths: false }).redact(text);
const leaks = (text: string, needles: readonly string[]) =>
  needles.some((n) => {
    for (let i = 0; i + 8 <= n.length; i++) if (text.includes(n.slice(i, i + 8))) return true;
    return false;
  });

describe('the held-out secret corpus', () => {
  it('leaves no piece of any secret, plain or JSON-escaped', () => {
    const leaked = buildHeldoutCorpus().filter(
      (s) => leaks(redact(s.text), s.needles) || leaks(redact(JSON.stringify({ text: s.text })), s.needles),
    );
    assert.deepEqual(
      leaked.map((s) => s.name),
      [],
    );
  });

  it('keeps its look-alikes as they are', () => {
    for (const text of HELDOUT_LOOK_ALIKES) assert.equal(redact(text), text);
  });

  it('leaks no shape at any sink (the store, the title, the model request, settings env), main corpus and held-out', () => {
    for (const corpus of [buildCorpus(), buildHeldoutCorpus()]) {
      const leaked = sinkLeaks(corpus);
      assert.deepEqual(leaked, { store: [], title: [], 'model request': [], 'settings env': [] });
    }
  });
});
