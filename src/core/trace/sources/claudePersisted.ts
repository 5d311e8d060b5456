import { lstatSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// Claude Code writes a tool output too large for the transcript to `<session folder>/tool-results/<name>.txt` and
// keeps a 2 KB preview behind a `<persisted-output>` marker naming that file. The full output is read back from the
// session's own folder only: the marker gives a file name, never a folder, so a transcript cannot choose what is read.

const MARKER = /^\s*<persisted-output>/;
const SAVED_TO = /saved to:?\s*([^\n]+)/i;
const SAFE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** `<project>/<session>/tool-results` of a session file, or of a subagent's (`<project>/<session>/subagents/…`). */
export function toolResultsFolder(sessionFile: string, subagent: boolean): string {
  const sessionFolder = subagent
    ? dirname(dirname(sessionFile))
    : join(dirname(sessionFile), basename(sessionFile, '.jsonl'));
  return join(sessionFolder, 'tool-results');
}

/**
 * The full output a `<persisted-output>` result points to, or `undefined` (not such a result, the file gone, not a
 * plain file, or bigger than `maxBytes`): then the preview is what there is.
 */
export function persistedOutput(result: string, folder: string | undefined, maxBytes: number): string | undefined {
  if (!folder || !MARKER.test(result)) return undefined;
  const named = SAVED_TO.exec(result.slice(0, 2000))?.[1]?.trim();
  const name = named?.split(/[\\/]/).pop();
  if (!name || !SAFE_NAME.test(name)) return undefined;
  try {
    // neither the folder nor the file may be a link out of the session's folder
    const dir = lstatSync(folder);
    if (!dir.isDirectory() || dir.isSymbolicLink()) return undefined;
    const path = join(folder, name);
    const file = lstatSync(path);
    if (!file.isFile() || file.size > maxBytes) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
