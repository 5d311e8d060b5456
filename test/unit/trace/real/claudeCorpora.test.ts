import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { realCorpus, realCorpusMissing } from '../../../../testing/realSessions';
import { assertSameCounts, importCorpus, jsonlFiles, noCounts, type Counts, traceCounts } from './counts';

// Claude Code transcripts read by Combee against the raw files read here. A user message is a `user` record with
// text (not only tool results; a line copied into a resumed session, same uuid, once), or a message typed while the
// agent worked (`queue-operation` enqueue, a background task's JSON notification excepted) — whose later delivery as
// a `user` record with the same text is that message again, not another one. A record that is nothing but one of
// Claude Code's own wrappers (the `<local-command-caveat>` it writes before a local command's output, marked isMeta by
// it) is its context and is not counted: Combee drops those tags from user text. A tool call is a `tool_use` block, a
// failing exit a result starting "Exit code N" (N not 0), an edit an Edit/MultiEdit/Write/NotebookEdit call.

interface Block {
  type?: string;
  text?: string;
  content?: unknown;
  name?: string;
}
interface RawRecord {
  type?: string;
  uuid?: string;
  sessionId?: string;
  operation?: string;
  content?: unknown;
  message?: { content?: string | Block[] };
}

const EDITS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);

const WRAPPER_ONLY = /^<(local-command-caveat|system-reminder)>[\s\S]*<\/\1>$/;

function userText(record: RawRecord): string | undefined {
  const content = record.message?.content;
  if (typeof content === 'string') return WRAPPER_ONLY.test(content.trim()) ? undefined : content.trim() || undefined;
  const texts = (content ?? [])
    .map((b) => (b.type === 'text' ? (b.text?.trim() ?? '') : ''))
    .filter((t) => t && !WRAPPER_ONLY.test(t));
  return texts.length > 0 ? texts.join('\n') : undefined;
}

function isTaskNotification(text: string): boolean {
  try {
    return typeof (JSON.parse(text) as { task_id?: unknown }).task_id === 'string';
  } catch {
    return false;
  }
}

function resultText(block: Block): string {
  if (typeof block.content === 'string') return block.content;
  if (Array.isArray(block.content)) return (block.content as Block[]).map((b) => b.text ?? '').join('\n');
  return '';
}

function rawCounts(dir: string): Counts {
  const counts = noCounts();
  for (const file of jsonlFiles(dir)) {
    const seen = new Set<string>();
    const sessions = new Set<string>();
    /** Queued texts dequeued and not yet delivered by a user record. */
    let dequeued: string[] = [];
    const queued: string[] = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const record = JSON.parse(line) as RawRecord;
      if (record.uuid) {
        if (seen.has(record.uuid)) continue;
        seen.add(record.uuid);
      }
      if (record.type === 'queue-operation') {
        const text = typeof record.content === 'string' ? record.content.trim() : '';
        if (record.operation === 'enqueue' && text) {
          queued.push(text);
          if (!isTaskNotification(text)) {
            counts.userMessages++;
            if (record.sessionId) sessions.add(record.sessionId);
          }
        } else if (record.operation === 'dequeue') {
          const next = queued.shift();
          if (next !== undefined && !isTaskNotification(next)) dequeued.push(next);
        } else if (record.operation === 'remove') {
          queued.shift();
        }
        continue;
      }
      if (record.type !== 'user' && record.type !== 'assistant') continue;
      const blocks = Array.isArray(record.message?.content) ? record.message.content : [];
      if (record.type === 'user') {
        const text = userText(record);
        if (text !== undefined) {
          const delivered = dequeued.findIndex((q) => q === text || text.includes(`<command-name>${q}</command-name>`));
          if (delivered !== -1) dequeued.splice(delivered, 1);
          else counts.userMessages++;
          if (!text.startsWith('<command-name>') && delivered === -1) dequeued = [];
        }
        for (const block of blocks) {
          if (block.type !== 'tool_result') continue;
          const exit = /^Exit code (\d+)/m.exec(resultText(block).slice(0, 300));
          if (exit && Number(exit[1]) !== 0) counts.failingExits++;
        }
      } else {
        for (const block of blocks) {
          if (block.type !== 'tool_use') continue;
          counts.toolCalls++;
          if (block.name && EDITS.has(block.name)) counts.edits++;
        }
      }
      if (record.sessionId && (userText(record) !== undefined || blocks.length > 0)) sessions.add(record.sessionId);
    }
    counts.sessions += sessions.size;
  }
  return counts;
}

/** Enqueued messages of the user (background tasks' notifications aside). */
function typedWhileWorking(dir: string): number {
  let typed = 0;
  for (const file of jsonlFiles(dir))
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.includes('"queue-operation"')) continue;
      const record = JSON.parse(line) as RawRecord;
      const text = typeof record.content === 'string' ? record.content.trim() : '';
      if (record.operation === 'enqueue' && text && !isTaskNotification(text)) typed++;
    }
  return typed;
}

for (const name of ['entireio-cli', 'packmind-context-evaluator']) {
  describe(`real corpus ${name} (Claude Code transcripts)`, function () {
    const dir = realCorpus(name);
    before(function () {
      if (!dir) {
        console.log(`      ${realCorpusMissing(name)}`);
        this.skip();
      }
    });

    it('imports with the counts of the raw files, queued messages included', async () => {
      const { traces, warnings } = await importCorpus(dir!);
      assert.deepEqual(warnings, []);
      assertSameCounts(traceCounts(traces), rawCounts(dir!));
      const queued = traces.flatMap((t) => t.steps).filter((s) => s.kind === 'user' && s.queued === true);
      assert.equal(queued.length, typedWhileWorking(dir!));
    });
  });
}
