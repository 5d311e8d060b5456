import { basename, dirname } from 'node:path';
import { readLines } from '../lines';
import type { TraceDraft } from '../model';
import { isRecord } from './common';
import { applyChatData, ChatData } from './copilotChat';
import { applyEvent } from './copilotEvents';
import { type Acc } from './copilotSteps';
import { readJsonDocument } from './jsonDocument';
import { lineWarnings } from './lineWarnings';
import { applyMutation } from './mutationLog';
import { findHeadRecord, segments } from './sniffHead';
import type { ReadContext, SessionFile, SourceReader } from './types';

// Three GitHub Copilot formats (research §4):
// - "copilot-agent" event logs: Copilot CLI `~/.copilot/session-state/<id>/events.jsonl` (and the older
//   `<id>.jsonl`), VS Code Copilot Chat's `transcripts/<id>.jsonl`;
// - VS Code `chatSessions/<id>.json`: ISerializableChatData (v1–v3), rewritten whole;
// - VS Code ≥1.109 `chatSessions/<id>.jsonl`: an ObjectMutationLog replayed into the same object.

/** Event types of Copilot's agent log that no other agent writes. */
const EVENT_TYPES =
  /^(?:session\.(?:start|resume)|user\.message|assistant\.(?:turn_start|turn_end|message)|tool\.execution_(?:start|complete))$/;

export const copilotReader: SourceReader = {
  agent: 'copilot',

  accepts(path) {
    const name = basename(path);
    return name.endsWith('.jsonl') || name.endsWith('.json');
  },

  sniff(_path, head) {
    const text = head.replace(/^\uFEFF/, '').trimStart();
    if (/^\{\s*"kind"\s*:\s*0\s*,\s*"v"\s*:\s*\{/.test(text))
      return /"(?:requests|responderUsername|sessionId|creationDate)"\s*:/.test(text);
    const event = (r: Record<string, unknown>) =>
      isRecord(r.data) &&
      typeof r.type === 'string' &&
      (r.data.producer === 'copilot-agent' || EVENT_TYPES.test(r.type));
    if (head.includes('"data"') && findHeadRecord(head, event)) return 'specific';
    const nl = text.indexOf('\n');
    const first = nl === -1 ? text : text.slice(0, nl);
    if (/^\{/.test(first) && /"data"\s*:\s*\{/.test(first)) {
      if (/"producer"\s*:\s*"copilot-agent"/.test(first)) return true;
      if (
        /"type"\s*:\s*"(?:session\.start|session\.resume|user\.message|assistant\.turn_start|assistant\.message)"/.test(
          first,
        )
      )
        return true;
    }
    return (
      /^\{/.test(text) &&
      /"requests"\s*:\s*\[/.test(text) &&
      /"sessionId"\s*:/.test(text) &&
      /"(?:responderUsername|requesterUsername|initialLocation|creationDate)"\s*:/.test(text)
    );
  },

  claims(path) {
    // ~/.copilot/session-state/<id>/events.jsonl; VS Code's workspaceStorage/<hash>/chatSessions/<id>.json[l]
    const up = segments(path);
    if (up[0] === 'events.jsonl') return up[2] === 'session-state';
    return (up[1] === 'chatSessions' || up[1] === 'emptyWindowChatSessions') && /\.jsonl?$/.test(up[0]);
  },

  async read(file: SessionFile, ctx: ReadContext): Promise<TraceDraft[]> {
    const acc: Acc = { file, ctx, steps: [], unknown: {}, syntheticCalls: 0, callIds: new Set() };
    if (file.path.endsWith('.json')) {
      const data = await readWholeFile(acc);
      if (data === 'skipped') return [];
      if (data === 'not-json') await readJsonl(acc);
      else await applyChatData(acc, data);
    } else {
      await readJsonl(acc);
    }
    return finish(acc);
  },
};

async function readWholeFile(acc: Acc): Promise<ChatData | 'skipped' | 'not-json'> {
  const data = await readJsonDocument(acc.file, acc.ctx, ChatData, {
    name: 'single-JSON Copilot chat session',
    expected: '{sessionId, requests}',
    notJson: 'quiet',
  });
  return data ?? 'skipped';
}

/** A `.jsonl` is either an event log or a mutation log; the first good line tells which. */
async function readJsonl(acc: Acc): Promise<void> {
  const { file, ctx } = acc;
  const warnings = lineWarnings(file, ctx, 'Copilot');
  const bad = warnings.bad;
  let mode: 'events' | 'mutations' | undefined;
  let state: unknown;
  const result = await readLines(
    file.path,
    ({ text, lineNo }) => {
      const json = warnings.record(text, lineNo);
      if (!json) return;
      mode ??= typeof json.kind === 'number' && 'v' in json ? 'mutations' : 'events';
      if (mode === 'mutations') {
        const applied = applyMutation(state, json);
        if (applied.ok) state = applied.state;
        else bad(`${file.path}:${lineNo}: ${applied.reason}; entry skipped`);
      } else {
        applyEvent(acc, json);
      }
    },
    { maxLineBytes: ctx.maxLineBytes },
  );
  warnings.done(result.skippedLongLines);
  if (mode !== 'mutations') return;
  const data = ChatData.safeParse(state);
  if (!data.success) {
    ctx.warn(`${file.path}: the replayed chat session has no requests array; skipped`);
    return;
  }
  await applyChatData(acc, data.data);
}

function finish(acc: Acc): TraceDraft[] {
  if (acc.steps.length === 0) return [];
  const name = basename(acc.file.path).replace(/\.jsonl?$/, '');
  const fallback = name === 'events' ? basename(dirname(acc.file.path)) : name;
  return [
    {
      id: `copilot:${acc.id ?? fallback}`,
      agent: 'copilot',
      agentVersion: acc.version,
      cwd: acc.cwd,
      title: acc.title ?? acc.firstPrompt,
      startedAt: acc.startedAt,
      endedAt: acc.endedAt,
      source: { path: acc.file.path, bytes: acc.file.bytes },
      steps: acc.steps,
      unknown: acc.unknown,
      warnings: [],
    },
  ];
}
