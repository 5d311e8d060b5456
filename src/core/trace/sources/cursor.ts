import { basename, dirname } from 'node:path';
import { z } from 'zod';
import { readLines } from '../lines';
import type { Step, StepInput, TraceDraft } from '../model';
import { clipMiddle, titleLine } from '../../util/text';
import { contentBlock, countUnknown, isRecord, storedOutput } from './common';
import type { ReadContext, SessionFile, SourceReader } from './types';
import { jsonText } from './jsonText';
import { lineWarnings } from './lineWarnings';
import { findHeadRecord, segments } from './sniffHead';
import { pushStep } from './sessionDraft';

// Cursor CLI (`cursor-agent`) transcripts (research §6.2): ~/.cursor/projects/<encoded>/agent-transcripts/<uuid>.jsonl
// or …/<uuid>/<uuid>.jsonl, subagents in …/<parent>/subagents/<uuid>.jsonl. Lines are `{role, message:{content[]}}`
// plus `{type:"turn_ended"}`; no timestamps and no cwd (the encoded project folder name is lossy, so it is not reversed).
// Out of scope for now: the Cursor IDE's state.vscdb SQLite store and the CLI's chats/<md5>/store.db.

const Line = z.looseObject({
  role: z.string().optional(),
  type: z.string().optional(),
  message: z.looseObject({ content: z.union([z.string(), z.array(z.unknown())]).optional() }).optional(),
});

const QUIET_TYPES = new Set(['turn_ended']);

interface Acc {
  ctx: ReadContext;
  steps: Step[];
  unknown: Record<string, number>;
  sidechain: boolean;
  pending: string[];
  synthetic: number;
}

const ROLES = new Set(['user', 'assistant', 'system', 'tool']);

export const cursorReader: SourceReader = {
  agent: 'cursor',

  accepts(path) {
    return path.endsWith('.jsonl');
  },

  sniff(_path, head) {
    const text = head.replace(/^\uFEFF/, '').trimStart();
    // `{role, message}` at the top: no other agent's record has a role beside its message (Claude's is inside it).
    if (
      head.includes('"role"') &&
      findHeadRecord(
        head,
        (r) =>
          typeof r.role === 'string' &&
          ROLES.has(r.role) &&
          isRecord(r.message) &&
          !('sessionId' in r) &&
          !('type' in r),
      )
    )
      return true;
    return /^\{\s*"role"\s*:\s*"(?:user|assistant|system|tool)"\s*,\s*"message"\s*:\s*\{/.test(text);
  },

  claims(path) {
    // ~/.cursor/projects/<project>/agent-transcripts/<id>.jsonl (and its subagents/)
    const up = segments(path);
    return (
      up[0].endsWith('.jsonl') &&
      (up[1] === 'agent-transcripts' || (up[1] === 'subagents' && up[3] === 'agent-transcripts'))
    );
  },

  async read(file: SessionFile, ctx: ReadContext): Promise<TraceDraft[]> {
    const subagent = basename(dirname(file.path)) === 'subagents';
    const acc: Acc = { ctx, steps: [], unknown: {}, sidechain: subagent, pending: [], synthetic: 0 };
    const warnings = lineWarnings(file, ctx, 'Cursor transcript');
    const result = await readLines(
      file.path,
      ({ text, lineNo }) => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          warnings.malformed(lineNo);
          return;
        }
        const line = Line.safeParse(json);
        if (!line.success) {
          warnings.bad(
            `${file.path}:${lineNo}: not a Cursor transcript line (${line.error.issues[0]?.message ?? 'invalid'})`,
          );
          return;
        }
        applyLine(acc, line.data);
      },
      { maxLineBytes: ctx.maxLineBytes },
    );
    warnings.done(result.skippedLongLines);
    if (acc.steps.length === 0) return [];
    const id = basename(file.path, '.jsonl');
    const parent = subagent ? basename(dirname(dirname(file.path))) : undefined;
    const firstUser = acc.steps.find((s) => s.kind === 'user');
    return [
      {
        id: `cursor:${id}`,
        agent: 'cursor',
        title: firstUser?.kind === 'user' ? titleLine(firstUser.text) : undefined,
        // No times in the file: its last write is when the session last moved.
        endedAt: Number.isFinite(file.mtimeMs) && file.mtimeMs > 0 ? new Date(file.mtimeMs).toISOString() : undefined,
        source: { path: file.path, bytes: file.bytes },
        parentId: parent ? `cursor:${parent}` : undefined,
        steps: acc.steps,
        unknown: acc.unknown,
        warnings: [],
      },
    ];
  },
};

function push(acc: Acc, step: StepInput): void {
  pushStep(acc.steps, step, undefined, acc.sidechain);
}

function applyLine(acc: Acc, line: z.infer<typeof Line>): void {
  if (line.role === undefined) {
    if (!line.type || !QUIET_TYPES.has(line.type)) countUnknown(acc.unknown, line.type ?? 'line:untyped');
    return;
  }
  const content = line.message?.content;
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : (content ?? []);
  for (const raw of blocks) {
    const b = contentBlock(raw, acc.unknown);
    if (!b) continue;
    switch (b.type) {
      case 'text': {
        if (typeof b.text !== 'string') break;
        if (line.role === 'user') {
          // The typed prompt is wrapped in <user_query>; anything else in a user line is injected context.
          const query = /<user_query>\s*([\s\S]*?)\s*<\/user_query>/.exec(b.text);
          const text = (query ? query[1] : b.text).trim();
          if (text) push(acc, { kind: 'user', text, isMeta: query ? undefined : true });
        } else if (line.role === 'assistant') {
          const text = b.text.trim();
          if (text) push(acc, { kind: 'assistant', text });
        }
        break;
      }
      case 'tool_use': {
        const name = typeof b.name === 'string' ? b.name : 'unknown';
        const callId = typeof b.id === 'string' ? b.id : `cursor-call-${++acc.synthetic}`;
        const input = b.input ?? {};
        acc.pending.push(callId);
        push(acc, {
          kind: 'tool_call',
          callId,
          tool: name,
          command: isRecord(input) && typeof input.command === 'string' ? input.command : undefined,
          input: clipMiddle(typeof input === 'string' ? input : jsonText(input), acc.ctx.maxOutputChars).text,
        });
        break;
      }
      case 'tool_result': {
        // Rarely recorded; paired by id, else with the oldest open call.
        const callId = typeof b.tool_use_id === 'string' ? b.tool_use_id : (acc.pending[0] ?? 'unknown');
        acc.pending = acc.pending.filter((id) => id !== callId);
        const output =
          typeof b.content === 'string'
            ? b.content
            : Array.isArray(b.content)
              ? b.content.map((c) => (isRecord(c) && typeof c.text === 'string' ? c.text : '')).join('\n')
              : '';
        push(acc, {
          kind: 'tool_result',
          callId,
          ...storedOutput(output, acc.ctx.maxOutputChars),
          isError: b.is_error === true,
        });
        break;
      }
      default:
        if (b.type !== 'image' && b.type !== 'thinking' && b.type !== 'redacted_thinking')
          countUnknown(acc.unknown, `block:${b.type}`);
    }
  }
}
