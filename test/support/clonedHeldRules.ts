import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProposalStore } from '../../src/core/store/proposals';
import { TraceStore } from '../../src/core/store/traceStore';
import { WorkspaceState } from '../../src/core/store/workspaceState';
import { poisonCorpus } from '../../testing/poisonCorpus';
import { CLONED_PLAYBOOK } from '../../testing/poisonRun';
import { tempDir } from '../../testing/tmp';

/**
 * A cloned repository whose own playbook holds poisoned rules (held back from the other files), and a store with one
 * quiet session of it: what a learn run there proposes is the held rules' fate alone.
 */
export async function clonedWithHeldRules(prefix: string) {
  const root = tempDir(prefix);
  const workspace = join(root, 'cloned');
  mkdirSync(join(workspace, '.combee'), { recursive: true });
  writeFileSync(join(workspace, '.combee', 'playbook.md'), CLONED_PLAYBOOK);
  const storeDir = join(root, 'store');
  const store = new TraceStore(storeDir);
  const quiet = poisonCorpus(workspace).find((s) => s.benign?.id === 'B-01');
  if (!quiet) throw new Error('the poisoning corpus has no benign session B-01');
  await store.saveTrace({ ...quiet.trace, steps: quiet.trace.steps.slice(0, 1) });
  const proposals = new ProposalStore(new WorkspaceState(store.dir));
  return { workspace, storeDir, store, proposals, common: ['--store', storeDir, '--workspace', workspace] };
}
