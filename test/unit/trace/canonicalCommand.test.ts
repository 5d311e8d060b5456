import assert from 'node:assert/strict';
import { canonicalCommand } from '../../../src/core/trace/canonicalCommand';
import { classifyCommand } from '../../../src/core/trace/commands';

describe('the general form of a command', () => {
  const cases: Array<[string, string]> = [
    ['pnpm vitest run src/cart/total.test.ts', 'pnpm vitest run'],
    ['TZ=UTC pnpm vitest run src/cart -t "adds tax"', 'TZ=UTC pnpm vitest run'],
    ['pnpm test -- src/cart.test.ts', 'pnpm test'],
    ['pnpm test cart', 'pnpm test'],
    ['pnpm --filter web test', 'pnpm --filter web test'],
    ['npm run test:unit -- --grep checkout', 'npm run test:unit'],
    ['npx jest src/a.test.ts --runInBand', 'npx jest --runInBand'],
    ['pytest tests/test_ledger.py::test_balance -x', 'pytest -x'],
    ['uv run pytest tests/test_api.py -k refund', 'uv run pytest'],
    ['python -m pytest tests/', 'python -m pytest'],
    ['cargo test parser::tests::parses_header', 'cargo test'],
    ['cargo test -p tiles-core render_tile -- --nocapture', 'cargo test -p tiles-core -- --nocapture'],
    ['cargo test --features simd', 'cargo test --features simd'],
    ['go test ./internal/cache -run TestTTL', 'go test ./...'],
    ['go test ./...', 'go test ./...'],
    ['make test', 'make test'],
    ['pnpm eslint src/cart.ts', 'pnpm eslint'],
    ['pnpm tsc --noEmit', 'pnpm tsc --noEmit'],
  ];
  for (const [command, general] of cases)
    it(`${command} → ${general}`, () => assert.equal(canonicalCommand(command), general));

  it('leaves what a command does alone when it is not a check', () => {
    assert.equal(canonicalCommand('pnpm add lodash-es'), 'pnpm add lodash-es');
    assert.equal(canonicalCommand('make release VERSION=1.2'), 'make release VERSION=1.2');
    assert.equal(canonicalCommand('pnpm test | tee out.log'), 'pnpm test | tee out.log');
  });
});

describe('the general form of a run', () => {
  it('drops the data file a run was given, keeps the program and its flags', () => {
    assert.equal(
      canonicalCommand('cargo run --example render_svg --features svg examples/maps/hex.tmx'),
      'cargo run --example render_svg --features svg',
    );
    assert.equal(canonicalCommand('uv run python scripts/load.py data/batch.csv'), 'uv run python scripts/load.py');
    assert.equal(canonicalCommand('python app/main.py'), 'python app/main.py');
  });
});

describe('the general form keeps what a flag is given', () => {
  it('keeps a quoted flag value, drops a quoted test name', () => {
    assert.equal(canonicalCommand('pnpm test --env "NODE_ENV=ci" src/a.test.ts'), 'pnpm test --env "NODE_ENV=ci"');
    assert.equal(canonicalCommand('pnpm vitest run "cart total"'), 'pnpm vitest run');
  });
});

describe('the general form of a commit and of a formatter', () => {
  it('drops the commit message and the file a formatter was given', () => {
    assert.equal(canonicalCommand('git commit -am "Add GET /credit-notes"'), 'git commit -a');
    assert.equal(canonicalCommand("git commit -m 'wip' --no-verify"), 'git commit --no-verify');
    assert.equal(canonicalCommand('rustfmt src/loader.rs'), 'rustfmt');
    assert.equal(canonicalCommand('npx prettier --write src/a.ts'), 'npx prettier --write');
  });
});

describe('the general form keeps a tool sub-command', () => {
  it('keeps `cargo fmt` and `go vet`, drops a test name after them', () => {
    assert.equal(canonicalCommand('cargo fmt --all'), 'cargo fmt --all');
    assert.equal(canonicalCommand('go vet ./internal/relay'), 'go vet ./...');
    assert.equal(canonicalCommand('cargo clippy -- -D warnings'), 'cargo clippy -- -D warnings');
  });
});

describe('the general form through a runner', () => {
  it('keeps the sub-command of a tool run through the project runner', () => {
    assert.equal(canonicalCommand('uv run ruff format app/billing.py'), 'uv run ruff format');
    assert.equal(canonicalCommand('uv run ruff check --fix app/'), 'uv run ruff check --fix');
  });
});

describe('the general form in other ecosystems', () => {
  it('reads Gradle, Rails, Bundler and Mix the same way', () => {
    assert.equal(canonicalCommand('./gradlew test --tests "OrderServiceTest"'), './gradlew test');
    assert.equal(canonicalCommand('bundle exec rspec spec/models/account_spec.rb'), 'bundle exec rspec');
    assert.equal(canonicalCommand('bundle exec rubocop -a app/models'), 'bundle exec rubocop -a');
    assert.equal(canonicalCommand('bin/rails test test/models/invoice_test.rb'), 'bin/rails test');
    assert.equal(canonicalCommand('mix test test/courier/track_test.exs'), 'mix test');
  });
});

describe('what a command is for', () => {
  it('reads a task named db:test:prepare as no test run, and test:unit as one', () => {
    assert.equal(classifyCommand('bin/rails db:test:prepare'), 'other');
    assert.equal(classifyCommand('pnpm test:unit'), 'test');
  });
});
