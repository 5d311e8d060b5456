import assert from 'node:assert/strict';
import { callSecretFile } from '../../../src/core/trace/secretFileSteps';

const shell = (command: string) => callSecretFile('Bash', JSON.stringify({ command }), command);

describe('which files a shell command touches, for secret-bearing files', () => {
  it('reads a heredoc body as data: words in it name no file', () => {
    assert.equal(shell("cat > docs/story.md <<'EOF'\nKeep the [token] out of .env and coffre/secret\nEOF"), undefined);
    assert.equal(shell("python - <<'PY'\nopen('.env').read()\nPY"), undefined);
  });

  it('reads an argument with spaces as a message, not a path', () => {
    assert.equal(shell('git commit -m "load .env before the token refresh"'), undefined);
    assert.equal(shell('echo "secret" > notes.txt'), undefined);
  });

  it('still finds the files a command names: arguments, redirections, flag values, quoted paths, sh -c scripts', () => {
    assert.equal(shell('cat .env'), 'values');
    assert.equal(shell('cp .env.example .env && ls'), 'values');
    assert.equal(shell('printf "A=1" > config/.npmrc'), 'values');
    assert.equal(shell('docker run --env-file=prod.env app'), 'values');
    assert.equal(shell('cat "/srv/My Documents/.env"'), 'values');
    assert.equal(shell("bash -lc 'cat .env | head'"), 'values');
    assert.equal(shell('cat <<EOF > .env\nA=1\nEOF'), 'values');
  });

  it('reads the command of a shell tool whose input is JSON (a string or an argv)', () => {
    assert.equal(
      callSecretFile('shell', JSON.stringify({ command: ['bash', '-lc', 'cat .env'] }), undefined),
      'values',
    );
    assert.equal(callSecretFile('shell', JSON.stringify({ command: 'cat ~/.netrc' }), undefined), 'netrc');
    assert.equal(callSecretFile('shell', JSON.stringify({ command: 'cat README.md' }), undefined), undefined);
  });
});
