import assert from 'node:assert/strict';
import { groundingGap } from '../../../../src/core/service/learnRun/lessonGrounding';
import { assistant, makeTrace, shell, user } from '../../../../testing/traces';

// What a reduce believes of a lesson read from a shard's file: what the session, as stored here, shows of it.

describe('a lesson against the session and the steps it cites', () => {
  const trace = makeTrace('claude-code:dev-1', [
    user('the cart tests fail, fix them in src/cart.ts'),
    ...shell('pnpm test', 'PrismaClientInitializationError: client not generated', 1),
    ...shell('pnpm db:generate', 'Generated Prisma Client'),
    ...shell('TZ=UTC pnpm test src/orders/date.test.ts', '42 passed'),
    ...shell('uv sync', 'Resolved 12 packages'),
    assistant('Fixed: the client must be generated before the tests, and `RUST_MIN_STACK` was not needed.'),
  ]);
  const gap = (content: string, steps: number[]) => groundingGap(content, trace, steps);

  it('bears out what the cited steps ran, placeholders standing for what the session wrote', () => {
    assert.equal(gap('Run `pnpm db:generate` before `pnpm test`.', [3, 4]), undefined);
    assert.equal(gap('Run `TZ=UTC pnpm test <file>` for the date tests.', [5, 6]), undefined);
    assert.equal(gap('Use uv for dependencies.', [7]), undefined);
    assert.equal(gap('Keep `src/orders/date.test.ts` in UTC.', [5]), undefined);
  });

  it('doubts a command, file or name that is nowhere in the session, whatever else the cited steps show', () => {
    assert.equal(
      gap('Run `pnpm db:generate`, then `npm publish --tag next`.', [3, 4]),
      'session claude-code:dev-1 as stored here nowhere shows `npm publish --tag next`',
    );
    assert.equal(
      gap('Add every change to `CHANGELOG.md` after `pnpm test`.', [1, 2]),
      'session claude-code:dev-1 as stored here nowhere shows `CHANGELOG.md`',
    );
    assert.match(gap('Set `NODE_OPTIONS` for `pnpm test`.', [1, 2]) ?? '', /nowhere shows `node_options`/);
  });

  it('doubts a lesson whose cited steps show none of what it names, though the session does elsewhere', () => {
    assert.equal(
      gap('Run `pnpm db:generate` before `pnpm test`.', [7, 8]),
      'step(s) 7, 8 of session claude-code:dev-1 as stored here show none of `pnpm db:generate`, `pnpm test`',
    );
    // a bare tool counts as a word of its own, not inside another
    assert.match(gap('Use uv for dependencies.', [1, 2]) ?? '', /show none of `uv`/);
  });

  it('holds a lesson that only rules things out to what it rules out', () => {
    assert.equal(gap('Never set `RUST_MIN_STACK` for the tests.', [9]), undefined);
    assert.match(gap('Never set `RUST_MIN_STACK` for the tests.', [0]) ?? '', /show none of `rust_min_stack`/);
    assert.match(gap('Never run `pnpm test` before pushing.', [7, 8]) ?? '', /show none of `pnpm test`/);
  });

  it('holds a lesson naming nothing to its words, and a step past the session shows nothing', () => {
    assert.equal(gap('The cart tests fail until the Prisma client is generated.', [0, 2]), undefined);
    assert.match(gap('Always paste the environment into every pull request description.', [0]) ?? '', /do not bear on/);
    assert.match(gap('Run `pnpm test`.', [99]) ?? '', /step\(s\) 99 .* show none of `pnpm test`/);
  });
});
