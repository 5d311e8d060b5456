import { mkdir, readdir } from 'node:fs/promises';
import { homedir, platform } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { atomicWrite, readJsonFile } from '../util/fs';
import { shortHash } from '../util/hash';
import { Trace } from './model';

/** The per-user data folder: `COMBEE_STORE`, else the platform's app-data location. Never inside a repository. */
export function defaultStoreDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.COMBEE_STORE) return resolve(env.COMBEE_STORE);
  switch (platform()) {
    case 'win32':
      return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'combee');
    case 'darwin':
      return join(homedir(), 'Library', 'Application Support', 'combee');
    default:
      return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'combee');
  }
}

const ImportedFile = z.object({ agent: z.string(), bytes: z.number(), mtimeMs: z.number(), traceIds: z.array(z.string()) });
const ImportIndex = z.object({ version: z.literal(1), files: z.record(z.string(), ImportedFile) });
export type ImportIndex = z.infer<typeof ImportIndex>;
export type ImportedFile = z.infer<typeof ImportedFile>;

const LearnedState = z.object({ version: z.literal(1), learned: z.record(z.string(), z.string()) });
export type LearnedState = z.infer<typeof LearnedState>;

/** Normalized, redacted traces plus the import index and per-workspace learning state. */
export class TraceStore {
  constructor(readonly dir: string) {}

  private traceFile(id: string): string {
    const [agent] = id.split(':');
    return join(this.dir, 'traces', agent, `${id.slice(agent.length + 1).replace(/[^A-Za-z0-9._-]/g, '_')}-${shortHash(id, 8)}.json`);
  }

  async saveTrace(trace: Trace): Promise<void> {
    await atomicWrite(this.traceFile(trace.id), JSON.stringify(trace));
  }

  async loadTrace(id: string): Promise<Trace | undefined> {
    const json = await readJsonFile(this.traceFile(id));
    if (json === undefined) return undefined;
    const parsed = Trace.safeParse(json);
    return parsed.success ? parsed.data : undefined;
  }

  /** Every stored trace that validates; invalid files (an older schema, a damaged write) are reported, not thrown. */
  async listTraces(onInvalid?: (file: string) => void): Promise<Trace[]> {
    const root = join(this.dir, 'traces');
    const traces: Trace[] = [];
    let agents: string[] = [];
    try {
      agents = await readdir(root);
    } catch {
      return traces;
    }
    for (const agent of agents.sort()) {
      const files = (await readdir(join(root, agent))).filter((f) => f.endsWith('.json')).sort();
      for (const file of files) {
        const path = join(root, agent, file);
        const parsed = Trace.safeParse(await readJsonFile(path).catch(() => undefined));
        if (parsed.success) traces.push(parsed.data);
        else onInvalid?.(path);
      }
    }
    return traces;
  }

  async loadIndex(): Promise<ImportIndex> {
    const parsed = ImportIndex.safeParse(await readJsonFile(join(this.dir, 'imports.json')).catch(() => undefined));
    return parsed.success ? parsed.data : { version: 1, files: {} };
  }

  async saveIndex(index: ImportIndex): Promise<void> {
    await atomicWrite(join(this.dir, 'imports.json'), JSON.stringify(index));
  }

  workspaceDir(workspace: string): string {
    const abs = resolve(workspace);
    const name = abs.split(/[\\/]/).filter(Boolean).pop() ?? 'root';
    return join(this.dir, 'workspaces', `${name.replace(/[^A-Za-z0-9._-]/g, '_')}-${shortHash(abs, 10)}`);
  }

  async loadLearned(workspace: string): Promise<LearnedState> {
    const parsed = LearnedState.safeParse(await readJsonFile(join(this.workspaceDir(workspace), 'learned.json')).catch(() => undefined));
    return parsed.success ? parsed.data : { version: 1, learned: {} };
  }

  async markLearned(workspace: string, traceIds: string[], runId: string): Promise<void> {
    const state = await this.loadLearned(workspace);
    for (const id of traceIds) state.learned[id] = runId;
    await atomicWrite(join(this.workspaceDir(workspace), 'learned.json'), JSON.stringify(state, null, 1));
  }

  runsDir(workspace: string): string {
    return join(this.workspaceDir(workspace), 'runs');
  }

  async ensure(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }
}
