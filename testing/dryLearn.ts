import { offlineRoles, type Roles } from '../src/core/llm/providers';
import { learnWorkspace, type LearnWorkspaceOptions } from '../src/core/service/learnWorkspace';
import { ProposalStore } from '../src/core/store/proposals';
import type { TraceStore } from '../src/core/store/traceStore';
import { WorkspaceState } from '../src/core/store/workspaceState';

/** One learning run over a store's sessions of a workspace, seed 1, saving nothing: what a proposal would be. */
export function dryLearn(
  store: TraceStore,
  workspace: string,
  roles: Roles = offlineRoles(),
  options: Partial<LearnWorkspaceOptions> = {},
): ReturnType<typeof learnWorkspace> {
  return learnWorkspace({
    store,
    proposals: new ProposalStore(new WorkspaceState(store.dir)),
    workspace,
    ...roles,
    provider: roles.info,
    dryRun: true,
    seed: 1,
    ...options,
  });
}
