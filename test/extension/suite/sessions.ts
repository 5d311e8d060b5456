// Sessions the extension tests write where the capture folder (combee.sources.extraFolders) points.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureHome, workspaceFolder } from './combee';

let sessionCounter = 0;
/** A new Claude Code session in the capture folder, recorded in this workspace: a user correction and a fix. */
export function writeSession(correction: string, failing: [string, string], fixed: [string]): string {
  const home = captureHome();
  const cwd = workspaceFolder().uri.fsPath;
  const sessionId = `9e${String(++sessionCounter).padStart(6, '0')}-0000-4000-8000-000000000000`;
  const dir = join(home, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(dir, { recursive: true });
  let n = 0;
  const line = (extra: Record<string, unknown>) =>
    JSON.stringify({
      sessionId,
      cwd,
      version: '2.1.50',
      uuid: `${sessionId}-${++n}`,
      timestamp: new Date(Date.now() - 60_000 + n * 1000).toISOString(),
      ...extra,
    });
  const bash = (command: string, output: string, code: number) => {
    const id = `toolu_${sessionCounter}_${n}`;
    return [
      line({
        type: 'assistant',
        message: {
          id: `msg_${sessionCounter}_${n}`,
          role: 'assistant',
          content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }],
        },
      }),
      line({
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
      }),
    ];
  };
  const lines = [
    line({ type: 'user', message: { role: 'user', content: 'Please update the checkout module.' } }),
    ...bash('pnpm proto:check', 'ok', 0),
    line({ type: 'user', message: { role: 'user', content: correction } }),
    ...bash(failing[0], failing[1], 1),
    ...bash(fixed[0], 'ok', 0),
    ...bash(failing[0], 'ok', 0),
  ];
  writeFileSync(join(dir, `${sessionId}.jsonl`), `${lines.join('\n')}\n`);
  return `claude-code:${sessionId}`;
}
