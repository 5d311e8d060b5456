import assert from 'node:assert/strict';
import { aggregateOffline } from '../../../src/core/llm/offline/aggregator';
import { limitOf } from '../../../src/core/llm/offline/environmentLimits';
import { mineLessons } from '../../../src/core/llm/offline/miner';
import { emptyPlaybook, parsePlaybook } from '../../../src/core/playbook/markdown';
import { makeTrace, shell, user } from '../../../testing/traces';

type StepInput = Parameters<typeof makeTrace>[1][number];

// What the environment cannot do: a command failing for want of a login or a network, never working in the session,
// in two sessions the same way. Never a check, never a line of several commands, never what the session then fixed.

const reflectionOf = (id: string, steps: StepInput[]) =>
  mineLessons(makeTrace(id, steps, { cwd: '/home/dev/shop' }), emptyPlaybook());
const limits = (steps: StepInput[]) => reflectionOf('t', steps).lessons.filter((l) => l.key?.startsWith('limit:'));

const NOT_LOGGED_IN = 'You are not logged in to any hosts. Run `hub login` first.';

describe('offline miner: what the environment cannot do', () => {
  it('reads a missing login or network from the failure, not from a passing remark', () => {
    assert.equal(limitOf(NOT_LOGGED_IN), 'login');
    assert.equal(limitOf('error: token for registry.acme.dev has expired'), 'login');
    assert.equal(
      limitOf("fatal: unable to access 'https://git.acme.dev/shop.git/': Could not resolve host"),
      'network',
    );
    assert.equal(limitOf('npm notice Access token expired or revoked.\nnpm error 404 Not Found'), undefined);
    assert.equal(limitOf('error: expected 3, received 2'), undefined);
  });

  it('a command failing for want of a login and never working is a lesson asked of two sessions', () => {
    const [lesson, ...rest] = limits([
      user('Open a pull request for this branch.'),
      ...shell('hub auth status', NOT_LOGGED_IN, 1),
      ...shell('hub auth status', NOT_LOGGED_IN, 1),
    ]);
    assert.equal(rest.length, 0);
    assert.equal(
      lesson?.content,
      '`hub auth status` fails here for want of a login (it failed so in every session that ran it): ask the user ' +
        'to authenticate instead of retrying.',
    );
    assert.equal(lesson?.minSupport, 2);
  });

  it('no lesson when it worked in the session, for a check, for a line of several commands, or for another error', () => {
    assert.deepEqual(
      limits([...shell('hub auth status', NOT_LOGGED_IN, 1), ...shell('hub auth status', 'Logged in as dev')]),
      [],
    );
    assert.deepEqual(limits(shell('npm test', 'GET /api/cart 401 Unauthorized\n1 failing', 1)), []);
    assert.deepEqual(limits(shell('hub auth status || hub auth login', NOT_LOGGED_IN, 1)), []);
    assert.deepEqual(limits(shell('hub pr create', 'error: no commits between main and main', 1)), []);
  });

  it('two sessions failing the same way support one rule', () => {
    const sessions = ['a', 'b'].map((id) =>
      reflectionOf(id, [
        user('Publish the release.'),
        ...shell('git fetch origin', 'Could not resolve host: git.acme.dev', 128),
      ]),
    );
    const { delta } = aggregateOffline({ level: 'single', reflections: sessions, deltas: [] }, parsePlaybook(''));
    const rules = delta.ops.filter((o) => o.op === 'ADD' && o.key?.startsWith('limit:'));
    assert.equal(rules.length, 1);
    assert.equal(rules[0].support.length, 2);
    assert.match(rules[0].op === 'ADD' ? rules[0].content : '', /^`git fetch` cannot reach the network here/);
  });
});
