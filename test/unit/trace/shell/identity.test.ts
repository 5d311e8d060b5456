import assert from 'node:assert/strict';
import { exitIsAnswer, identities, identityKey, parseLine, runsRuleCommand } from '../../../../src/core/trace/shell';

// Command lines read by the bash parser into invocations and identities by the tools' grammars.

const keys = (line: string, workdir?: string) => identities(line, workdir).map(identityKey);

describe('shell invocations and identities', () => {
  it('peels wrappers and keeps launchers, by the tool grammar', () => {
    assert.deepEqual(keys('cd app && NODE_ENV=test npx jest -t "adds tax" src/cart.test.ts'), ['npx jest']);
    assert.deepEqual(keys('sudo -u dev timeout 60 npm i -D vitest'), ['npm install']);
    assert.deepEqual(keys('uv run pytest -k cart tests/'), ['uv run pytest']);
    assert.deepEqual(keys('poetry run python -m pytest -x'), ['poetry run python -m pytest']);
    assert.deepEqual(keys('pnpm --filter web build'), ['pnpm run build']);
    assert.deepEqual(keys('yarn workspace api test'), ['yarn run test']);
    assert.deepEqual(keys('./mvnw -pl core clean install -DskipTests'), ['mvnw clean install']);
    assert.deepEqual(keys('./gradlew :app:test --tests Foo'), ['gradlew :app:test']);
    assert.deepEqual(keys('tox -e lint'), ['tox -e=lint']);
    assert.deepEqual(keys('docker compose up -d'), ['docker compose up']);
  });

  it('keeps make targets, npm scripts and cargo targets distinct', () => {
    assert.notEqual(keys('make gen-001')[0], keys('make gen-002')[0]);
    assert.notEqual(keys('npm run build')[0], keys('npm run lint')[0]);
    assert.notEqual(keys('cargo run --bin api')[0], keys('cargo run --bin worker')[0]);
    assert.equal(keys('npm test')[0], keys('npm run test')[0]);
    assert.equal(keys('make -C services/a gen-001')[0], 'make gen-001');
  });

  it('reads heredoc bodies and quoted strings as data, substitutions as commands', () => {
    assert.deepEqual(keys('cat <<EOF > notes.md\nnpm install\nEOF'), ['cat']);
    assert.deepEqual(keys('echo "npm install"'), ['echo']);
    assert.deepEqual(keys('echo "$(git status)"'), ['echo', 'git status']);
  });

  it('places each command in its folder: the call’s workdir, moved by cd', () => {
    const [id] = identities('cd web && npm test', '/home/dev/shop');
    assert.equal(id.cwd, '/home/dev/shop/web');
    assert.equal(identities('npm test', '/home/dev/shop')[0].cwd, '/home/dev/shop');
    assert.equal(identities('(cd web && npm ci); npm test', '/r')[1].cwd, '/r');
    assert.ok(runsRuleCommand('npm test', 'cd web && npm test', '/home/dev/shop/web'));
    assert.ok(!runsRuleCommand('npm test', 'cd web && npm test', '/home/dev/shop'));
  });

  it('claims nothing from a line it cannot parse', () => {
    const parsed = parseLine('npm install "unterminated');
    assert.deepEqual(parsed, { commands: [], unparsed: true });
    assert.deepEqual(keys('npm install "unterminated'), []);
  });

  it('reads an exit status by what the tool means by it', () => {
    assert.ok(exitIsAnswer('rg -n TODO src', 1));
    assert.ok(exitIsAnswer('cd api && grep -r foo .', 1));
    assert.ok(exitIsAnswer('diff a.txt b.txt', 1));
    assert.ok(exitIsAnswer('[ -f .env ]', 1));
    assert.ok(exitIsAnswer('git diff --exit-code', 1));
    assert.ok(exitIsAnswer('which python', 1));
    assert.ok(!exitIsAnswer('git diff', 1));
    assert.ok(!exitIsAnswer('rg foo', 2));
    assert.ok(!exitIsAnswer('npm test', 1));
    assert.ok(!exitIsAnswer('rg foo | wc -l', 1));
  });
});
