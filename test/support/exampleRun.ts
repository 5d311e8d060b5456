import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { importSessions } from '../../src/core/import/importer';
import type { RunRecord } from '../../src/core/learn/record/record';
import { offlineRoles } from '../../src/core/llm/providers';
import {
  learnWorkspace,
  type LearnWorkspaceOptions,
  type LearnWorkspaceResult,
} from '../../src/core/service/learnWorkspace';
import { ProposalStore } from '../../src/core/store/proposals';
import { TraceStore } from '../../src/core/store/traceStore';
import { WorkspaceState } from '../../src/core/store/workspaceState';
import { EXAMPLES } from './paths';
import { tempDir } from '../../testing/tmp';

/** The offline learner over the example sessions (Claude Code and Codex), seed 7, as a dry run. */
export async function learnExamples(onSnapshot?: LearnWorkspaceOptions['onSnapshot']): Promise<LearnWorkspaceResult> {
  const root = tempDir('combee-example-run-');
  const store = new TraceStore(join(root, 'store'));
  for (const agent of ['claude-code', 'codex'])
    await importSessions({ from: join(EXAMPLES, 'sessions', agent), store });
  const workspace = join(root, 'ws');
  mkdirSync(workspace);
  const roles = offlineRoles();
  return learnWorkspace({
    store,
    proposals: new ProposalStore(new WorkspaceState(store.dir)),
    workspace,
    ...roles,
    provider: roles.info,
    allWorkspaces: true,
    dryRun: true,
    seed: 7,
    onSnapshot,
  });
}

/** A real run record: the one `learnExamples` makes. */
export async function exampleRunRecord(): Promise<RunRecord> {
  const result = await learnExamples();
  if (!result.record) throw new Error('the example run recorded nothing');
  return result.record;
}
