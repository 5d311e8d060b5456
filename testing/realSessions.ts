import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

// Real sessions from public repositories live beside the project (`../shared/real-sessions`), never inside it: they are
// other people's words. Tests and benchmarks read them in place and skip with a message when they are absent.

function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = resolve(dir, '..');
    if (up === dir) return resolve(__dirname, '..');
    dir = up;
  }
  return dir;
}

/** `COMBEE_REAL_SESSIONS` when set (a checkout elsewhere), else `../shared/real-sessions` beside the repository. */
export const REAL_SESSIONS = process.env.COMBEE_REAL_SESSIONS ?? resolve(repoRoot(), '..', 'shared', 'real-sessions');

/** The folder of one real corpus (`entireio-cli`, `monochromatic-aider`, …), or undefined when it is absent. */
export function realCorpus(name: string): string | undefined {
  const dir = join(REAL_SESSIONS, name);
  return existsSync(dir) ? dir : undefined;
}

/** The line a skipped test or benchmark prints when a corpus is absent. */
export function realCorpusMissing(name: string): string {
  return `real-session corpus ${name} not found under ${REAL_SESSIONS} (set COMBEE_REAL_SESSIONS): skipped`;
}
