import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SecretShape } from '../../testing/secretCorpus';
import { claudeEnvelopes } from '../../testing/claudeSessions';

/**
 * Sessions that carry each secret shape in every placement, written as real-shaped Claude Code JSONL (2.1.x) and
 * Codex rollouts, for the test that scans every sink. Placements: a user message, tool inputs (a Bash command, a
 * file written by Write, an Edit patch), a tool output, assistant text, across the stored cut of a long output (head
 * and tail side), inside a huge output across the raw-byte cut made before decoding (head and tail side), base64-
 * and URL-encoded.
 */

export const PLACEMENTS = [
  'user message',
  'Bash command',
  'Write file',
  'Edit patch',
  'tool output',
  'assistant text',
  'across the stored cut (head)',
  'across the stored cut (tail)',
  'huge output, raw-byte cut (head)',
  'huge output, raw-byte cut (tail)',
  'base64-encoded',
  'URL-encoded',
] as const;

/** The stored limit of a tool output (the default `maxOutputChars`) and where clipMiddle cuts it. */
const MAX_OUTPUT = 8000;
const STORED_HEAD = Math.ceil((MAX_OUTPUT - 40) * 0.4);
const STORED_TAIL = MAX_OUTPUT - 40 - STORED_HEAD;
/** The raw-byte limits of the JSON clipper for that limit (clipLimitsFor(8000)). */
const RAW_HEAD = 3 * Math.ceil(MAX_OUTPUT * 0.4) + 64;
const RAW_TAIL = 3 * Math.ceil(MAX_OUTPUT * 0.6) + 64;

const LINE = 'ok  src/cart/total.test.ts > computes the total with tax (3 ms)\n';
const filler = (n: number) => LINE.repeat(Math.ceil(n / LINE.length)).slice(0, n);

/** `text` placed so that the cut at `at` falls in its middle, in an output of `length` characters. */
function around(text: string, at: number, length: number): string {
  const start = Math.max(0, at - Math.floor(text.length / 2));
  return `${filler(start)}${text}\n${filler(length - start - text.length - 1)}`;
}

/** The content of a tool output of `length` characters (plain ASCII: bytes = characters) with the secret across `at`. */
export function outputAcross(
  shape: SecretShape,
  side: 'stored-head' | 'stored-tail' | 'raw-head' | 'raw-tail',
): string {
  switch (side) {
    case 'stored-head':
      return around(shape.text, STORED_HEAD, 20_000);
    case 'stored-tail':
      return around(shape.text, 20_000 - STORED_TAIL, 20_000);
    case 'raw-head':
      // newlines are two bytes (`\n`) in the JSON string: the filler's share is counted in bytes
      return aroundBytes(shape.text, RAW_HEAD, 120_000);
    case 'raw-tail':
      return aroundBytes(shape.text, 120_000 - RAW_TAIL, 120_000);
  }
}

/** Like `around`, with `at` a byte offset inside the JSON-encoded string. */
function aroundBytes(text: string, at: number, length: number): string {
  const encoded = (s: string) => Buffer.byteLength(JSON.stringify(s)) - 2;
  // the filler's newlines take two bytes: the longest filler whose encoded size puts the secret across `at`
  const want = Math.max(0, at - Math.floor(encoded(text) / 2));
  let [low, high] = [0, want];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (encoded(filler(mid)) <= want) low = mid;
    else high = mid - 1;
  }
  const start = low;
  return `${filler(start)}${text}\n${filler(Math.max(0, length - start - text.length - 1))}`;
}

type Block = Record<string, unknown>;

/** Writes one Claude Code session with every placement of `shape`; returns its path. */
export function writeClaudeSecretSession(home: string, sessionId: string, cwd: string, shape: SecretShape): string {
  const lines: unknown[] = [];
  const envelopes = claudeEnvelopes(sessionId, cwd, '2026-11-20T09:00:00.000Z');
  const env = () => envelopes.next();
  const user = (content: string | Block[], extra: Block = {}) =>
    lines.push({ ...env(), type: 'user', message: { role: 'user', content }, ...extra });
  const assistant = (content: Block[]) =>
    lines.push({
      ...env(),
      type: 'assistant',
      message: {
        id: `msg_${sessionId.slice(0, 6)}${envelopes.count}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content,
      },
    });
  const tool = (name: string, input: Block, output: string, failed = false) => {
    const id = `toolu_${sessionId.slice(0, 6)}${envelopes.count}`;
    assistant([{ type: 'tool_use', id, name, input }]);
    user(
      [{ type: 'tool_result', tool_use_id: id, content: failed ? `Exit code 1\n${output}` : output, is_error: failed }],
      { toolUseResult: { stdout: output, stderr: '', interrupted: false, isImage: false } },
    );
  };
  const b64 = Buffer.from(shape.text).toString('base64');

  user(`Deploy the shop. Use this: ${shape.text}`);
  // a failing command with the secret, then the same command working: the learners turn it into a lesson
  // a failing check with the secret on its command line, then a variant that works: the learners make a lesson of it
  tool(
    'Bash',
    { command: `pnpm test --env "${shape.text}"`, description: 'test' },
    'Error: Cannot find module .prisma/client',
    true,
  );
  tool('Bash', { command: `pnpm test --run --env "${shape.text}"`, description: 'test' }, 'Test Files 12 passed (12)');
  tool(
    'Write',
    { file_path: `${cwd}/.env.production`, content: `NODE_ENV=production\n${shape.text}\nPORT=3000\n` },
    'File created successfully',
  );
  tool(
    'Edit',
    {
      file_path: `${cwd}/config/deploy.yml`,
      old_string: 'credentials: none',
      new_string: `credentials:\n  ${shape.text.replace(/\n/g, '\n  ')}`,
    },
    'The file has been updated.',
  );
  tool('Bash', { command: 'cat .env.production' }, `NODE_ENV=production\n${shape.text}\nPORT=3000\n`);
  assistant([{ type: 'text', text: `I set it up with ${shape.text} as you asked.` }]);
  tool('Bash', { command: 'pnpm test' }, outputAcross(shape, 'stored-head'));
  tool('Bash', { command: 'pnpm test --reporter verbose' }, outputAcross(shape, 'stored-tail'));
  tool('Bash', { command: 'pnpm build' }, outputAcross(shape, 'raw-head'));
  tool('Bash', { command: 'pnpm build --verbose' }, outputAcross(shape, 'raw-tail'));
  tool('Bash', { command: `echo ${b64} | base64 -d > secret.txt` }, `wrote ${b64.length} bytes`);
  user(`the callback was GET /oauth/callback?state=${encodeURIComponent(shape.text)}&page=2`);
  lines.push({
    ...env(),
    type: 'user',
    message: { role: 'user', content: 'No, always run pnpm db:generate before pnpm test in this repo.' },
  });

  const slug = cwd.replace(/[^A-Za-z0-9]/g, '-');
  mkdirSync(join(home, 'projects', slug), { recursive: true });
  const path = join(home, 'projects', slug, `${sessionId}.jsonl`);
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return path;
}

/** Writes one Codex rollout with the secret in the user message, a shell command and its output, and a patch. */
export function writeCodexSecretSession(home: string, id: string, cwd: string, shape: SecretShape): string {
  const t = (s: number) => `2026-11-21T09:00:${String(s).padStart(2, '0')}.000Z`;
  const env = (timestamp: string, type: string, payload: unknown) => ({ timestamp, type, payload });
  const lines = [
    env(t(0), 'session_meta', {
      id,
      timestamp: t(0),
      cwd,
      originator: 'codex_cli_rs',
      cli_version: '0.148.0',
      source: 'cli',
    }),
    env(t(1), 'response_item', {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: `set the key: ${shape.text}` }],
    }),
    env(t(2), 'response_item', {
      type: 'function_call',
      name: 'shell',
      arguments: JSON.stringify({ command: ['bash', '-lc', `printf '%s' "${shape.text}" > .env`], workdir: cwd }),
      call_id: 'call_a',
    }),
    env(t(3), 'response_item', {
      type: 'function_call_output',
      call_id: 'call_a',
      output: JSON.stringify({ output: `${shape.text}\n`, metadata: { exit_code: 0, duration_seconds: 0.1 } }),
    }),
    env(t(4), 'response_item', {
      type: 'custom_tool_call',
      name: 'apply_patch',
      input: `*** Begin Patch\n*** Add File: .env.local\n+${shape.text.replace(/\n/g, '\n+')}\n*** End Patch`,
      call_id: 'call_b',
      status: 'completed',
    }),
    env(t(5), 'response_item', {
      type: 'custom_tool_call_output',
      call_id: 'call_b',
      output: 'Success. Updated the following files:\nA .env.local',
    }),
    env(t(6), 'response_item', {
      type: 'function_call',
      name: 'shell',
      arguments: JSON.stringify({ command: ['bash', '-lc', 'pnpm build'], workdir: cwd }),
      call_id: 'call_c',
    }),
    env(t(7), 'response_item', {
      type: 'function_call_output',
      call_id: 'call_c',
      output: JSON.stringify({
        output: outputAcross(shape, 'raw-head'),
        metadata: { exit_code: 0, duration_seconds: 2 },
      }),
    }),
    env(t(8), 'response_item', {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: `Saved ${shape.text}.` }],
    }),
  ];
  const dir = join(home, 'sessions', '2026', '11', '21');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `rollout-2026-11-21T09-00-00-${id}.jsonl`);
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return path;
}
