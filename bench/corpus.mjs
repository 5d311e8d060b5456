// Deterministic, realistic session logs for the import benchmark: Claude Code projects JSONL and Codex rollouts,
// with the envelopes real files carry (copied from ../shared/traces and examples/sessions), long tool outputs,
// a few multi-MB lines, one line over the reader's 16 MiB limit, and planted secrets (all contain BENCHSECRET).
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const SECRET_MARKER = 'BENCHSECRET';

/** mulberry32: small, fast, good enough for shaping data. */
export function rngFrom(seed) {
  let a = typeof seed === 'number' ? seed >>> 0 : hashSeed(String(seed));
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
    normal: () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next()),
    /** Log-normal around `median`, clamped. */
    logNormal: (median, sigma, min, max) =>
      Math.max(min, Math.min(max, Math.round(median * Math.exp(sigma * rng.normal())))),
    hex: (n) => {
      let s = '';
      while (s.length < n)
        s += Math.floor(next() * 0x100000000)
          .toString(16)
          .padStart(8, '0');
      return s.slice(0, n);
    },
    alnum: (n) => {
      const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
      let s = '';
      for (let i = 0; i < n; i++) s += chars[Math.floor(next() * 62)];
      return s;
    },
    uuid: () => {
      const h = rng.hex(32);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
    },
  };
  return rng;
}

function hashSeed(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

// ---- text pools (built once from a fixed seed) ----
const WORDS = (
  'the a to of and in is it that for on with as this be are by run test build fix error module cart order checkout ' +
  'product search user session cache config import export function return const async await promise type interface ' +
  'component render state hook effect query database migration schema prisma vitest jest eslint tsc webpack vite ' +
  'install package lock update remove add rename refactor debounce retry timeout request response header token ' +
  'auth login logout route handler middleware service controller repository model field column index table ' +
  'failing passing green red flaky ci pipeline deploy staging production branch commit merge rebase conflict'
).split(' ');
const FILES = [
  'src/cart/total.ts',
  'src/cart/total.test.ts',
  'src/web/components/ProductSearch.tsx',
  'src/orders/service.ts',
  'src/checkout/payment.ts',
  'prisma/schema.prisma',
  'package.json',
  'tsconfig.json',
  'src/api/products.ts',
  'README.md',
  'src/orders/repository.ts',
  'src/web/App.tsx',
  'vite.config.ts',
  'src/lib/http.ts',
  'src/lib/retry.ts',
];
const COMMANDS = [
  'pnpm test',
  'pnpm vitest run src/cart',
  'pnpm lint',
  'pnpm tsc --noEmit',
  'git status',
  'git diff --stat',
  'pnpm db:generate',
  'ls -la src',
  'cat package.json',
  'rg "debounce" src',
  'pnpm build',
  'npm test -- --run',
  'pytest -q',
  'cargo test',
  'go test ./...',
  'make check',
];

const POOL = rngFrom(20260611);
const sentence = (rng, min = 6, max = 18) => {
  const n = rng.int(min, max);
  const words = [];
  for (let i = 0; i < n; i++) words.push(rng.pick(WORDS));
  const s = words.join(' ');
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
};
const OUTPUT_LINES = Array.from({ length: 4000 }, (_, i) => {
  const r = POOL;
  switch (i % 8) {
    case 0:
      return ` ✓ ${r.pick(FILES)} > ${sentence(r, 3, 7)} ${r.int(1, 900)}ms`;
    case 1:
      return `    at ${r.pick(['Object', 'Module', 'process', 'async'])}.${r.pick(WORDS)} (/home/dev/acme-shop/${r.pick(FILES)}:${r.int(1, 400)}:${r.int(1, 80)})`;
    case 2:
      return `${r.pick(FILES)}(${r.int(1, 400)},${r.int(1, 80)}): error TS${r.int(2000, 2800)}: ${sentence(r, 5, 12)}`;
    case 3:
      return `${String(r.int(1, 999)).padStart(6)}→  ${'  '.repeat(r.int(0, 4))}${r.pick(['const', 'return', 'await', 'if (', 'export function', '}'])} ${r.pick(WORDS)}${r.pick(['();', ' = ', ' {', ''])}${r.pick(WORDS)}`;
    case 4:
      return `[${r.int(10, 23)}:${String(r.int(0, 59)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}] INFO ${sentence(r, 4, 10)}`;
    case 5:
      return `${r.pick(['M', 'A', 'D', '??'])} ${r.pick(FILES)}`;
    case 6:
      return ` FAIL  ${r.pick(FILES)} > ${sentence(r, 3, 6)}`;
    default:
      return sentence(r, 4, 16);
  }
});
const PROMPTS = Array.from({ length: 400 }, () => sentence(POOL, 8, 30));
const LONG_TEXT = Array.from({ length: 300 }, () =>
  Array.from({ length: POOL.int(2, 8) }, () => sentence(POOL)).join(' '),
);
const BASE_INSTRUCTIONS = Array.from({ length: 160 }, () => sentence(POOL, 12, 24)).join('\n'); // ~20 KiB like real ones

/** Tool output of about `bytes` characters, built from realistic lines; a planted secret now and then. */
function toolOutput(rng, bytes, secrets) {
  const parts = [];
  let size = 0;
  while (size < bytes) {
    const line = OUTPUT_LINES[Math.floor(rng.next() * OUTPUT_LINES.length)];
    parts.push(line);
    size += line.length + 1;
  }
  if (secrets && rng.chance(secrets.rate)) {
    parts.splice(rng.int(0, Math.min(parts.length, 20)), 0, plantSecret(rng, secrets));
  }
  return parts.join('\n');
}

function plantSecret(rng, secrets) {
  secrets.planted++;
  const m = SECRET_MARKER;
  switch (rng.int(0, 6)) {
    case 0:
      return `OPENAI_API_KEY=sk-proj-${m}${rng.alnum(32)}`;
    case 1:
      return `export GITHUB_TOKEN=ghp_${m}${rng.alnum(28)}`;
    case 2:
      return `aws_access_key_id = AKIA${m}${rng.alnum(5).toUpperCase()}`;
    case 3:
      return `SLACK_BOT=xoxb-${m}-${rng.int(100000, 999999)}-${rng.alnum(24)}`;
    case 4:
      return `Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiZW5jaCJ9.${m}${rng.alnum(24)}`;
    case 5:
      return `DATABASE_URL=postgres://admin:${m}${rng.alnum(10)}@db.internal:5432/shop`;
    default:
      return `ANTHROPIC_API_KEY=sk-ant-api03-${m}${rng.alnum(40)}`;
  }
}

/** Buffered line writer: one syscall per few MB. */
export class LineWriter {
  constructor(path, flags = 'w') {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, flags);
    this.parts = [];
    this.pending = 0;
    this.bytes = 0;
  }
  line(object) {
    const text = typeof object === 'string' ? object : JSON.stringify(object);
    this.parts.push(text, '\n');
    this.pending += text.length + 1;
    this.bytes += Buffer.byteLength(text) + 1;
    if (this.pending > 4 << 20) this.flush();
  }
  flush() {
    if (this.parts.length) writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.pending = 0;
  }
  close() {
    this.flush();
    closeSync(this.fd);
  }
}

const iso = (ms) => new Date(ms).toISOString();

// ---------------------------------------------------------------------------------------------------------------
// Claude Code
// ---------------------------------------------------------------------------------------------------------------

/** Session state carried from turn to turn (and re-created from a file's first line to append to it). */
export function claudeSession(rng, { sessionId, cwd, startMs, subagent }) {
  return {
    rng,
    sessionId,
    cwd,
    t: startMs,
    parent: null,
    version: rng.pick(['2.1.50', '2.1.112', '2.1.161']),
    branch: rng.pick(['main', 'feat/search-debounce', 'fix/cart-total', 'HEAD']),
    subagent,
    turns: 0,
  };
}

function claudeEnvelope(s, type, extra) {
  const uuid = s.rng.uuid();
  s.t += s.rng.int(200, 20_000);
  const record = {
    parentUuid: s.parent,
    isSidechain: Boolean(s.subagent),
    userType: 'external',
    cwd: s.cwd,
    sessionId: s.sessionId,
    version: s.version,
    gitBranch: s.branch,
    ...(s.subagent ? { agentId: s.subagent } : {}),
    type,
    ...extra,
    uuid,
    timestamp: iso(s.t),
  };
  s.parent = uuid;
  return record;
}

function usage(rng) {
  const create = rng.int(0, 4000);
  return {
    input_tokens: rng.int(3, 40),
    cache_creation_input_tokens: create,
    cache_read_input_tokens: rng.int(5_000, 90_000),
    cache_creation: { ephemeral_5m_input_tokens: create, ephemeral_1h_input_tokens: 0 },
    output_tokens: rng.int(20, 2500),
    service_tier: 'standard',
  };
}

function assistantLine(s, messageId, requestId, model, u, block) {
  return claudeEnvelope(s, 'assistant', {
    message: {
      id: messageId,
      type: 'message',
      role: 'assistant',
      model,
      content: [block],
      stop_reason: null,
      stop_sequence: null,
      usage: u,
    },
    requestId,
  });
}

/**
 * One user turn: prompt, snapshot, thinking/text/tool_use lines merged by message id, tool results with
 * `toolUseResult`, progress and system lines. `big` forces one multi-MB output (`big.bytes`).
 */
export function claudeTurn(s, w, opts) {
  const { rng } = s;
  const secrets = opts.secrets;
  s.turns++;
  const prompt =
    rng.chance(0.02) && secrets ? `${rng.pick(PROMPTS)} Use this key: ${plantSecret(rng, secrets)}` : rng.pick(PROMPTS);
  if (!s.subagent && rng.chance(0.3))
    w.line({ type: 'queue-operation', operation: 'dequeue', timestamp: iso(s.t), sessionId: s.sessionId });
  const userLine = claudeEnvelope(s, 'user', {
    message: {
      role: 'user',
      content:
        s.turns === 1 || rng.chance(0.7)
          ? prompt
          : [
              { type: 'text', text: `<system-reminder>${rng.pick(LONG_TEXT)}</system-reminder>` },
              { type: 'text', text: prompt },
            ],
    },
    permissionMode: 'default',
  });
  w.line(userLine);
  if (!s.subagent) {
    const backups = {};
    for (let i = rng.int(0, 6); i > 0; i--)
      backups[rng.pick(FILES)] = {
        backupFileName: `${rng.hex(16)}@v${rng.int(1, 9)}`,
        version: rng.int(1, 9),
        backupTime: iso(s.t),
      };
    w.line({
      type: 'file-history-snapshot',
      messageId: userLine.uuid,
      snapshot: { messageId: userLine.uuid, trackedFileBackups: backups, timestamp: iso(s.t) },
      isSnapshotUpdate: false,
    });
  }
  const model = rng.pick(['claude-sonnet-4-5-20250929', 'claude-opus-4-1-20250805', 'claude-haiku-4-5-20251001']);
  const calls = rng.int(1, 7);
  for (let c = 0; c <= calls; c++) {
    const messageId = `msg_01${rng.alnum(22)}`;
    const requestId = `req_011C${rng.alnum(20)}`;
    const u = usage(rng);
    if (rng.chance(0.5))
      w.line(
        assistantLine(s, messageId, requestId, model, u, {
          type: 'thinking',
          thinking: rng.pick(LONG_TEXT),
          signature: rng.alnum(rng.int(200, 600)),
        }),
      );
    if (c === calls || rng.chance(0.6))
      w.line(assistantLine(s, messageId, requestId, model, u, { type: 'text', text: rng.pick(LONG_TEXT) }));
    if (c === calls) break;
    // stop early once the file reached its planned size
    if (opts.until !== undefined && w.bytes >= opts.until) c = calls - 1;
    const toolId = `toolu_01${rng.alnum(22)}`;
    const kind = rng.pick(['Bash', 'Bash', 'Bash', 'Read', 'Read', 'Edit', 'Grep', 'Glob']);
    const command = rng.pick(COMMANDS);
    const input =
      kind === 'Bash'
        ? { command, description: sentence(rng, 3, 8) }
        : kind === 'Read'
          ? { file_path: `${s.cwd}/${rng.pick(FILES)}` }
          : kind === 'Edit'
            ? {
                file_path: `${s.cwd}/${rng.pick(FILES)}`,
                old_string: rng.pick(OUTPUT_LINES),
                new_string: rng.pick(OUTPUT_LINES),
              }
            : { pattern: rng.pick(WORDS), path: s.cwd };
    w.line(assistantLine(s, messageId, requestId, model, u, { type: 'tool_use', id: toolId, name: kind, input }));
    if (rng.chance(0.25)) {
      w.line(
        claudeEnvelope(s, 'progress', {
          data: {
            type: 'hook_progress',
            hookEvent: 'PreToolUse',
            hookName: `PreToolUse:${kind}`,
            command: 'node .claude/hooks/guard.mjs',
          },
          parentToolUseID: toolId,
          toolUseID: toolId,
        }),
      );
    }
    // runaway sessions are big because of big outputs (research §1.6: 100–600 MB files average 400 KB lines)
    // short: the shape of most real logs, outputs of a few KB (research §1.6: median line ~600 bytes)
    let bytes = opts.runaway
      ? rng.logNormal(16_000, 1.2, 200, 2_000_000)
      : opts.short
        ? rng.logNormal(900, 1.0, 20, 12_000)
        : rng.chance(0.1)
          ? rng.int(10_000, 80_000)
          : rng.logNormal(1200, 1.1, 20, 40_000);
    if (opts.big && opts.big.remaining > 0 && rng.chance(opts.big.chance)) {
      bytes = opts.big.bytes;
      opts.big.remaining--;
    }
    const output = toolOutput(rng, bytes, secrets);
    const failed = kind === 'Bash' && rng.chance(0.12);
    const content = failed ? `Exit code 1\n${output}` : output;
    const toolUseResult =
      kind === 'Bash'
        ? { stdout: output, stderr: failed ? rng.pick(OUTPUT_LINES) : '', interrupted: false, isImage: false }
        : kind === 'Read'
          ? {
              type: 'text',
              file: {
                filePath: input.file_path,
                content: output,
                numLines: output.split('\n').length,
                startLine: 1,
                totalLines: output.split('\n').length,
              },
            }
          : kind === 'Edit'
            ? {
                filePath: input.file_path,
                oldString: input.old_string,
                newString: input.new_string,
                originalFile: output,
                structuredPatch: [],
                userModified: false,
                replaceAll: false,
              }
            : { mode: 'files_with_matches', filenames: FILES.slice(0, rng.int(1, 8)), numFiles: rng.int(1, 8) };
    w.line(
      claudeEnvelope(s, 'user', {
        message: { role: 'user', content: [{ tool_use_id: toolId, type: 'tool_result', content, is_error: failed }] },
        toolUseResult,
        sourceToolAssistantUUID: s.parent,
      }),
    );
  }
  if (rng.chance(0.3))
    w.line(
      claudeEnvelope(s, 'system', {
        subtype: 'turn_duration',
        durationMs: rng.int(2000, 300_000),
        messageCount: rng.int(2, 40),
        isMeta: false,
      }),
    );
  if (rng.chance(0.01))
    w.line(
      claudeEnvelope(s, 'system', {
        subtype: 'api_error',
        level: 'error',
        error: { status: 529, message: 'Overloaded' },
        retryInMs: 2000,
        retryAttempt: 1,
        maxRetries: 10,
      }),
    );
  if (!s.subagent && s.turns === 2) w.line({ type: 'ai-title', sessionId: s.sessionId, aiTitle: sentence(rng, 3, 7) });
}

// ---------------------------------------------------------------------------------------------------------------
// Codex
// ---------------------------------------------------------------------------------------------------------------

export function codexSession(rng, { id, cwd, startMs }) {
  return { rng, id, cwd, t: startMs, turns: 0 };
}

export function codexMeta(s, w) {
  const { rng } = s;
  w.line({
    timestamp: iso(s.t),
    type: 'session_meta',
    payload: {
      id: s.id,
      timestamp: iso(s.t),
      cwd: s.cwd,
      originator: 'codex_cli_rs',
      cli_version: '0.148.0',
      source: 'cli',
      thread_source: 'user',
      model_provider: 'openai',
      base_instructions: { text: BASE_INSTRUCTIONS },
      git: { commit_hash: rng.hex(40), branch: 'main', repository_url: 'git@github.com:acme/acme-shop.git' },
    },
  });
}

const envelope = (s, type, payload) => {
  s.t += s.rng.int(100, 15_000);
  return { timestamp: iso(s.t), type, payload };
};

export function codexTurn(s, w, opts) {
  const { rng } = s;
  const secrets = opts.secrets;
  s.turns++;
  const turnId = rng.uuid();
  w.line(
    envelope(s, 'event_msg', {
      type: 'task_started',
      turn_id: turnId,
      started_at: Math.floor(s.t / 1000),
      model_context_window: 258400,
      collaboration_mode_kind: 'default',
    }),
  );
  if (s.turns === 1) {
    w.line(
      envelope(s, 'response_item', {
        type: 'message',
        role: 'developer',
        content: [
          {
            type: 'input_text',
            text: '<permissions instructions>\nFilesystem sandboxing: workspace-write. Network access is restricted. Approval policy: on-request.\n</permissions instructions>',
          },
        ],
      }),
    );
    w.line(
      envelope(s, 'response_item', {
        type: 'message',
        role: 'user',
        content: [
          {
            type: 'input_text',
            text: `# AGENTS.md instructions for ${s.cwd}\n\n<INSTRUCTIONS>\n${rng.pick(LONG_TEXT)}\n</INSTRUCTIONS>`,
          },
        ],
      }),
    );
    w.line(
      envelope(s, 'response_item', {
        type: 'message',
        role: 'user',
        content: [
          {
            type: 'input_text',
            text: `<environment_context>\n  <cwd>${s.cwd}</cwd>\n  <shell>bash</shell>\n</environment_context>`,
          },
        ],
      }),
    );
  }
  w.line(
    envelope(s, 'turn_context', {
      turn_id: turnId,
      cwd: s.cwd,
      approval_policy: 'on-request',
      sandbox_policy: { type: 'workspace-write', writable_roots: [s.cwd], network_access: false },
      model: 'gpt-5.5',
      effort: 'medium',
      summary: 'auto',
      personality: 'pragmatic',
    }),
  );
  const prompt = rng.pick(PROMPTS);
  w.line(
    envelope(s, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] }),
  );
  w.line(
    envelope(s, 'event_msg', {
      type: 'user_message',
      message: prompt,
      images: [],
      local_images: [],
      text_elements: [],
    }),
  );
  const calls = rng.int(1, 8);
  let total = rng.int(20_000, 60_000);
  for (let c = 0; c < calls; c++) {
    if (c > 0 && opts.until !== undefined && w.bytes >= opts.until) break;
    w.line(
      envelope(s, 'response_item', {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: `**${sentence(rng, 3, 6)}**` }],
        content: null,
        encrypted_content: `gAAAAA${rng.alnum(rng.int(800, 4000))}`,
      }),
    );
    if (rng.chance(0.5)) {
      const text = sentence(rng, 8, 30);
      w.line(
        envelope(s, 'response_item', {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text }],
          phase: 'commentary',
        }),
      );
      w.line(
        envelope(s, 'event_msg', { type: 'agent_message', message: text, phase: 'commentary', memory_citation: null }),
      );
    }
    const callId = `call_${rng.alnum(24)}`;
    const patch = rng.chance(0.15);
    let bytes = rng.chance(0.08) ? rng.int(10_000, 60_000) : rng.logNormal(1500, 1.1, 20, 30_000);
    if (opts.big && opts.big.remaining > 0 && rng.chance(opts.big.chance)) {
      bytes = opts.big.bytes;
      opts.big.remaining--;
    }
    const output = toolOutput(rng, bytes, secrets);
    const exitCode = rng.chance(0.1) ? 1 : 0;
    if (patch) {
      w.line(
        envelope(s, 'response_item', {
          type: 'custom_tool_call',
          status: 'completed',
          call_id: callId,
          name: 'apply_patch',
          input: `*** Begin Patch\n*** Update File: ${rng.pick(FILES)}\n@@\n-${rng.pick(OUTPUT_LINES)}\n+${rng.pick(OUTPUT_LINES)}\n*** End Patch\n`,
        }),
      );
      w.line(
        envelope(s, 'response_item', {
          type: 'custom_tool_call_output',
          call_id: callId,
          output: JSON.stringify({
            output: 'Success. Updated the following files:\nM src/cart/total.ts\n',
            metadata: { exit_code: 0, duration_seconds: 0 },
          }),
        }),
      );
    } else {
      const command = rng.pick(COMMANDS);
      w.line(
        envelope(s, 'response_item', {
          type: 'function_call',
          name: 'shell',
          arguments: JSON.stringify({ command: ['bash', '-lc', command], workdir: s.cwd, timeout_ms: 120000 }),
          call_id: callId,
        }),
      );
      if (rng.chance(0.3))
        w.line(
          envelope(s, 'event_msg', {
            type: 'exec_command_end',
            call_id: callId,
            command: ['bash', '-lc', command],
            cwd: s.cwd,
            stdout: '',
            stderr: '',
            aggregated_output: output.slice(0, 10_000),
            exit_code: exitCode,
            duration: { secs: rng.int(0, 20), nanos: rng.int(0, 999999999) },
            formatted_output: '',
          }),
        );
      w.line(
        envelope(s, 'response_item', {
          type: 'function_call_output',
          call_id: callId,
          output: JSON.stringify({ output, metadata: { exit_code: exitCode, duration_seconds: rng.int(1, 200) / 10 } }),
        }),
      );
    }
    total += rng.int(2_000, 12_000);
    w.line(
      envelope(s, 'event_msg', {
        type: 'token_count',
        info: {
          total_token_usage: {
            input_tokens: total,
            cached_input_tokens: Math.floor(total * 0.9),
            output_tokens: rng.int(10, 900),
            reasoning_output_tokens: rng.int(0, 600),
            total_tokens: total + 500,
          },
          last_token_usage: {
            input_tokens: rng.int(1000, 9000),
            cached_input_tokens: rng.int(0, 8000),
            output_tokens: rng.int(10, 900),
            reasoning_output_tokens: 0,
            total_tokens: rng.int(1000, 9000),
          },
          model_context_window: 258400,
        },
        rate_limits: {
          primary: { used_percent: rng.int(0, 100), window_minutes: 300, resets_in_seconds: rng.int(0, 18000) },
          secondary: null,
        },
      }),
    );
  }
  const final = rng.pick(LONG_TEXT);
  w.line(
    envelope(s, 'response_item', {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: final }],
      phase: 'final_answer',
    }),
  );
  w.line(
    envelope(s, 'event_msg', { type: 'agent_message', message: final, phase: 'final_answer', memory_citation: null }),
  );
  w.line(
    envelope(s, 'event_msg', {
      type: 'task_complete',
      turn_id: turnId,
      last_agent_message: final.slice(0, 200),
      duration_ms: rng.int(2000, 400_000),
    }),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Corpus layout
// ---------------------------------------------------------------------------------------------------------------

export const SIZES = {
  // bytes are targets; files: [claude main+subagent, codex]
  full: {
    claudeFiles: 4000,
    codexFiles: 1000,
    bigBytes: 380e6,
    claudeBytes: 220e6,
    codexBytes: 160e6,
    hugeLineBytes: 30e6,
    multiMbLines: 8,
    multiMb: [1.5e6, 6e6],
  },
  small: {
    claudeFiles: 240,
    codexFiles: 60,
    bigBytes: 10e6,
    claudeBytes: 10e6,
    codexBytes: 6e6,
    hugeLineBytes: 17.5e6,
    multiMbLines: 2,
    multiMb: [1e6, 2e6],
  },
  // most real Claude Code logs: many sessions of short lines, no runaway file, no multi-MB output
  short: {
    claudeFiles: 2000,
    codexFiles: 0,
    bigBytes: 0,
    claudeBytes: 311e6,
    codexBytes: 0,
    hugeLineBytes: 0,
    multiMbLines: 0,
    multiMb: [0, 0],
    shortShare: 1,
  },
  // both: two thirds of the sessions short, the rest with long outputs, a 60 MB runaway file, Codex rollouts
  mixed: {
    claudeFiles: 2400,
    codexFiles: 400,
    bigBytes: 60e6,
    claudeBytes: 260e6,
    codexBytes: 60e6,
    hugeLineBytes: 0,
    multiMbLines: 3,
    multiMb: [1e6, 3e6],
    shortShare: 2 / 3,
  },
  // how many files a heavy user's folders hold: 10,000 sessions (the no-change re-import is measured on it)
  many: {
    claudeFiles: 8000,
    codexFiles: 2000,
    bigBytes: 0,
    claudeBytes: 240e6,
    codexBytes: 60e6,
    hugeLineBytes: 0,
    multiMbLines: 0,
    multiMb: [0, 0],
    shortShare: 1,
  },
};

/**
 * @typedef {object} PlannedFile
 * @property {'claude-code' | 'codex'} agent
 * @property {string} path
 * @property {string} sessionId
 * @property {string} cwd
 * @property {number} startMs
 * @property {number} bytes
 * @property {string} [subagent]
 * @property {boolean} [big]
 * @property {boolean} [short]
 * @property {number} [multiMb] how many multi-MB lines the file carries
 * @property {number[]} [multiMbRange] their size range in bytes
 * @property {number} [hugeLine] the bytes of its one line over the reader limit
 */

/**
 * The plan: every file with its path, agent, target size and the extras it carries. Pure function of the size.
 * @returns {PlannedFile[]}
 */
export function plan(size) {
  const spec = SIZES[size];
  const rng = rngFrom(`plan-${size}`);
  const projects = Array.from(
    { length: Math.max(4, Math.round(spec.claudeFiles / 60)) },
    (_, i) => `/home/dev/${rng.pick(['acme-shop', 'billing', 'infra', 'docs-site', 'mobile-app', 'ml-pipeline'])}-${i}`,
  );
  /** @type {PlannedFile[]} */
  const files = [];
  const weights = (n) => {
    const w = Array.from({ length: n }, () => Math.exp(1.3 * rng.normal()));
    const sum = w.reduce((a, b) => a + b, 0);
    return w.map((x) => x / sum);
  };
  const t0 = Date.parse('2026-09-01T08:00:00.000Z');
  const claudeWeights = weights(spec.claudeFiles - 1);
  let parent;
  for (let i = 0; i < spec.claudeFiles; i++) {
    const cwd = rng.pick(projects);
    const slug = cwd.replace(/[^A-Za-z0-9]/g, '-');
    const startMs = t0 + rng.int(0, 80 * 86400) * 1000;
    const big = i === 0 && spec.bigBytes > 0;
    const bytes = big
      ? spec.bigBytes
      : Math.max(3000, Math.round(spec.claudeBytes * claudeWeights[i === 0 ? 0 : i - 1]));
    // drawn only for the shapes that have short sessions, so the other shapes keep their bytes
    const short = spec.shortShare !== undefined && !big && rng.chance(spec.shortShare) ? true : undefined;
    // ~6 % subagent transcripts under their parent session's folder
    if (!big && parent && rng.chance(0.06)) {
      const agentId = rng.hex(7);
      files.push({
        agent: 'claude-code',
        path: `.claude/projects/${parent.slug}/${parent.sessionId}/subagents/agent-${agentId}.jsonl`,
        sessionId: parent.sessionId,
        cwd: parent.cwd,
        subagent: agentId,
        startMs: parent.startMs,
        bytes,
        short,
      });
      continue;
    }
    const sessionId = rng.uuid();
    parent = { slug, sessionId, cwd, startMs };
    files.push({
      agent: 'claude-code',
      path: `.claude/projects/${slug}/${sessionId}.jsonl`,
      sessionId,
      cwd,
      startMs,
      bytes,
      big,
      short,
    });
  }
  const codexWeights = weights(spec.codexFiles);
  for (let i = 0; i < spec.codexFiles; i++) {
    const startMs = t0 + rng.int(0, 80 * 86400) * 1000;
    const d = new Date(startMs).toISOString();
    const id = rng.uuid();
    const stamp = d.slice(0, 19).replace(/:/g, '-');
    files.push({
      agent: 'codex',
      path: `.codex/sessions/${d.slice(0, 4)}/${d.slice(5, 7)}/${d.slice(8, 10)}/rollout-${stamp}-${id}.jsonl`,
      sessionId: id,
      cwd: rng.pick(projects),
      startMs,
      bytes: Math.max(25_000, Math.round(spec.codexBytes * codexWeights[i])),
    });
  }
  // multi-MB lines: a few in the big file, the rest spread; one line over the 16 MiB reader limit
  const extras = rngFrom(`extras-${size}`);
  if (spec.multiMbLines > 0) files[0].multiMb = Math.ceil(spec.multiMbLines / 3);
  for (let i = 0; i < spec.multiMbLines - (files[0].multiMb ?? 0); i++) {
    const f = files[extras.int(1, files.length - 1)];
    f.multiMb = (f.multiMb ?? 0) + 1;
  }
  if (spec.hugeLineBytes > 0) files[Math.floor(files.length / 3)].hugeLine = spec.hugeLineBytes;
  for (const f of files) if (f.multiMb) f.multiMbRange = spec.multiMb;
  return files;
}

/** Writes one planned file. Returns its byte size and the secrets planted. */
export function writeFile(root, file) {
  const rng = rngFrom(file.path);
  const w = new LineWriter(join(root, file.path));
  const secrets = { rate: 0.004, planted: 0 };
  // spread the multi-MB outputs over the file (about one tool call per 6 KB)
  const multi = file.multiMb
    ? { remaining: file.multiMb, chance: Math.min(1, (file.multiMb * 6000) / file.bytes), bytes: 0 }
    : undefined;
  if (file.agent === 'claude-code') {
    const s = claudeSession(rng, file);
    if (!file.subagent) w.line({ type: 'summary', summary: sentence(rng, 3, 8), leafUuid: rng.uuid() });
    let hugeDone = !file.hugeLine;
    while (w.bytes < file.bytes || (multi && multi.remaining > 0)) {
      if (multi) {
        multi.bytes = rng.int(file.multiMbRange[0], file.multiMbRange[1]);
        if (w.bytes >= file.bytes) multi.chance = 1;
      }
      claudeTurn(s, w, { secrets, big: multi, until: file.bytes, runaway: file.big, short: file.short });
      if (!hugeDone && w.bytes > file.bytes / 2) {
        // one tool result over the reader's 16 MiB line cap (a `cat` of a build log): skipped with a warning
        hugeDone = true;
        const toolId = `toolu_01${rng.alnum(22)}`;
        w.line(
          claudeEnvelope(s, 'user', {
            message: {
              role: 'user',
              content: [
                { tool_use_id: toolId, type: 'tool_result', content: 'x'.repeat(file.hugeLine), is_error: false },
              ],
            },
          }),
        );
      }
    }
  } else {
    const s = codexSession(rng, { id: file.sessionId, cwd: file.cwd, startMs: file.startMs });
    codexMeta(s, w);
    let hugeDone = !file.hugeLine;
    while (w.bytes < file.bytes || (multi && multi.remaining > 0)) {
      if (multi) {
        multi.bytes = rng.int(file.multiMbRange[0], file.multiMbRange[1]);
        if (w.bytes >= file.bytes) multi.chance = 1;
      }
      codexTurn(s, w, { secrets, big: multi, until: file.bytes });
      if (!hugeDone && w.bytes > file.bytes / 2) {
        hugeDone = true;
        w.line(
          envelope(s, 'response_item', {
            type: 'function_call_output',
            call_id: 'call_huge',
            output: 'y'.repeat(file.hugeLine),
          }),
        );
      }
    }
  }
  w.close();
  return { bytes: w.bytes, secrets: secrets.planted };
}

/** Appends about `bytes` of new turns to an existing session file (same session id, cwd). */
export function appendTurns(root, file, bytes, seed) {
  const rng = rngFrom(`${file.path}#append#${seed}`);
  const w = new LineWriter(join(root, file.path), 'a');
  const secrets = { rate: 0.004, planted: 0 };
  const startMs = file.startMs + 90 * 86400 * 1000;
  if (file.agent === 'claude-code') {
    const s = claudeSession(rng, { sessionId: file.sessionId, cwd: file.cwd, startMs, subagent: file.subagent });
    s.turns = 5;
    while (w.bytes < bytes) claudeTurn(s, w, { secrets, until: bytes });
  } else {
    const s = codexSession(rng, { id: file.sessionId, cwd: file.cwd, startMs });
    s.turns = 5;
    while (w.bytes < bytes) codexTurn(s, w, { secrets, until: bytes });
  }
  w.close();
  return { bytes: w.bytes, secrets: secrets.planted };
}
