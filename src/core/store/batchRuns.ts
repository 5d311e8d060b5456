import { join } from 'node:path';
import { z } from 'zod';
import { atomicWrite, readJsonFile } from '../util/io';
import type { WorkspaceState } from './workspaceState';

/** A learning run whose reflections were sent through the Batch API: enough to pick it up again in another process. */
export const BatchRun = z.object({
  version: z.literal(1),
  /** The provider's batch id; also the name the run is resumed by. */
  batchId: z.string().min(1),
  inputFileId: z.string(),
  /** Where it was sent: a resume sends nothing elsewhere. */
  baseUrl: z.string(),
  model: z.string(),
  /** The playbook every request was made against. */
  playbookSha: z.string(),
  traceIds: z.array(z.string()),
  /** The learn command's own flags, so `--resume <id>` learns as the run was asked to. */
  argv: z.array(z.string()),
  status: z.enum(['submitted', 'learned']),
  proposalId: z.string().optional(),
});
export type BatchRun = z.infer<typeof BatchRun>;

const fileName = (batchId: string) => `${batchId.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;

export class BatchRuns {
  constructor(
    private readonly state: WorkspaceState,
    private readonly workspace: string,
  ) {}

  private path(batchId: string): string {
    return join(this.state.dir(this.workspace), 'batch-runs', fileName(batchId));
  }

  async save(run: BatchRun): Promise<void> {
    await atomicWrite(this.path(run.batchId), `${JSON.stringify(run, null, 2)}\n`);
  }

  /** `undefined` when there is no such run (or its file is damaged). */
  async load(batchId: string): Promise<BatchRun | undefined> {
    const parsed = BatchRun.safeParse(await readJsonFile(this.path(batchId)).catch(() => undefined));
    return parsed.success ? parsed.data : undefined;
  }
}
