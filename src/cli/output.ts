import { redactText } from '../core/trace/redact';

/** All CLI output goes through here: stdout for results, stderr for progress and warnings. */
export interface Output {
  result(text: string): void;
  info(text: string): void;
  warn(text: string): void;
}

export const consoleOutput: Output = {
  result: (text) => process.stdout.write(`${text}\n`),
  info: (text) => process.stderr.write(`${text}\n`),
  warn: (text) => process.stderr.write(`warning: ${text}\n`),
};

/** Every line the CLI prints (results, `--json`, progress, warnings) through the built-in secret rules first. */
export function redactingOutput(out: Output): Output {
  return {
    result: (text) => out.result(redactText(text)),
    info: (text) => out.info(redactText(text)),
    warn: (text) => out.warn(redactText(text)),
  };
}

/** A word as a POSIX shell reads it back unchanged (paths with spaces or quotes in printed commands). */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
