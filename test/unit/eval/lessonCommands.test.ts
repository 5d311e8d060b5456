import assert from 'node:assert/strict';
import { lessonCommands, sameCommands } from '../../../src/core/eval/lessonCommands';

describe('one lesson in two wordings', () => {
  it('reads a command the text says fails as named but not the fix', () => {
    const read = lessonCommands(
      'Build the docs with `uv run --group docs mkdocs build`; plain `uv run mkdocs build` cannot find mkdocs.',
    );
    assert.deepEqual(read.fixes, [['uv', 'run', '--group', 'docs', 'mkdocs', 'build']]);
    assert.equal(read.named.length, 2);
    assert.deepEqual(lessonCommands('Run the tests with `TZ=UTC pnpm test`.').fixes, [['TZ=UTC', 'pnpm', 'test']]);
  });

  it('"when `a` fails, `b` resolves it", "run `b`, not `a`" and "use `b`; plain `a` cannot" are one lesson', () => {
    const lesson =
      "Run `uv run --group docs mkdocs build --strict`, not `uv run mkdocs build --strict`: the plain form fails with `error: Failed to spawn: 'mkdocs'`.";
    assert.ok(
      sameCommands(
        "When `uv run mkdocs build` fails with `error: Failed to spawn: 'mkdocs'`, `uv run --group docs mkdocs build` resolves it.",
        lesson,
      ),
    );
    assert.ok(
      sameCommands(
        'Build the docs with `uv run --group docs mkdocs build`; plain `uv run mkdocs build` cannot find mkdocs.',
        lesson,
      ),
    );
    assert.ok(
      !sameCommands('When `uv run --group docs mkdocs build` fails, `uv run mkdocs build` resolves it.', lesson),
      'the reverse',
    );
  });

  it('a rule naming the right form states the lesson that rules out the plain one, not the other way round', () => {
    const lesson = "Run `TZ=UTC pnpm test`, not `pnpm test`: the plain form fails with `expected '2026-11-04'`.";
    assert.ok(sameCommands('Run the tests with `TZ=UTC pnpm test`: the order date tests assume UTC.', lesson));
    assert.ok(!sameCommands('Run the tests with `pnpm test`.', lesson), 'the plain form is what it rules out');
    assert.ok(
      sameCommands(
        'Run the SVG example with `cargo run --example render_svg --features svg`.',
        "Run `cargo run --example render_svg --features svg`, not `cargo run --example render_svg`: the plain form fails with `error: target 'render_svg' requires the features: 'svg'`.",
      ),
    );
  });

  it('the same step before another command is another lesson; a bare tool name fixes nothing in particular', () => {
    const prereq =
      "Run `pnpm db:generate` before `pnpm test`: without it `pnpm test` fails with `Error: Cannot find module '.prisma/client/default'`.";
    assert.ok(sameCommands('Always `pnpm db:generate` first, then `pnpm test`.', prereq));
    assert.ok(!sameCommands('Run `pnpm db:generate` before `pnpm build`.', prereq));
    assert.ok(!sameCommands('This repo uses pnpm, never npm.', prereq));
    assert.ok(!sameCommands('Keep money in integer cents.', 'Keep money in integer cents.'), 'no command: no match');
  });
});
