import { runCli } from '../../src/cli/main';
import { TraceStore } from '../../src/core/store/traceStore';
import type { Trace } from '../../src/core/trace/model';
import { capture } from '../../testing/cliOutput';
import type { ChatRequest, ModelServer } from '../../testing/modelServer';
import { teamSessions } from './teamSessions';
import { tempDir } from '../../testing/tmp';

// The team tests' runs: a store holding the simulated team's sessions, and `combee learn` against a loopback model.

export interface Where {
  workspace: string;
  store: string;
}

/** A fresh store holding the team's sessions recorded in `workspace` (and `extra`), as a CI runner's would. */
export async function teamStore(workspace: string, extra: readonly Trace[] = []): Promise<string> {
  const dir = tempDir('combee-team-store-');
  const store = new TraceStore(dir);
  for (const trace of [...teamSessions(() => workspace), ...extra]) await store.saveTrace(trace);
  return dir;
}

/** A workspace and a store of the team's sessions recorded in it. */
export async function teamFixture(extra: (workspace: string) => readonly Trace[] = () => []): Promise<Where> {
  const workspace = tempDir('combee-team-ws-');
  return { workspace, store: await teamStore(workspace, extra(workspace)) };
}

export interface LearnRun {
  code: number;
  /** The --json answer, when it printed one. */
  json: ReturnType<typeof JSON.parse>;
  stdout: string;
  stderr: string;
}

/** `combee learn --json` of `where` through the server's endpoint, every session, nothing cached; `extra` on top. */
export async function learnAgainst(
  server: ModelServer,
  where: Where,
  extra: readonly string[],
  signal?: AbortSignal,
): Promise<LearnRun> {
  const out = capture();
  const code = await runCli(
    [
      'learn',
      ...['--workspace', where.workspace, '--store', where.store],
      ...['--provider', 'openai', '--base-url', server.url, '--no-cache', '--window-days', '0', '--json'],
      ...extra,
    ],
    out,
    signal,
  );
  const stdout = out.stdout.join('\n');
  return { code, json: stdout.startsWith('{') ? JSON.parse(stdout) : undefined, stdout, stderr: out.stderr.join('\n') };
}

/** The model calls that were reflections on one session. */
export const reflectionRequests = (server: ModelServer): ChatRequest[] =>
  server.requests.filter((r) =>
    /You review one coding-agent session/.test(r.messages.map((m) => m.content).join('\n')),
  );
