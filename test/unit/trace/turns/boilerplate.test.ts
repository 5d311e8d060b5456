import assert from 'node:assert/strict';
import { findBoilerplate, markBoilerplate } from '../../../../src/core/trace/turns/boilerplate';
import { dialogue, traceOf } from './steps';

// A persona prompt the harness pastes before every opening message: context, never the user's lesson.
const PERSONA =
  'You are a senior engineer on the payments team. You always write careful, well-tested code, you never skip a review, and you explain each change in plain words before you make it.';

const session = (id: string, ask: string) =>
  traceOf(id, dialogue([{ user: `${PERSONA}\n\n${ask}` }, { say: 'On it.' }]));

describe('boilerplate across a run’s sessions', () => {
  const traces = [
    session('s1', 'Add paging to the invoice list.'),
    session('s2', 'Fix the rounding in the VAT report.'),
    session('s3', 'Rename Customer to Account.'),
    traceOf('s4', dialogue([{ user: 'Always run make check before pushing.' }])),
  ];

  it('finds a long paragraph that opens three sessions', () => {
    const found = findBoilerplate(traces);
    assert.equal(found.paragraphs.size + found.prefixes.length > 0, true);
  });

  it('cuts it out of the messages and keeps the user’s own words', () => {
    const { traces: marked, marked: count } = markBoilerplate(traces);
    assert.equal(count, 3);
    const first = marked[0].steps[0];
    assert.equal(first.kind === 'user' && first.text, 'Add paging to the invoice list.');
    assert.deepEqual(marked[3], traces[3]);
  });

  it('marks a message that is nothing but boilerplate as not the user’s words', () => {
    const only = [1, 2, 3].map((n) => traceOf(`p${n}`, dialogue([{ user: PERSONA }, { user: `task ${n}` }])));
    const { traces: marked } = markBoilerplate(only);
    for (const trace of marked) assert.equal(trace.steps[0].kind === 'user' && trace.steps[0].isMeta, true);
  });

  it('leaves a short line a user types in each session alone, and two sessions are not enough', () => {
    const short = [1, 2, 3, 4].map((n) => traceOf(`q${n}`, dialogue([{ user: 'Run the tests first.' }])));
    assert.equal(markBoilerplate(short).marked, 0);
    assert.equal(markBoilerplate(traces.slice(0, 2)).marked, 0);
  });
});
