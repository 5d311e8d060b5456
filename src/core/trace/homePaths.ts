import { parseCommand, type Quoting } from './shellQuoting';

/**
 * Home folders hidden without changing what a command does. In text (outputs, messages) a home folder becomes `~`.
 * In a command line it becomes what the shell expands to the same folder where it stands: `~` at the start of an
 * unquoted word, `$HOME` elsewhere unquoted, in double quotes and in a heredoc that expands; inside single quotes
 * the quotes are closed around `"$HOME"` (`'a/Users/me/b'` → `'a'"$HOME"'/b'`, the same word). Where nothing
 * expands (a heredoc whose delimiter is quoted: its body is written as is) or the line cannot be parsed there, the
 * folder is left as it is: no form hides the name and keeps the meaning, and the meaning comes first.
 */

// Two expressions, each run only on texts whose scan saw its kind: the Windows one starts at any letter, so it is
// the slower to look for.
export const UNIX_HOME_PATH = /(?:\/home\/|\/Users\/)([A-Za-z0-9._-]+)/g;
export const WINDOWS_HOME_PATH = /\b[A-Za-z]:\\(?:\\)?Users\\(?:\\)?([A-Za-z0-9._ -]+?)(?=\\|$|["'\s])/g;

/** The home folder a working folder is in (`/Users/me/src/app` → `/Users/me`), if it is in one. */
export function homeOf(cwd: string | undefined): string | undefined {
  const m = cwd === undefined ? null : /^(?:\/home\/|\/Users\/)[A-Za-z0-9._-]+(?=\/|$)/.exec(cwd);
  return m?.[0];
}

/** Characters after which an unquoted word starts (where `~` expands). */
const WORD_START = /[\s;&|()<>]/;

function homeIn(quoting: Quoting | undefined, wordStart: boolean): string | undefined {
  switch (quoting) {
    case 'unquoted':
      return wordStart ? '~' : '$HOME';
    case 'double':
    case 'heredoc':
      return '$HOME';
    case 'single':
      return `'"$HOME"'`;
    case 'ansi-c':
      return `'"$HOME"$'`;
    default:
      return undefined;
  }
}

/**
 * `command` with its Unix home folders hidden where the shell would expand the replacement to the same folder: only
 * `home` (the session's, when its working folder tells) if given.
 * Windows home folders in a command are left as they are: the line is no bash, and neither `~` nor `$HOME` means
 * the same in `cmd.exe`.
 */
export function hideHomesInCommand(command: string, home?: string): string {
  UNIX_HOME_PATH.lastIndex = 0;
  if (!UNIX_HOME_PATH.test(command)) return command;
  const parsed = parseCommand(command);
  if (!parsed) return command;
  return command.replace(UNIX_HOME_PATH, (match: string, _user, at: number) => {
    // another user's folder (`/Users/Shared`, `/home/runner`) is not where `$HOME` leads
    if (home !== undefined && match !== home) return match;
    const wordStart = at === 0 || WORD_START.test(command[at - 1]);
    return homeIn(parsed.quotingAt(at), wordStart) ?? match;
  });
}
