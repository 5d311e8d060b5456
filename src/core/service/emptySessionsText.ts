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
 * Why the view is empty, as the view's message: which folders this workspace is, where sessions were searched, and
 * which other folders the store holds sessions of (a session belongs to the folder it ran in).
 */
export function emptySessionsMessage(
  workspaces: readonly string[],
  page: SessionPage,
  searched: readonly string[],
  home = homedir(),
): string {
  const here = workspaces.length > 0 ? workspaces.map((w) => shortPath(w, home)).join(', ') : 'no folder is open';
  const lines = [`No agent session ran in this workspace (${here}).`, `Searched: ${searched.join('; ')}.`];
  const { sessions, folders } = page.elsewhere;
  if (sessions > 0) {
    const named = folders.map((f) => `${shortPath(f.cwd, home)} (${f.sessions})`).join(', ');
    const rest = sessions - folders.reduce((n, f) => n + f.sessions, 0);
    lines.push(
      `${sessions} session(s) found belong to other folders: ${named}${rest > 0 ? ` and ${rest} more` : ''}. Open one of those folders to learn from them.`,
    );
  } else lines.push('No session was found in those folders yet.');
  return lines.join('\n');
}
