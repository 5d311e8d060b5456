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
 * `command` with its Unix home folders hidden where the shell would expand the replacement to the same folder.
 * Windows home folders in a command are left as they are: the line is no bash, and neither `~` nor `$HOME` means
 * the same in `cmd.exe`.
 */
export function hideHomesInCommand(command: string): string {
  UNIX_HOME_PATH.lastIndex = 0;
  if (!UNIX_HOME_PATH.test(command)) return command;
  const parsed = parseCommand(command);
  if (!parsed) return command;
  return command.replace(UNIX_HOME_PATH, (match, _user, at: number) => {
    const wordStart = at === 0 || WORD_START.test(command[at - 1]);
    return homeIn(parsed.quotingAt(at), wordStart) ?? match;
  });
}
