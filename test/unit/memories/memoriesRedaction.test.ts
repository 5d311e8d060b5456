import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { saveRedactionPatterns } from '../../../src/core/store/redactionPatterns';
import { TraceStore } from '../../../src/core/store/traceStore';
import { capture } from '../../../testing/cliOutput';
import { tempDir } from '../../../testing/tmp';
import { memorySessions, writeMemoryFolders } from './fixtures';

// The CLI reads the agents' memories redacted as it imports sessions: the user's own patterns (recorded in the store
// by the extension, and --redact-pattern) remove what no built-in rule knows.

/** An in-house ticket id and employee number: only the user's patterns remove them. */
const TICKET = 'ACME-INTERNAL-7731';
const EMPLOYEE = 'E-99812';
const LINT = `Run \`pnpm eslint .\` to lint before committing (${TICKET}, asked by ${EMPLOYEE}).`;

async function setUp() {
  const root = tempDir('combee-memories-redact-');
  const { home, workspace } = writeMemoryFolders(root);
  // this project's memory, borne out by a session: proposed by learn, listed by memories
  writeFileSync(join(home, '.codex', 'memories', 'MEMORY.md'), `## acme-shop\n\n- ${LINT}\n`);
  writeFileSync(join(home, '.codex', 'memories', 'memory_summary.md'), '');
  const storeDir = join(root, 'store');
  const store = new TraceStore(storeDir);
  for (const trace of memorySessions(workspace)) await store.saveTrace(trace);
  return { home, workspace, storeDir };
}

/** Every file's bytes under the store. */
const storeText = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f, 'latin1'))
    .join('\n');

describe("the CLI applies the user's redaction patterns to the agents' memories", () => {
  const saved = { HOME: process.env.HOME, CODEX_HOME: process.env.CODEX_HOME };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  });

  it('combee learn: the recorded patterns and --redact-pattern, in the proposal, the store and the output', async function () {
    this.timeout(60_000);
    const { home, workspace, storeDir } = await setUp();
    process.env.HOME = home;
    delete process.env.CODEX_HOME;
    await saveRedactionPatterns(storeDir, ['ACME-INTERNAL-\\d+']);
    const out = capture();
    const argv = ['learn', '--workspace', workspace, '--store', storeDir, '--provider', 'offline', '--json'];
    assert.equal(await runCli([...argv, '--redact-pattern', 'E-\\d{5}'], out), 0);
    const printed = out.stdout.join('\n');
    const proposal = JSON.parse(printed).proposal as { rules: Array<{ content?: string; source?: unknown }> };
    const fromMemory = proposal.rules.filter((r) => r.source !== undefined);
    assert.equal(fromMemory.length, 1, printed);
    assert.match(fromMemory[0].content ?? '', /^Run `pnpm eslint \.` to lint before committing/);
    for (const text of [printed, out.stderr.join('\n'), storeText(storeDir)]) {
      assert.ok(!text.includes(TICKET), 'the recorded pattern');
      assert.ok(!text.includes(EMPLOYEE), 'the command line pattern');
    }
  });

  it('combee memories: the same patterns', async () => {
    const { home, workspace, storeDir } = await setUp();
    process.env.HOME = home;
    delete process.env.CODEX_HOME;
    await saveRedactionPatterns(storeDir, ['ACME-INTERNAL-\\d+']);
    const out = capture();
    const argv = ['memories', '--workspace', workspace, '--store', storeDir, '--json'];
    assert.equal(await runCli([...argv, '--redact-pattern', 'E-\\d{5}'], out), 0);
    const listed = out.stdout.join('\n');
    assert.match(listed, /pnpm eslint/);
    assert.ok(!listed.includes(TICKET) && !listed.includes(EMPLOYEE), listed);
  });
});
