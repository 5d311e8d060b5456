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

/** A word as a POSIX shell reads it back unchanged (paths with spaces or quotes in printed commands). */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
