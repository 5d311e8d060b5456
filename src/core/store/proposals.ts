import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWrite, readJsonFile } from '../util/io';
import type { WorkspaceState } from './workspaceState';
import { Proposal } from '../assets/proposal';
import { storedChange } from '../assets/storedText';

/** Proposals live in the per-user store until accepted; only then is anything written to the workspace. */
export class ProposalStore {
  constructor(private readonly state: WorkspaceState) {}

  private dir(workspace: string): string {
    return this.state.proposalsDir(workspace);
  }

  /** Saved with the secrets a file holds by design masked (a settings file's env values: storedText.ts). */
  async save(proposal: Proposal): Promise<void> {
    const stored = { ...proposal, files: proposal.files.map(storedChange) };
    await atomicWrite(join(this.dir(proposal.workspace), `${proposal.id}.json`), JSON.stringify(stored, null, 1));
  }

  async load(workspace: string, id: string): Promise<Proposal | undefined> {
    const parsed = Proposal.safeParse(
      await readJsonFile(join(this.dir(workspace), `${id}.json`)).catch(() => undefined),
    );
    return parsed.success ? parsed.data : undefined;
  }

  async list(workspace: string): Promise<Proposal[]> {
    let files: string[];
    try {
      files = await readdir(this.dir(workspace));
    } catch {
      return [];
    }
    const out: Proposal[] = [];
    for (const file of files.filter((f) => f.endsWith('.json')).sort()) {
      const parsed = Proposal.safeParse(await readJsonFile(join(this.dir(workspace), file)).catch(() => undefined));
      if (parsed.success) out.push(parsed.data);
    }
    return out.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }
}
