import { open, readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import type { Step, StepInput, TraceDraft } from '../model';
import { clipMiddle, titleLine } from '../../util/text';
import { countUnknown, isRecord, msToIso, storedOutput } from './common';
import { withoutBom } from './jsonDocument';
import type { ReadContext, SessionFile, SourceReader } from './types';
import { jsonText } from './jsonText';
import { pushStep } from './sessionDraft';

// OpenCode ≤1.1 JSON storage (research §8): storage/session/<projectID>/<sessionID>.json, with the session's messages
// in storage/message/<sessionID>/*.json and each message's parts in storage/part/<messageID>/*.json. The session
// file is the unit; messages and parts are read from the sibling folders.
// The ≥1.2 `opencode.db` SQLite store holds the same message/part JSON in rows: openCodeDb.ts, with the
// message and part handling exported here.

const Session = z.looseObject({
  id: z.string().optional(),
  version: z.string().optional(),
  directory: z.string().optional(),
  parentID: z.string().nullish(),
  title: z.string().optional(),
  time: z.looseObject({ created: z.number().optional(), updated: z.number().optional() }).optional(),
});
export const Message = z.looseObject({
  id: z.string().optional(),
  role: z.string().optional(),
  time: z.looseObject({ created: z.number().optional(), completed: z.number().optional() }).optional(),
  modelID: z.string().optional(),
  model: z.looseObject({ modelID: z.string().optional() }).optional(),
  path: z.union([z.string(), z.looseObject({ cwd: z.string().optional() })]).optional(),
  error: z
    .looseObject({ name: z.string().optional(), data: z.looseObject({ message: z.string().optional() }).optional() })
    .nullish(),
});
export type Message = z.infer<typeof Message>;
export const Part = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  synthetic: z.boolean().optional(),
  callID: z.string().optional(),
  tool: z.string().optional(),
  state: z
    .looseObject({
      status: z.string().optional(),
      input: z.unknown().optional(),
      output: z.unknown().optional(),
      error: z.unknown().optional(),
      metadata: z.looseObject({ exit: z.number().optional(), exitCode: z.number().optional() }).nullish(),
      time: z.looseObject({ start: z.number().optional(), end: z.number().optional() }).optional(),
    })
    .optional(),
  time: z.looseObject({ start: z.number().optional() }).optional(),
});

/** Part types with nothing for a lesson (bookkeeping, attachments, reasoning). */
const QUIET_PARTS = new Set([
  'reasoning',
  'step-start',
  'step-finish',
  'file',
  'patch',
  'snapshot',
  'agent',
  'subtask',
  'retry',
  'compaction',
]);

interface Loaded<T> {
  name: string;
  value: T;
}

export interface Acc {
  ctx: ReadContext;
  path: string;
  steps: Step[];
  unknown: Record<string, number>;
  badFiles: number;
  sidechain: boolean;
  synthetic: number;
}

/** A fresh accumulator for one session; a session with a parent is a sub-agent's (sidechain). */
export function newAcc(ctx: ReadContext, path: string, sidechain: boolean): Acc {
  return { ctx, path, steps: [], unknown: {}, badFiles: 0, sidechain, synthetic: 0 };
}

export const openCodeReader: SourceReader = {
  agent: 'opencode',

  accepts(path) {
    return /^ses_.*\.json$/.test(basename(path)) && basename(dirname(dirname(path))) === 'session';
  },

  sniff(_path, head) {
    const text = head.replace(/^\uFEFF/, '').trimStart();
    return (
      text.startsWith('{') && /"projectID"\s*:/.test(text) && /"directory"\s*:/.test(text) && /"time"\s*:/.test(text)
    );
  },

  claims(path) {
    // storage/session/<project id>/ses_<id>.json: no other agent writes that name there
    return this.accepts(path);
  },

  async read(file: SessionFile, ctx: ReadContext): Promise<TraceDraft[]> {
    let json: unknown;
    try {
      json = JSON.parse(withoutBom(await readFile(file.path, 'utf8')));
    } catch {
      ctx.warn(`${file.path}: malformed OpenCode session JSON; skipped`);
      return [];
    }
    const session = Session.safeParse(json);
    if (!session.success) {
      ctx.warn(`${file.path}: not an OpenCode session (${session.error.issues[0]?.message ?? 'invalid'})`);
      return [];
    }
    const s = session.data;
    const sessionId = s.id ?? basename(file.path, '.json');
    const storage = dirname(dirname(dirname(file.path)));
    const acc = newAcc(ctx, file.path, Boolean(s.parentID));

    const messages = (await loadFolder(acc, join(storage, 'message', sessionId), Message)).sort(
      (a, b) => (a.value.time?.created ?? 0) - (b.value.time?.created ?? 0) || a.name.localeCompare(b.name),
    );
    let cwd = s.directory;
    for (const message of messages) {
      const m = message.value;
      cwd ??= typeof m.path === 'string' ? m.path : m.path?.cwd;
      const messageId = m.id ?? basename(message.name, '.json');
      const parts = (await loadFolder(acc, join(storage, 'part', messageId), Part)).sort((a, b) =>
        a.name.localeCompare(b.name),
      );
      applyMessage(
        acc,
        m,
        parts.map((p) => p.value),
      );
    }
    if (acc.badFiles > 3) ctx.warn(`${file.path}: ${acc.badFiles} malformed message/part files skipped in all`);
    if (acc.steps.length === 0) return [];
    const firstUser = acc.steps.find((step) => step.kind === 'user');
    return [
      {
        id: `opencode:${sessionId}`,
        agent: 'opencode',
        agentVersion: s.version,
        cwd,
        title: s.title ?? (firstUser?.kind === 'user' ? titleLine(firstUser.text) : undefined),
        startedAt: msToIso(s.time?.created) ?? acc.steps[0].time,
        endedAt: msToIso(s.time?.updated) ?? [...acc.steps].reverse().find((step) => step.time)?.time,
        source: { path: file.path, bytes: file.bytes },
        parentId: s.parentID ? `opencode:${s.parentID}` : undefined,
        steps: acc.steps,
        unknown: acc.unknown,
        warnings: [],
      },
    ];
  },
};

async function loadFolder<T>(acc: Acc, dir: string, schema: z.ZodType<T>): Promise<Array<Loaded<T>>> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const out: Array<Loaded<T>> = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      const text = await readCapped(path, acc.ctx.maxDocumentBytes);
      if (text === undefined) {
        acc.ctx.tooLarge(path);
        continue;
      }
      const parsed = schema.safeParse(JSON.parse(text));
      if (parsed.success) out.push({ name, value: parsed.data });
      else bad(acc, `${path}: not an OpenCode record (${parsed.error.issues[0]?.message ?? 'invalid'}); skipped`);
    } catch {
      bad(acc, `${path}: malformed JSON; skipped`);
    }
  }
  return out;
}

/** The file's text, or `undefined` from `maxBytes` on (sized on the open handle: no stat per part file). */
async function readCapped(path: string, maxBytes: number): Promise<string | undefined> {
  const handle = await open(path, 'r');
  try {
    if ((await handle.stat()).size >= maxBytes) return undefined;
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

export function bad(acc: Acc, message: string): void {
  acc.badFiles++;
  if (acc.badFiles <= 3) acc.ctx.warn(message);
}

function push(acc: Acc, step: StepInput, time: string | undefined): void {
  pushStep(acc.steps, step, time, acc.sidechain);
}

export function applyMessage(acc: Acc, message: Message, parts: Array<z.infer<typeof Part>>): void {
  const messageTime = msToIso(message.time?.created);
  const model = message.modelID ?? message.model?.modelID;
  const role = message.role;
  if (role !== 'user' && role !== 'assistant') {
    countUnknown(acc.unknown, `message:${role ?? 'none'}`);
    return;
  }
  for (const part of parts) {
    const time = msToIso(part.time?.start ?? part.state?.time?.start) ?? messageTime;
    switch (part.type) {
      case 'text': {
        const text = part.text?.trim();
        if (!text) break;
        // Synthetic user text is injected by OpenCode (file contents, continue prompts), not typed.
        if (role === 'user') push(acc, { kind: 'user', text, isMeta: part.synthetic ? true : undefined }, time);
        else push(acc, { kind: 'assistant', text, model }, time);
        break;
      }
      case 'tool':
        applyTool(acc, part, time);
        break;
      default:
        if (!QUIET_PARTS.has(part.type)) countUnknown(acc.unknown, `part:${part.type}`);
    }
  }
  const error = message.error;
  if (error) {
    const detail = error.data?.message ?? error.name ?? 'error';
    const text =
      error.name === 'MessageAbortedError' ? `turn aborted: ${detail}` : `${error.name ?? 'Error'}: ${detail}`;
    push(acc, { kind: 'error', text }, msToIso(message.time?.completed) ?? messageTime);
  }
}

function applyTool(acc: Acc, part: z.infer<typeof Part>, time: string | undefined): void {
  const state = part.state;
  const callId = part.callID ?? `opencode-call-${++acc.synthetic}`;
  const input = state?.input;
  push(
    acc,
    {
      kind: 'tool_call',
      callId,
      tool: part.tool ?? 'unknown',
      command: isRecord(input) && typeof input.command === 'string' ? input.command : undefined,
      input: clipMiddle(typeof input === 'string' ? input : jsonText(input ?? {}), acc.ctx.maxOutputChars).text,
    },
    time,
  );
  const status = state?.status;
  if (status !== 'completed' && status !== 'error') {
    // pending/running never finished; fork states (denied, waiting-approval) are counted
    if (status && status !== 'pending' && status !== 'running') countUnknown(acc.unknown, `tool-status:${status}`);
    return;
  }
  const raw = status === 'error' ? state?.error : state?.output;
  const output = typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : jsonText(raw);
  const exitCode = state?.metadata?.exit ?? state?.metadata?.exitCode;
  const aborted = status === 'error' && /\baborted\b/i.test(output);
  push(
    acc,
    {
      kind: 'tool_result',
      callId,
      ...storedOutput(output, acc.ctx.maxOutputChars),
      isError: status === 'error' || (exitCode !== undefined && exitCode !== 0),
      exitCode: Number.isInteger(exitCode) ? exitCode : undefined,
      interrupted: aborted ? true : undefined,
    },
    msToIso(state?.time?.end) ?? time,
  );
}
