import { homedir } from 'node:os';
import { sep } from 'node:path';
import type { SessionPage } from './sessionList';

/** A path as a person recognises it: under the home folder, with `~`. */
export function shortPath(path: string, home = homedir()): string {
  return home && (path === home || path.startsWith(`${home}/`) || path.startsWith(`${home}${sep}`))
    ? `~${path.slice(home.length)}`
    : path;
}

/**
 * Why the Sessions view is empty, as the read-only page its welcome links to: which folders this workspace is, every
 * folder searched (one a line: the view shows only the short welcome), and which other folders the store holds sessions
 * of (a session belongs to the folder it ran in).
 */
export function emptySessionsReport(
  workspaces: readonly string[],
  page: SessionPage,
  searched: readonly string[],
  home = homedir(),
): string {
  const here = workspaces.length > 0 ? workspaces.map((w) => shortPath(w, home)).join(', ') : 'no folder is open';
  const lines = [
    page.total > 0
      ? `${page.total} session(s) ran in this workspace (${here}).`
      : `No agent session ran in this workspace (${here}).`,
    '',
    `Searched (${searched.length}):`,
    ...searched.map((s) => `  ${s}`),
    '',
  ];
  const { sessions, folders } = page.elsewhere;
  if (sessions > 0) {
    const rest = sessions - folders.reduce((n, f) => n + f.sessions, 0);
    lines.push(
      `${sessions} session(s) found belong to other folders; open one of them to learn from its sessions:`,
      ...folders.map((f) => `  ${shortPath(f.cwd, home)} (${f.sessions})`),
      ...(rest > 0 ? [`  and ${rest} more`] : []),
    );
  } else lines.push('No session was found in those folders yet.');
  lines.push(
    '',
    'Import Sessions… reads a folder of session logs once; Add Session Folders (combee.sources.extraFolders) watches one.',
  );
  return `${lines.join('\n')}\n`;
}
