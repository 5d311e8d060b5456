import { createInterface } from 'node:readline/promises';
import { redactText } from '../core/trace/redact';
import { lineProgress, terminalProgress, type Progress } from './progress';

/** All CLI output goes through here: stdout for results, stderr for progress and warnings. */
export interface Output {
  result(text: string): void;
  info(text: string): void;
  warn(text: string): void;
  /** A progress display; without one, progress is plain `info` lines. */
  progress?(title: string): Progress;
  /** A question answered on a terminal; absent when there is none to answer it (a pipe, CI). */
  ask?(question: string): Promise<string>;
}

export const consoleOutput: Output = {
  result: (text) => process.stdout.write(`${text}\n`),
  info: (text) => process.stderr.write(`${text}\n`),
  warn: (text) => process.stderr.write(`warning: ${text}\n`),
  progress: (title) =>
    process.stderr.isTTY ? terminalProgress(title) : lineProgress(title, (line) => process.stderr.write(`${line}\n`)),
  // read when asked for: only a command that asks touches stdin
  get ask() {
    return process.stdin.isTTY ? askOnTerminal : undefined;
  },
};

async function askOnTerminal(question: string): Promise<string> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await prompt.question(question);
  } finally {
    prompt.close();
  }
}

/** Every line the CLI prints (results, `--json`, progress, warnings) through the built-in secret rules first. */
export function redactingOutput(out: Output): Output {
  return {
    result: (text) => out.result(redactText(text)),
    info: (text) => out.info(redactText(text)),
    warn: (text) => out.warn(redactText(text)),
    // a progress display shows counts and the title it is given, no session text
    progress: out.progress?.bind(out),
    get ask() {
      const ask = out.ask;
      return ask && ((question: string) => ask(redactText(question)));
    },
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
