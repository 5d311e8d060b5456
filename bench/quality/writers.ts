import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { claudeEnvelopes } from '../../testing/claudeSessions';
import type { SessionSpec, Step } from './types';

// One session of the corpus as the agent itself writes it: Claude Code project JSONL, or a Codex rollout. The
// importer's own readers turn them into traces.

/** A uuid drawn from the seed and a name: the same seed gives the same ids. */
export function seededUuid(seed: number, name: string): string {
  const h = createHash('sha256').update(`${seed}\n${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The session's start: its day and hour, plus a few minutes drawn from the seed. */
export function startOf(spec: SessionSpec, seed: number): string {
  const minute =
    parseInt(createHash('sha256').update(`${seed}\n${spec.key}\nminute`).digest('hex').slice(0, 4), 16) % 50;
  return new Date(Date.UTC(2026, 10, spec.day, spec.hour, minute)).toISOString();
}

const abs = (cwd: string, path: string) => `${cwd}/${path}`;
const numbered = (text: string) =>
  text
    .split('\n')
    .map((line, i) => `${String(i + 1).padStart(6)}\t${line}`)
    .join('\n');

/** Writes a Claude Code session under `<home>/projects/<cwd slug>/<id>.jsonl`; returns the session id. */
export function writeClaudeCode(home: string, cwd: string, spec: SessionSpec, seed: number): string {
  const sessionId = seededUuid(seed, spec.key);
  const envelopes = claudeEnvelopes(sessionId, cwd, startOf(spec, seed));
  const lines: unknown[] = [];
  let calls = 0;
  const tool = (name: string, input: Record<string, unknown>, output: string, failed: boolean, extra: object) => {
    const id = `toolu_01${createHash('sha256').update(`${sessionId}${++calls}`).digest('hex').slice(0, 22)}`;
    lines.push({
      ...envelopes.next(),
      type: 'assistant',
      message: {
        id: `msg_01${id.slice(8, 30)}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [{ type: 'tool_use', id, name, input }],
        stop_reason: 'tool_use',
        usage: { input_tokens: 6, cache_read_input_tokens: 18_402, output_tokens: 91 },
      },
    });
    lines.push({
      ...envelopes.next(),
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: output, is_error: failed }],
      },
      toolUseResult: extra,
    });
  };
  for (const step of spec.steps) {
    if ('user' in step)
      lines.push({ ...envelopes.next(), type: 'user', message: { role: 'user', content: step.user } });
    else if ('say' in step)
      lines.push({
        ...envelopes.next(),
        type: 'assistant',
        message: {
          id: `msg_01say${envelopes.count}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5-20250929',
          content: [{ type: 'text', text: step.say }],
          stop_reason: 'end_turn',
          usage: { input_tokens: 4, cache_read_input_tokens: 18_402, output_tokens: 40 },
        },
      });
    else if ('run' in step) {
      const failed = (step.code ?? 0) !== 0;
      tool(
        'Bash',
        { command: step.run, description: `Run ${step.run.split(' ').slice(0, 3).join(' ')}` },
        failed ? `Exit code ${step.code}\n${step.out}` : step.out,
        failed,
        { stdout: step.out, stderr: '', interrupted: false, isImage: false },
      );
    } else if ('read' in step)
      tool('Read', { file_path: abs(cwd, step.read) }, numbered(step.out), false, {
        type: 'text',
        file: { filePath: abs(cwd, step.read), numLines: step.out.split('\n').length },
      });
    else
      tool(
        'Edit',
        { file_path: abs(cwd, step.edit), old_string: step.old, new_string: step.new },
        `The file ${abs(cwd, step.edit)} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${numbered(step.new)}`,
        false,
        { filePath: abs(cwd, step.edit), oldString: step.old, newString: step.new },
      );
  }
  const slug = cwd.replace(/[^A-Za-z0-9]/g, '-');
  const path = join(home, 'projects', slug, `${sessionId}.jsonl`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return sessionId;
}

function patchOf(step: Extract<Step, { edit: string }>): string {
  const body = step.old
    ? [
        `*** Update File: ${step.edit}`,
        '@@',
        ...step.old.split('\n').map((l) => `-${l}`),
        ...step.new.split('\n').map((l) => `+${l}`),
      ]
    : [`*** Add File: ${step.edit}`, ...step.new.split('\n').map((l) => `+${l}`)];
  return ['*** Begin Patch', ...body, '*** End Patch'].join('\n');
}

/** Writes a Codex rollout under `<home>/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`; returns the session id. */
export function writeCodex(home: string, cwd: string, spec: SessionSpec, seed: number): string {
  const id = seededUuid(seed, spec.key);
  const start = Date.parse(startOf(spec, seed));
  let tick = 0;
  const at = () => new Date(start + 1500 * tick++).toISOString();
  const turn = seededUuid(seed, `${spec.key}/turn`);
  const lines: unknown[] = [];
  const item = (payload: object) => lines.push({ timestamp: at(), type: 'response_item', payload });
  const event = (payload: object) => lines.push({ timestamp: at(), type: 'event_msg', payload });
  lines.push({
    timestamp: at(),
    type: 'session_meta',
    payload: {
      id,
      timestamp: new Date(start).toISOString(),
      cwd,
      originator: 'codex_cli_rs',
      cli_version: '0.135.0',
      source: 'cli',
      model_provider: 'openai',
      base_instructions: { text: 'You are Codex, a coding agent running in a terminal.' },
    },
  });
  event({ type: 'task_started', turn_id: turn, model_context_window: 258_400 });
  item({
    type: 'message',
    role: 'user',
    content: [
      {
        type: 'input_text',
        text: `<environment_context>\n  <cwd>${cwd}</cwd>\n  <shell>bash</shell>\n</environment_context>`,
      },
    ],
  });
  lines.push({
    timestamp: at(),
    type: 'turn_context',
    payload: {
      turn_id: turn,
      cwd,
      approval_policy: 'on-request',
      sandbox_policy: { type: 'workspace-write' },
      model: 'gpt-5.5',
      summary: 'auto',
    },
  });
  let calls = 0;
  for (const step of spec.steps) {
    if ('user' in step) {
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: step.user }] });
      event({ type: 'user_message', message: step.user, images: [] });
    } else if ('say' in step) {
      item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: step.say }] });
      event({ type: 'agent_message', message: step.say });
    } else if ('edit' in step) {
      const callId = `call_${id.slice(0, 8)}${++calls}`;
      item({
        type: 'custom_tool_call',
        status: 'completed',
        call_id: callId,
        name: 'apply_patch',
        input: patchOf(step),
      });
      item({
        type: 'custom_tool_call_output',
        call_id: callId,
        output: JSON.stringify({
          output: `Success. Updated the following files:\nM ${step.edit}\n`,
          metadata: { exit_code: 0, duration_seconds: 0 },
        }),
      });
    } else {
      const command = 'run' in step ? step.run : `sed -n '1,200p' ${step.read}`;
      const out = 'run' in step ? step.out : step.out;
      const code = 'run' in step ? (step.code ?? 0) : 0;
      const callId = `call_${id.slice(0, 8)}${++calls}`;
      item({
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['bash', '-lc', command], workdir: cwd, timeout_ms: 120_000 }),
        call_id: callId,
      });
      event({ type: 'exec_command_end', call_id: callId, exit_code: code, stdout: out, stderr: '' });
      item({
        type: 'function_call_output',
        call_id: callId,
        output: JSON.stringify({ output: out, metadata: { exit_code: code, duration_seconds: 0.8 } }),
      });
    }
  }
  event({ type: 'task_complete', turn_id: turn });
  const day = new Date(start);
  const stamp = day.toISOString().slice(0, 19).replace(/:/g, '-');
  const path = join(
    home,
    'sessions',
    String(day.getUTCFullYear()),
    String(day.getUTCMonth() + 1).padStart(2, '0'),
    String(day.getUTCDate()).padStart(2, '0'),
    `rollout-${stamp}-${id}.jsonl`,
  );
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return id;
}
