import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Turn {
  user?: string;
  /** `cwd`: the folder the shell was in when the call ran (an earlier call's `cd` moved it), as each entry records. */
  bash?: { command: string; output: string; exitCode?: number; cwd?: string };
}

/** Claude Code 2.1.x envelopes of one session: each `next()` is the next record's uuid, parent link and time (1 s apart). */
export function claudeEnvelopes(
  sessionId: string,
  cwd: string,
  startedAt: string,
): { next(): Record<string, unknown>; readonly count: number } {
  let n = 0;
  let parent: string | null = null;
  const t0 = Date.parse(startedAt);
  return {
    next() {
      n++;
      const uuid = `${sessionId.slice(0, 8)}-0000-4000-8000-${String(n).padStart(12, '0')}`;
      const record = {
        parentUuid: parent,
        isSidechain: false,
        userType: 'external',
        cwd,
        sessionId,
        version: '2.1.50',
        gitBranch: 'main',
        uuid,
        timestamp: new Date(t0 + n * 1000).toISOString(),
      };
      parent = uuid;
      return record;
    },
    get count() {
      return n;
    },
  };
}

/** Writes a small but real-shaped Claude Code session file (2.1.x envelopes) and returns its path. */
export function writeClaudeSession(
  dir: string,
  sessionId: string,
  cwd: string,
  turns: Turn[],
  startedAt = '2026-11-02T09:00:00.000Z',
): string {
  const lines: unknown[] = [];
  const envelopes = claudeEnvelopes(sessionId, cwd, startedAt);
  const env = () => envelopes.next();
  for (const turn of turns) {
    if (turn.user) lines.push({ ...env(), type: 'user', message: { role: 'user', content: turn.user } });
    if (turn.bash) {
      const id = `toolu_${sessionId.slice(0, 4)}${envelopes.count}`;
      const at = turn.bash.cwd === undefined ? {} : { cwd: turn.bash.cwd };
      lines.push({
        ...env(),
        ...at,
        type: 'assistant',
        message: {
          id: `msg_${envelopes.count}`,
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'tool_use', id, name: 'Bash', input: { command: turn.bash.command } }],
        },
      });
      const failed = (turn.bash.exitCode ?? 0) !== 0;
      const content = failed ? `Exit code ${turn.bash.exitCode}\n${turn.bash.output}` : turn.bash.output;
      lines.push({
        ...env(),
        ...at,
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error: failed }] },
        toolUseResult: { stdout: turn.bash.output, stderr: '', interrupted: false, isImage: false },
      });
    }
  }
  const slug = cwd.replace(/[^A-Za-z0-9]/g, '-');
  mkdirSync(join(dir, 'projects', slug), { recursive: true });
  const path = join(dir, 'projects', slug, `${sessionId}.jsonl`);
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return path;
}

/** The planted prerequisite lesson: `pnpm test` needs `pnpm db:generate` first. */
export function prerequisiteTurns(): Turn[] {
  return [
    { user: 'Please fix the failing cart total test.' },
    { bash: { command: 'pnpm test', output: "Error: Cannot find module '.prisma/client/default'", exitCode: 1 } },
    { bash: { command: 'pnpm db:generate', output: '✔ Generated Prisma Client' } },
    { bash: { command: 'pnpm test', output: 'Test Files 12 passed (12)' } },
  ];
}
