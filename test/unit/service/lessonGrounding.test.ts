import assert from 'node:assert/strict';
import { unshownInSteps } from '../../../src/core/service/lessonGrounding';
import { assistant, makeTrace, shell, user } from '../../support/traces';

// What a reduce believes of a lesson read from a shard's file: only what the steps it cites show, as stored here.

describe('what a lesson prescribes against the steps it cites', () => {
  const trace = makeTrace('claude-code:dev-1', [
    user('the cart tests fail, fix them in src/cart.ts'),
    ...shell('pnpm test', 'PrismaClientInitializationError: client not generated', 1),
    ...shell('pnpm db:generate', 'Generated Prisma Client'),
    ...shell('TZ=UTC pnpm test src/orders/date.test.ts', '42 passed'),
    ...shell('uv sync', 'Resolved 12 packages'),
    assistant('Fixed: the client must be generated before the tests, and `RUST_MIN_STACK` was not needed.'),
  ]);

  it('shows the commands the cited steps ran, with placeholders standing for what the session wrote', () => {
    assert.deepEqual(unshownInSteps('Run `pnpm db:generate` before `pnpm test`.', trace, [1, 2, 3, 4]), []);
    assert.deepEqual(unshownInSteps('Run `TZ=UTC pnpm test <file>` for the date tests.', trace, [5, 6]), []);
    assert.deepEqual(unshownInSteps('Use uv for dependencies.', trace, [7]), []);
  });

  it('names what the cited steps do not show, even when another step of the session does', () => {
    assert.deepEqual(unshownInSteps('Run `pnpm db:generate` before `pnpm test`.', trace, [1, 2]), [
      '`pnpm db:generate`',
    ]);
    assert.deepEqual(unshownInSteps('Before pushing, run `npm publish --tag next`.', trace, [3, 4]), [
      '`npm publish --tag next`',
    ]);
    // a bare tool counts as a word of its own, not inside another
    assert.deepEqual(unshownInSteps('Use uv for dependencies.', trace, [1, 2]), ['`uv`']);
  });

  it('checks the files and names a lesson asks for, and what it rules out only when it asks for nothing', () => {
    assert.deepEqual(unshownInSteps('Keep `src/orders/date.test.ts` in UTC.', trace, [5]), []);
    assert.deepEqual(unshownInSteps('Add every change to `CHANGELOG.md`.', trace, [5, 6]), ['`CHANGELOG.md`']);
    assert.deepEqual(unshownInSteps('Set `NODE_OPTIONS` for the tests.', trace, [5, 6]), ['`node_options`']);
    assert.deepEqual(unshownInSteps('Use `pnpm db:generate`, never `RUST_MIN_STACK`.', trace, [3]), []);
    assert.deepEqual(unshownInSteps('Never set `RUST_MIN_STACK` for the tests.', trace, [9]), []);
    assert.deepEqual(unshownInSteps('Never set `RUST_MIN_STACK` for the tests.', trace, [0]), ['`rust_min_stack`']);
    assert.deepEqual(unshownInSteps('Never run `pnpm test` before pushing.', trace, [7, 8]), ['`pnpm test`']);
  });

  it('for a lesson naming no command, file or name, asks for its words', () => {
    assert.deepEqual(unshownInSteps('The cart tests fail until the Prisma client is generated.', trace, [0, 2]), []);
    assert.deepEqual(unshownInSteps('Always paste the environment into every pull request description.', trace, [0]), [
      'the words of its rule',
    ]);
  });

  it('a step number past the session shows nothing', () => {
    assert.deepEqual(unshownInSteps('Run `pnpm test`.', trace, [99]), ['`pnpm test`']);
  });
});
