import { redactText } from '../core/trace/redact';
import { lineProgress, terminalProgress, type Progress } from './progress';

/** All CLI output goes through here: stdout for results, stderr for progress and warnings. */
export interface Output {
  result(text: string): void;
  info(text: string): void;
  warn(text: string): void;
  /** A progress display; without one, progress is plain `info` lines. */
  progress?(title: string): Progress;
}

export const consoleOutput: Output = {
  result: (text) => process.stdout.write(`${text}\n`),
  info: (text) => process.stderr.write(`${text}\n`),
  warn: (text) => process.stderr.write(`warning: ${text}\n`),
  progress: (title) =>
    process.stderr.isTTY ? terminalProgress(title) : lineProgress(title, (line) => process.stderr.write(`${line}\n`)),
};

/** Every line the CLI prints (results, `--json`, progress, warnings) through the built-in secret rules first. */
export function redactingOutput(out: Output): Output {
  return {
    result: (text) => out.result(redactText(text)),
    info: (text) => out.info(redactText(text)),
    warn: (text) => out.warn(redactText(text)),
    // a progress display shows counts and the title it is given, no session text
    progress: out.progress?.bind(out),
  };
}

/** The output's progress display, or plain lines through `info`. */
export function progressOf(out: Output, title: string): Progress {
  return out.progress?.(title) ?? lineProgress(title, (line) => out.info(line));
}

/** A word as a POSIX shell reads it back unchanged (paths with spaces or quotes in printed commands). */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
