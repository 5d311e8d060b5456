import assert from 'node:assert/strict';
import { join } from 'node:path';
import { secretFileKind } from '../../../src/core/secrets/secretFiles';
import type { Step, TraceDraft } from '../../../src/core/trace/model';
import { normalizeTrace } from '../../../src/core/trace/normalize';
import { createRedactor } from '../../../src/core/trace/redact';
import { storedOutput } from '../../../src/core/trace/sources/common';
import { fromPortable } from '../../../src/core/team/portable';
import { importSessions } from '../../../src/core/import/importer';
import { TraceStore } from '../../../src/core/store/traceStore';
import { writeClaudeSession } from '../../../testing/claudeSessions';
import { buildSecretFiles, NOT_SECRET_FILES, type SecretFile } from '../../../testing/secretFileCorpus';
import { tempDir } from '../../../testing/tmp';

const files = buildSecretFiles();

function leaks(text: string, needles: readonly string[]): string[] {
  const found: string[] = [];
  for (const needle of needles)
    for (let i = 0; i + 8 <= needle.length; i++) if (text.includes(needle.slice(i, i + 8))) found.push(needle);
  return [...new Set(found)];
}

function draft(steps: Step[]): TraceDraft {
  return {
    id: 'claude-code:secret-files',
    agent: 'claude-code',
    source: { path: 'x.jsonl', bytes: 1 },
    steps,
    unknown: {},
    warnings: [],
  };
}

let n = 0;
/** A Write of the file, a Read of it and a shell `cat` of it, each with its result. */
function stepsFor(file: SecretFile): Step[] {
  const id = () => `call_${++n}`;
  const [write, read, cat] = [id(), id(), id()];
  return [
    {
      index: 0,
      kind: 'tool_call',
      callId: write,
      tool: 'Write',
      input: JSON.stringify({ file_path: file.path, content: file.content }),
    },
    { index: 1, kind: 'tool_result', callId: write, output: 'File created successfully', isError: false },
    { index: 2, kind: 'tool_call', callId: read, tool: 'Read', input: JSON.stringify({ file_path: file.path }) },
    {
      index: 3,
      kind: 'tool_result',
      callId: read,
      output: file.content
        .split('\n')
        .map((line, i) => `${String(i + 1).padStart(6)}→${line}`)
        .join('\n'),
      isError: false,
    },
    {
      index: 4,
      kind: 'tool_call',
      callId: cat,
      tool: 'Bash',
      command: `cat ${file.path}`,
      input: JSON.stringify({ command: `cat ${file.path}` }),
    },
    { index: 5, kind: 'tool_result', callId: cat, output: file.content, isError: false },
  ];
}

describe('secret-bearing files', () => {
  it('are known by their names, and source code, docs and public keys are not', () => {
    for (const file of files) assert.ok(secretFileKind(file.path), file.path);
    for (const path of ['.env', '.env.local', 'prod.env', 'aws/credentials', 'client_secret_123.json', '~/.ssh/id_rsa'])
      assert.ok(secretFileKind(path), path);
    for (const { path } of NOT_SECRET_FILES) assert.equal(secretFileKind(path), undefined, path);
    for (const path of ['src/env.ts', 'README.md', 'tokens.css', 'package.json', 'environment.yml'])
      assert.equal(secretFileKind(path), undefined, path);
  });

  it('written, read and printed: every bare random value is redacted whole, look-alikes are kept', () => {
    for (const file of files) {
      const trace = normalizeTrace(draft(stepsFor(file)), createRedactor({ homePaths: false }));
      const text = JSON.stringify(trace.steps);
      assert.deepEqual(leaks(text, file.needles), [], `${file.path}: ${text.slice(0, 600)}`);
      assert.match(text, /\[REDACTED:secret-file-value\]/, file.path);
      // the Read output keeps its other lines as they were (the content is JSON-escaped in the Write input)
      const output = (trace.steps[5] as Extract<Step, { kind: 'tool_result' }>).output;
      for (const keep of file.keep) assert.ok(output.includes(keep), `${file.path} lost ${keep}: ${output}`);
      assert.ok(trace.redactions >= 3, `${file.path}: ${trace.redactions} redactions`);
    }
  });

  it('the same values in any other file are kept (the name is what makes them secrets)', () => {
    for (const file of [...files.map((f) => ({ ...f, path: 'notes/values.txt' })), ...NOT_SECRET_FILES]) {
      const steps = stepsFor({ ...file, needles: [], keep: [] });
      const trace = normalizeTrace(draft(steps), createRedactor({ homePaths: false }));
      assert.doesNotMatch(JSON.stringify(trace.steps), /secret-file-value/, file.path);
    }
  });

  it('a patch redacts the sections of secret-bearing files only', () => {
    const file = files[0];
    const patch = [
      '*** Begin Patch',
      '*** Update File: src/ids.ts',
      '+export const SEED = "Xk29fLq8ZpW3vRt7aaQ1bCdEfGh";',
      `*** Add File: ${file.path}`,
      ...file.content.split('\n').map((l) => `+${l}`),
      '*** End Patch',
    ].join('\n');
    for (const input of [patch, JSON.stringify({ input: patch })]) {
      const trace = normalizeTrace(
        draft([{ index: 0, kind: 'tool_call', callId: 'p', tool: 'apply_patch', input }]),
        createRedactor({ homePaths: false }),
      );
      const text = (trace.steps[0] as Extract<Step, { kind: 'tool_call' }>).input;
      assert.deepEqual(leaks(text, file.needles), []);
      assert.ok(text.includes('Xk29fLq8ZpW3vRt7aaQ1bCdEfGh'), 'the source file keeps its value');
      for (const keep of file.keep) assert.ok(text.includes(keep.split('=')[0]), keep);
    }
    const diff = `diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -1 +1 @@\n-UPSTREAM=old\n+UPSTREAM=${file.needles[0]}\n`;
    const trace = normalizeTrace(
      draft([{ index: 0, kind: 'tool_call', callId: 'd', tool: 'Bash', command: 'git diff', input: diff }]),
      createRedactor({ homePaths: false }),
    );
    assert.deepEqual(leaks(JSON.stringify(trace.steps), [file.needles[0]]), []);
  });

  it('a long output of a secret-bearing file, cut where it is stored, keeps no piece of a value near either cut', () => {
    const file = files[0];
    const line = (i: number) => `LINE_${i}=value-${i}\n`;
    for (const at of [3180, 3190, 3200, 16_000 - 4780, 16_000 - 4770]) {
      let body = '';
      for (let i = 0; body.length < at; i++) body += line(i);
      const whole = `${body}UPSTREAM=${file.needles[2]}\n${Array.from({ length: 900 }, (_, i) => line(i)).join('')}`;
      const stored = storedOutput(whole, 8000);
      const trace = normalizeTrace(
        draft([
          { index: 0, kind: 'tool_call', callId: 'c', tool: 'Read', input: JSON.stringify({ file_path: file.path }) },
          { index: 1, kind: 'tool_result', callId: 'c', isError: false, ...stored },
        ]),
        createRedactor({ homePaths: false }),
      );
      assert.deepEqual(leaks(JSON.stringify(trace.steps), [file.needles[2]]), [], `cut near ${at}`);
    }
  });

  it('a team bundle cannot bring them back: a bundle session is redacted as such a file again on import', () => {
    const file = files[0];
    const trace = {
      ...draft(stepsFor(file)),
      schemaVersion: 1 as const,
      outcome: { toolErrors: 0, testRuns: { passed: 0, failed: 0 }, userCorrections: 0, interrupted: false },
      redactions: 0,
    };
    const redactor = createRedactor({ homePaths: false });
    const imported = fromPortable(trace, {
      workspace: tempDir('combee-bundle-ws-'),
      contributor: 'alice',
      redactor,
      warn: () => {},
    });
    assert.deepEqual(leaks(JSON.stringify(imported), file.needles), []);
    assert.ok(imported.redactions >= 3);
  });

  it('end to end: a Claude Code session that prints secret-bearing files stores none of their values', async () => {
    const root = tempDir('combee-secret-files-');
    const home = join(root, '.claude');
    writeClaudeSession(
      home,
      '5ec7f11e-0000-4000-8000-000000000001',
      join(root, 'shop'),
      files.map((f) => ({ bash: { command: `cat ${f.path}`, output: f.content } })),
    );
    const store = new TraceStore(join(root, 'store'));
    await importSessions({ from: home, store, redaction: {} });
    const trace = await store.loadTrace('claude-code:5ec7f11e-0000-4000-8000-000000000001');
    assert.ok(trace);
    const text = JSON.stringify(trace);
    for (const file of files) assert.deepEqual(leaks(text, file.needles), [], file.path);
    assert.ok(text.includes('NODE_ENV=production') && text.includes('9fceb02d0ae598e95dc970b74767f19372d61af8'));
  });
});
