import type { AgentId, Trace } from '../trace/model';
import { editedFiles } from '../trace/edits';
import { escapeRegExp } from '../util/regExp';

// A rule is in play for a session when the session's agent loaded a file that held the rule when the session ran:
// the rule can help (or hurt) without being cited. Which files an agent loads by itself is fixed by the agent; a
// session that read one of Combee's asset files (a Read of AGENTS.md, say) had it loaded too. A folder's own
// AGENTS.md (or CLAUDE.md) counts for a session that edited files in that folder.

/** The asset files each agent loads at the root of its workspace, by itself. */
export const AGENT_READS: Readonly<Record<AgentId, readonly string[]>> = {
  'claude-code': ['CLAUDE.md'],
  codex: ['AGENTS.md'],
  opencode: ['AGENTS.md'],
  copilot: ['.github/copilot-instructions.md', 'AGENTS.md'],
  cursor: ['.cursor/rules/combee.mdc', 'AGENTS.md'],
  cline: ['.clinerules/combee.md'],
  'roo-code': ['.clinerules/combee.md'],
  'gemini-cli': ['GEMINI.md'],
  continue: [],
  aider: [],
};

/** One version of an asset file: the rule ids it held from `at` on (ISO time; a commit's or the file's own). */
export interface AssetVersion {
  path: string;
  at: string;
  ruleIds: readonly string[];
}

/** What a session had loaded of one file: its latest version from before the session started. */
function versionAt(versions: readonly AssetVersion[], path: string, time: string): AssetVersion | undefined {
  // as instants: readers keep a session's time as its agent wrote it (an offset, no milliseconds)
  const when = Date.parse(time);
  let found: AssetVersion | undefined;
  for (const v of versions) {
    const at = Date.parse(v.at);
    if (v.path === path && at <= when && (!found || at >= Date.parse(found.at))) found = v;
  }
  return found;
}

/** A tool call's input naming this workspace file as a whole path (not `billing/AGENTS.md` for `AGENTS.md`). */
function fileMention(path: string, cwd: string | undefined): RegExp {
  const before = `(?:^|[\\s"'=:(]${cwd ? `|${escapeRegExp(`${cwd.replace(/\/+$/, '')}/`)}` : ''})(?:\\./)?`;
  return new RegExp(`${before}${escapeRegExp(path)}(?=$|[\\s"',)])`);
}

function folderOf(path: string): string | undefined {
  const at = path.lastIndexOf('/');
  return at > 0 ? path.slice(0, at) : undefined;
}

/** The asset files the session loaded: its agent's own, a folder's where it edited, any it read. */
export function loadedAssets(trace: Trace, assetPaths: readonly string[]): Set<string> {
  const own = new Set(AGENT_READS[trace.agent] ?? []);
  const names = new Set([...own].map((p) => p.slice(p.lastIndexOf('/') + 1)));
  const edited = trace.steps.flatMap((s) => (s.kind === 'tool_call' ? editedFiles(s, trace.cwd) : []));
  const loaded = new Set<string>();
  for (const path of assetPaths) {
    const folder = folderOf(path);
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (own.has(path)) loaded.add(path);
    // a folder's AGENTS.md or CLAUDE.md, for an agent that reads that name at the root, where it edited
    else if (folder && names.has(name) && !own.has(path) && edited.some((f) => f.startsWith(`${folder}/`)))
      loaded.add(path);
  }
  const mentions = assetPaths.map((path) => ({ path, named: fileMention(path, trace.cwd) }));
  for (const step of trace.steps) {
    if (step.kind !== 'tool_call' || /write|edit|patch|replace/i.test(step.tool)) continue;
    for (const { path, named } of mentions) if (named.test(step.input)) loaded.add(path);
  }
  return loaded;
}

/**
 * The ids of the rules the session had in play. A session without a start time cannot be placed against the
 * files' history: none are (it still counts for the rules it cites, which the reflector tags).
 */
export function rulesInPlay(trace: Trace, versions: readonly AssetVersion[]): Set<string> {
  const ids = new Set<string>();
  if (!trace.startedAt) return ids;
  const paths = [...new Set(versions.map((v) => v.path))];
  for (const path of loadedAssets(trace, paths)) {
    const version = versionAt(versions, path, trace.startedAt);
    for (const id of version?.ruleIds ?? []) ids.add(id);
  }
  return ids;
}
