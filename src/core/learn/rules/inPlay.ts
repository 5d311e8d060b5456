import { AGENT_LOADING, loadsAtStart, loadsInFolder } from '../../agents/loading';
import type { Trace } from '../../trace/model';
import { editedFiles } from '../../trace/edits';
import { escapeRegExp } from '../../util/regExp';

// A rule is in play for a session when the session's agent loaded a file that held the rule when the session ran:
// the rule can help (or hurt) without being cited. Which files an agent loads by itself is fixed by the agent
// (agents/loading.ts), with the files they import (`@AGENTS.md` in CLAUDE.md); a session that read one of Combee's asset
// files (a Read of AGENTS.md, say) had it loaded too. A folder's own AGENTS.md (or CLAUDE.md) counts for a session
// that edited files in that folder.

/** Claude Code follows imports five hops deep. */
const MAX_IMPORT_DEPTH = 5;

/** One version of an asset file: the rule ids it held from `at` on (ISO time; a commit's or the file's own). */
export interface AssetVersion {
  path: string;
  at: string;
  ruleIds: readonly string[];
  /** Workspace-relative files it imported with `@path` lines (see agents/imports.ts). */
  imports?: readonly string[];
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
  const edited = trace.steps.flatMap((s) => (s.kind === 'tool_call' ? editedFiles(s, trace.cwd) : []));
  const exists = (path: string) => assetPaths.includes(path);
  const loaded = new Set<string>();
  for (const path of assetPaths) {
    const folder = folderOf(path);
    if (loadsAtStart(trace.agent, path, exists)) loaded.add(path);
    // a folder's own file (AGENTS.md, CLAUDE.md), for an agent that reads that name there, where it edited
    else if (folder && loadsInFolder(trace.agent, path) && edited.some((f) => f.startsWith(`${folder}/`)))
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
  const pending = [...loadedAssets(trace, paths)].map((path) => ({ path, depth: 0 }));
  const seen = new Set(pending.map((p) => p.path));
  const follows = AGENT_LOADING[trace.agent].atImports;
  for (let next = pending.shift(); next; next = pending.shift()) {
    const version = versionAt(versions, next.path, trace.startedAt);
    for (const id of version?.ruleIds ?? []) ids.add(id);
    if (!follows || next.depth >= MAX_IMPORT_DEPTH) continue;
    for (const path of version?.imports ?? [])
      if (!seen.has(path)) {
        seen.add(path);
        pending.push({ path, depth: next.depth + 1 });
      }
  }
  return ids;
}
