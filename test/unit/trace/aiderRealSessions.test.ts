import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_READ_LIMITS } from '../../../src/core/import/limits';
import type { Trace } from '../../../src/core/trace/model';
import { realCorpus, realCorpusMissing } from '../../../testing/realSessions';
import { discoverSessions, importFile } from '../../support/importFiles';

// Fidelity on real Aider histories: what import stored against counts a minimal reader of its own takes from the raw
// Markdown, by the line shapes Aider's io.py writes (input and notices end in two spaces).

interface Counts {
  sessions: number;
  userMessages: number;
  toolCalls: number;
  edits: number;
  commits: number;
  undos: number;
}

const PROMPT = /\(Y\)es\/\(N\)o.*\[[^\]]*\]: ?\S*\s*$/;

/** Counts from the raw file: its sections, `#### ` input blocks, and Aider's edit, commit and run lines. */
function rawCounts(text: string): Counts {
  const counts: Counts = { sessions: 0, userMessages: 0, toolCalls: 0, edits: 0, commits: 0, undos: 0 };
  for (const section of text.split(/^# aider chat started at .*$/m).slice(1)) {
    let active = false;
    let inInput = false;
    for (const line of section.split(/\r?\n/)) {
      const input = line.startsWith('#### ') && line.endsWith('  ') && !PROMPT.test(line);
      if (input && !inInput) {
        counts.userMessages++;
        if (/^#### \/undo\s*$/.test(line)) counts.undos++;
        if (/^#### (?:!|\/run |\/test |\/git )/.test(line)) counts.toolCalls++;
      }
      inInput = input;
      if (input) active = true;
      else if (line.startsWith('> Applied edit to ')) counts.edits++;
      else if (/^> Commit [0-9a-f]{7,40} /.test(line)) counts.commits++;
      else if (/^> (?:## )?Running:? /.test(line)) counts.toolCalls++;
      else if (line.trim() !== '' && !line.startsWith('>') && !line.startsWith('####')) active = true;
    }
    if (active || /^> (?:Applied edit to|Commit [0-9a-f]{7,40}) /m.test(section)) counts.sessions++;
  }
  counts.toolCalls += counts.edits + counts.commits;
  return counts;
}

/** The same counts from what import stored. */
function storedCounts(traces: Trace[]): Counts {
  const counts: Counts = { sessions: 0, userMessages: 0, toolCalls: 0, edits: 0, commits: 0, undos: 0 };
  for (const trace of traces) {
    const acted = trace.steps.some(
      (s) => (s.kind === 'user' && !s.confirmation) || s.kind === 'assistant' || s.kind === 'tool_call',
    );
    if (acted) counts.sessions++;
    for (const step of trace.steps) {
      if (step.kind === 'user' && !step.confirmation) counts.userMessages++;
      if (step.kind === 'user' && step.undo) counts.undos++;
      if (step.kind !== 'tool_call') continue;
      counts.toolCalls++;
      if (step.tool === 'edit') counts.edits++;
      if (step.tool === 'git commit') counts.commits++;
    }
  }
  return counts;
}

for (const corpus of ['monochromatic-aider', 'mozgoslav-aider']) {
  describe(`Aider real sessions: ${corpus}`, () => {
    const dir = realCorpus(corpus);
    before(function () {
      if (!dir) {
        console.log(`      ${realCorpusMissing(corpus)}`);
        this.skip();
      }
    });

    it('imports with the counts of the raw history', async () => {
      const files = await discoverSessions(dir!);
      assert.equal(files.length, 1);
      assert.equal(files[0].agent, 'aider');
      const { traces, warnings } = await importFile(files[0], DEFAULT_READ_LIMITS, {});
      assert.deepEqual(warnings, []);
      const raw = rawCounts(readFileSync(join(dir!, '.aider.chat.history.md'), 'utf8'));
      assert.ok(raw.edits > 0 && raw.commits > 0, 'the history holds edits and commits');
      assert.deepEqual(storedCounts(traces), raw);
      // every edit's result says it succeeded, and names the file the call does
      for (const trace of traces)
        for (const step of trace.steps) {
          if (step.kind !== 'tool_call' || step.tool !== 'edit') continue;
          const result = trace.steps.find((s) => s.kind === 'tool_result' && s.callId === step.callId);
          const file = (JSON.parse(step.input) as { file_path: string }).file_path;
          assert.ok(result?.kind === 'tool_result' && !result.isError && result.output.endsWith(file));
        }
    });
  });
}
