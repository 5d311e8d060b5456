import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { saveRedactionPatterns } from '../../../src/core/store/redactionPatterns';
import { TraceStore } from '../../../src/core/store/traceStore';
import { writeClaudeSession } from '../../../testing/claudeSessions';
import { capture } from '../../../testing/cliOutput';
import { tempDir } from '../../../testing/tmp';

/** Every file's bytes under the store, and every stored session as read back. */
async function storeText(dir: string): Promise<string> {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f, 'latin1'));
  const store = new TraceStore(dir);
  const summaries = await store.listSummaries();
  assert.ok(summaries.length > 0);
  const traces = await Promise.all(summaries.map((s) => store.loadTrace(s.id)));
  return [...files, JSON.stringify(summaries), JSON.stringify(traces)].join('\n');
}

/** An in-house ticket id and employee number no built-in rule knows: only the user's patterns remove them. */
function session(root: string): string {
  const home = join(root, '.claude');
  writeClaudeSession(home, '66666666-aaaa-4bbb-8ccc-000000000001', '/home/dev/shop', [
    { user: 'deploy ticket ACME-INTERNAL-7731 for employee E-99812' },
    { bash: { command: 'echo ACME-INTERNAL-7731', output: 'E-99812 ok' } },
  ]);
  return home;
}

describe("combee import applies the user's redaction patterns", () => {
  it('--redact-pattern (repeatable) removes what it matches from everything stored', async () => {
    const root = tempDir('combee-cli-redact-');
    const home = session(root);
    const store = join(root, 'store');
    const out = capture();
    const argv = ['import', '--from', home, '--store', store, '--json'];
    argv.push('--redact-pattern', 'ACME-INTERNAL-\\d+', '--redact-pattern', 'E-\\d{5}');
    assert.equal(await runCli(argv, out), 0);
    const text = await storeText(store);
    assert.doesNotMatch(text, /ACME-INTERNAL-7731|E-99812/);
    assert.ok(JSON.parse(out.stdout.join('\n')).redactions >= 4);
  });

  it("the patterns the extension recorded in the shared store, with the command line's added", async () => {
    const root = tempDir('combee-cli-redact-store-');
    const home = session(root);
    const store = join(root, 'store');
    await saveRedactionPatterns(store, ['ACME-INTERNAL-\\d+']);
    const argv = ['import', '--from', home, '--store', store, '--redact-pattern', 'E-\\d{5}'];
    assert.equal(await runCli(argv, capture()), 0);
    assert.doesNotMatch(await storeText(store), /ACME-INTERNAL-7731|E-99812/);
  });

  it('an invalid pattern is a warning and the import goes on', async () => {
    const root = tempDir('combee-cli-redact-bad-');
    const home = session(root);
    const out = capture();
    const argv = ['import', '--from', home, '--store', join(root, 'store'), '--redact-pattern', '(a)\\1'];
    assert.equal(await runCli(argv, out), 0);
    assert.match(out.stderr.join('\n'), /backreferences cannot run in linear time/);
  });
});
