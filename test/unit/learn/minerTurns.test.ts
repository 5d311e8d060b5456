import assert from 'node:assert/strict';
import { mineLessons } from '../../../src/core/llm/offline/miner';
import { emptyPlaybook } from '../../../src/core/playbook/markdown';
import { markBoilerplate } from '../../../src/core/trace/turns/boilerplate';
import { dialogue, traceOf } from '../trace/turns/steps';

// The offline miner takes conventions from what the turns are, not from the words "always" and "never".

const preferences = (trace: ReturnType<typeof traceOf>) =>
  mineLessons(trace, emptyPlaybook())
    .lessons.filter((l) => l.kind === 'preference')
    .map((l) => l.content);

describe('the offline miner reads turns by their place', () => {
  it('learns nothing from a reply to the agent’s question or from a bug report with "never" in it', () => {
    const trace = traceOf(
      'm1',
      dialogue([
        { user: 'The booking form is broken, so I can never change the date.' },
        { run: 'npm test' },
        { say: 'Should I also keep the old date format for the export?' },
        { user: 'It is ok' },
        { say: 'Do you want me to add a regression test?' },
        { user: 'No and no' },
      ]),
    );
    assert.deepEqual(preferences(trace), []);
  });

  it('learns a correction’s content from the turn after a contentless halt', () => {
    const trace = traceOf(
      'm2',
      dialogue([
        { user: 'Add the audit log.' },
        { run: 'npm install winston' },
        { user: 'no, wait' },
        { user: 'We log through src/log.ts here, never add a logging library.' },
        { run: 'git checkout package.json' },
      ]),
    );
    assert.deepEqual(preferences(trace), ['We log through src/log.ts here, never add a logging library.']);
  });

  it('never takes a persona pasted at the start of every session for the user’s convention', () => {
    const persona =
      'You are an expert engineer. You always write idiomatic code and you never leave a function without a test. Every answer you give is short, precise and explains its reasoning step by step.';
    const traces = [1, 2, 3].map((n) =>
      traceOf(`p${n}`, dialogue([{ user: `${persona}\n\nRename helper ${n}.` }, { run: 'rg helper' }])),
    );
    assert.ok(preferences(traces[0]).length > 0, 'read as the user, the persona would be a convention');
    for (const trace of markBoilerplate(traces).traces) assert.deepEqual(preferences(trace), []);
  });
});
