// The line of a failing command's output a rule quotes, and the identity of an error across sessions.

import { stripTerminalCodes } from '../../util/terminalCodes';

// Strong markers name the cause; weak ones only say that something failed (a summary banner).
const STRONG_ERROR =
  /(?:\b\w*(?:Error|Exception)\b:|\berror\b\s|error TS\d+|cannot find|not found|no such|ENOENT|EACCES|denied|refused|mismatch|undefined is not|is not defined|expected)/i;
const WEAK_ERROR = /(error|fail|cannot|missing)/i;
/** `ActiveRecord::PendingMigrationError: …`, `ModuleNotFoundError: …`, `NullPointerException`. */
const NAMED_ERROR = /\b[A-Z]\w*(?:Error|Exception)\b/;
const TEST_FILE = /[\w/.-]*(?:_spec|_test|\.test|\.spec|Test)\.\w+\b|\btests?\/[\w/.-]+\.\w+/;

/** The most telling line of a failing output, trimmed for a rule. */
export function errorLine(output: string): string | undefined {
  // sessions stored before escape codes were stripped at import still hold them
  const lines = stripTerminalCodes(output)
    .split('\n')
    .map((l) => l.replace(/[\u2500-\u257f\u23af❯×✗]+/g, ' ').trim())
    .filter((l) => l && !/^Exit code \d+$/.test(l) && !/^\[\.\.\. \d+ characters cut \.\.\.\]$/.test(l));
  // a line naming the error's class says what went wrong; one naming the test file that happened to load first does not
  const line =
    lines.find((l) => NAMED_ERROR.test(l) && !TEST_FILE.test(l)) ??
    lines.find((l) => STRONG_ERROR.test(l) && !TEST_FILE.test(l)) ??
    lines.find((l) => STRONG_ERROR.test(l)) ??
    lines.find((l) => WEAK_ERROR.test(l)) ??
    lines[0];
  if (!line) return undefined;
  // `3:1  error …` positions differ between sessions and say nothing in a rule
  const clean = line
    .replace(/^\d+:\d+\s+/, '')
    .replace(/`/g, "'")
    .replace(/\s{2,}/g, ' ');
  return clean.length > 120 ? `${clean.slice(0, 117)}…` : clean;
}

/** Error identity across sessions: paths, numbers and quoted values removed. */
export function errorKey(error: string): string {
  return error
    .toLowerCase()
    .replace(/(?:\/|\.\/)?[\w.-]+\/[\w./-]+/g, '<path>')
    .replace(/\d+/g, '#')
    .replace(/['"][^'"]*['"]/g, '<v>')
    .replace(/\s+/g, ' ')
    .trim();
}
