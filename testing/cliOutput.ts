import type { Output } from '../src/cli/output';

/** A CLI Output that keeps what a command printed: results (stdout) and progress and warnings (stderr). */
export function capture(): Output & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    result: (t) => stdout.push(t),
    info: (t) => stderr.push(t),
    warn: (t) => stderr.push(`warning: ${t}`),
  };
}
