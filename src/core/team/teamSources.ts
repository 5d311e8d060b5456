import { OutsideWorkspaceError, resolveInWorkspace, workspaceRelative } from '../trust/workspacePath';
import { branchNameProblem } from './branchBundles';
import { DEFAULT_TEAM_BUNDLE_SOURCES } from './teamLimits';

// Where a workspace's team bundles are (`combee.team.bundles`): a folder of the workspace, or a folder on a branch of
// its repository (`git:<branch>:<folder>`). The entries may come from the repository's own settings, so each is
// checked here: a folder must stay inside the workspace (symbolic links followed), a branch must be a plain name.

export type TeamSource =
  | { kind: 'folder'; entry: string; /** workspace-relative */ folder: string; /** absolute */ path: string }
  | { kind: 'branch'; entry: string; branch: string; /** workspace-relative */ folder: string };

export interface ResolvedTeamSources {
  sources: TeamSource[];
  /** One line per refused entry, naming it and why. */
  problems: string[];
}

const GIT_PREFIX = 'git:';

/** The setting's entries for the workspace folder `workspace`: the usable ones, and why the others are refused. */
export function resolveTeamSources(workspace: string, entries: readonly string[]): ResolvedTeamSources {
  const sources: TeamSource[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  const refuse = (entry: string, why: string) =>
    problems.push(`combee.team.bundles: ${JSON.stringify(entry)} is refused: ${why}; it is not read`);
  for (const raw of entries) {
    const entry = raw.trim();
    let source: TeamSource;
    try {
      source = entry.startsWith(GIT_PREFIX) ? branchSource(entry, workspace) : folderSource(entry, workspace);
    } catch (error) {
      if (!(error instanceof OutsideWorkspaceError || error instanceof SourceError)) throw error;
      refuse(raw, error instanceof SourceError ? error.message : error.why);
      continue;
    }
    const key = source.kind === 'folder' ? `folder\0${source.folder}` : `branch\0${source.branch}\0${source.folder}`;
    if (seen.has(key)) continue;
    seen.add(key);
    sources.push(source);
  }
  return { sources, problems };
}

class SourceError extends Error {}

function folderSource(entry: string, workspace: string): TeamSource {
  const folder = workspaceRelative(entry, workspace);
  return { kind: 'folder', entry, folder, path: resolveInWorkspace(workspace, folder) };
}

/** `git:<branch>:<folder>`; without a folder, the default one. A branch name holds no ':' (see branchNameProblem). */
function branchSource(entry: string, workspace: string): TeamSource {
  const rest = entry.slice(GIT_PREFIX.length);
  const colon = rest.indexOf(':');
  const branch = colon < 0 ? rest : rest.slice(0, colon);
  const problem = branchNameProblem(branch);
  if (problem)
    throw new SourceError(`the branch name ${JSON.stringify(branch)} is not a plain branch name: ${problem}`);
  const folder = workspaceRelative(colon < 0 ? DEFAULT_TEAM_BUNDLE_SOURCES[0] : rest.slice(colon + 1), workspace);
  return { kind: 'branch', entry, branch, folder };
}

/** How a bundle of a source is named in logs and messages: its workspace path, or `git:<branch>:<path>`. */
export function bundleLabel(source: TeamSource, path: string): string {
  return source.kind === 'folder' ? path : `${GIT_PREFIX}${source.branch}:${path}`;
}
