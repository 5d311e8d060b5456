// Sessions the extension tests write where the capture folder (combee.sources.extraFolders) points.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureHome, workspaceFolder } from './combee';

/** Builds one Claude Code session's JSONL, line by line, as Claude Code writes it (the records the reader reads). */
export class ClaudeSession {
  private n = 0;
  private readonly lines: string[] = [];
  private file: string | undefined;
  private written = 0;

  constructor(
    readonly sessionId: string,
    private readonly cwd: string = workspaceFolder().uri.fsPath,
    /** Record times: a minute ago onwards, a second apart (`now`: all at the time of writing). */
    private readonly clock: 'recent' | 'now' = 'recent',
  ) {}

  private line(extra: Record<string, unknown>): void {
    this.n++;
    this.lines.push(
      JSON.stringify({
        sessionId: this.sessionId,
        cwd: this.cwd,
        version: '2.1.50',
        uuid: `${this.sessionId}-${this.n}`,
        timestamp: new Date(this.clock === 'now' ? Date.now() : Date.now() - 60_000 + this.n * 1000).toISOString(),
        ...extra,
      }),
    );
  }

  user(content: string): this {
    this.line({ type: 'user', message: { role: 'user', content } });
    return this;
  }

  /** A Bash call and its result (`code` 0: passed; else failed, with Claude Code's exit code line). */
  bash(command: string, output: string, code: number): this {
    const id = `toolu_${this.sessionId.slice(0, 8)}_${this.n}`;
    this.line({
      type: 'assistant',
      message: {
        id: `msg_${this.sessionId.slice(0, 8)}_${this.n}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }],
      },
    });
    this.line({
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: id,
            content: code ? `Exit code ${code}\n${output}` : output,
            is_error: code !== 0,
          },
        ],
      },
    });
    return this;
  }

  /** Writes it where Claude Code keeps it: `<home>/projects/<cwd slug>/<session id>.jsonl`. */
  write(home: string = captureHome()): string {
    const dir = join(home, 'projects', this.cwd.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, `${this.sessionId}.jsonl`);
    writeFileSync(this.file, `${this.lines.join('\n')}\n`);
    this.written = this.lines.length;
    return `claude-code:${this.sessionId}`;
  }

  /** Appends the lines added since it was written, as the agent does while the session goes on. */
  append(): void {
    if (!this.file) throw new Error('write the session before appending to it');
    appendFileSync(this.file, `${this.lines.slice(this.written).join('\n')}\n`);
    this.written = this.lines.length;
  }
}

let sessionCounter = 0;
/** A new Claude Code session in the capture folder, recorded in this workspace: a user correction and a fix. */
export function writeSession(correction: string, failing: [string, string], fixed: [string]): string {
  const sessionId = `9e${String(++sessionCounter).padStart(6, '0')}-0000-4000-8000-000000000000`;
  return new ClaudeSession(sessionId)
    .user('Please update the checkout module.')
    .bash('pnpm proto:check', 'ok', 0)
    .user(correction)
    .bash(failing[0], failing[1], 1)
    .bash(fixed[0], 'ok', 0)
    .bash(failing[0], 'ok', 0)
    .write();
}
