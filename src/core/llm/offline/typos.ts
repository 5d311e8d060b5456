import { firstCommand } from '../../trace/commands';

// `pnmp test` → "command not found" → `pnpm test`: the agent mistyped, the repository taught nothing. A retry that
// differs from the failure in one word, within two edits, after an output saying the word was not found, is a typo.

const NOT_FOUND =
  /command not found|not found|unknown command|no such (?:file|command)|is not recognized|missing script|did you mean/i;

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

/** Whether `retry` only fixes a misspelt word of `failure` (the program, or a script name). */
export function isTypoFix(failure: string, retry: string, output: string): boolean {
  if (!NOT_FOUND.test(output)) return false;
  const a = firstCommand(failure).split(/\s+/);
  const b = firstCommand(retry).split(/\s+/);
  if (a.length !== b.length) return false;
  const differing = a.map((w, i) => [w, b[i]] as const).filter(([x, y]) => x !== y);
  if (differing.length !== 1) return false;
  const [x, y] = differing[0];
  // `python` → `python3` names another program (a version of it), not the same word spelt right
  if (x.startsWith(y) || y.startsWith(x)) return false;
  return distance(x, y) <= 2 && Math.min(x.length, y.length) >= 2;
}
