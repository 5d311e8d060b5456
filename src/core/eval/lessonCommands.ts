import { ruleCommands } from '../learn/rules/ruleEvidence';
import { firstCommand } from '../trace/commands';

// What a rule or a lesson says to run, in a form two wordings of one lesson share: "When `a` fails, `b` resolves
// it", "Run `b`, not `a`" and "Use `b`; plain `a` cannot find it" all fix with `b` and warn about `a`.

export interface LessonCommands {
  /** What to run: prescribed and not said to fail, each as its words. */
  fixes: ReadonlyArray<readonly string[]>;
  /** What not to run. */
  forbidden: ReadonlyArray<readonly string[]>;
  /** Every command named: the fixes, those said to fail, the forbidden. */
  named: ReadonlyArray<readonly string[]>;
}

/** A command as words: the environment it sets (sorted), then the command without a leading `cd`. */
function wordsOf(command: string): string[] {
  const trimmed = command.trim().replace(/^cd\s+\S+\s*(?:&&|;)\s*/, '');
  const rest = firstCommand(trimmed);
  const env = trimmed.slice(0, trimmed.length - rest.length).match(/\b[A-Z_][A-Z0-9_]*=\S*/g) ?? [];
  return [...env.sort(), ...rest.toLowerCase().split(/\s+/).filter(Boolean)];
}

/** Backticked commands the text says fail (`a` fails, `a` cannot …, `a` is broken): named, but not the fix. */
const SAID_TO_FAIL =
  /`([^`\n]+)`\s+(?:fails\b|failed\b|keeps failing\b|breaks\b|is broken\b|cannot\b|can't\b|can’t\b|does not work\b|doesn't work\b|doesn’t work\b|errors\b)/gi;

export function lessonCommands(text: string): LessonCommands {
  const { prescribed, forbidden } = ruleCommands(text);
  const failing = new Set([...text.matchAll(SAID_TO_FAIL)].map((m) => wordsOf(m[1]).join(' ')));
  const all = prescribed.map(wordsOf);
  return {
    fixes: all.filter((w) => !failing.has(w.join(' '))),
    forbidden: forbidden.map(wordsOf),
    named: [...all, ...forbidden.map(wordsOf)],
  };
}

const equal = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((w, i) => b[i] === w);
/** One command is the other with more arguments (`uv run mkdocs build --strict` for `uv run mkdocs build`). */
const extends_ = (a: readonly string[], b: readonly string[]) => {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.every((w, i) => long[i] === w);
};

/**
 * Two texts state one lesson: they fix with the same command (a specific one: a bare tool name says which tool, not
 * what fixes the failure), neither prescribes what the other rules out, and not both name a command the other does
 * not ("`gen` before `test`" and "`gen` before `build`" are two lessons; "run `TZ=UTC x`" states "`TZ=UTC x`, not `x`").
 */
export function sameCommands(a: string, b: string): boolean {
  const x = lessonCommands(a);
  const y = lessonCommands(b);
  const specific = (w: readonly string[]) => w.filter((word) => !word.includes('=')).length >= 2;
  const shareFix = x.fixes.some((f) => specific(f) && y.fixes.some((g) => specific(g) && extends_(f, g)));
  const contradicts = (p: LessonCommands, q: LessonCommands) =>
    p.fixes.some((f) => q.forbidden.some((g) => equal(f, g)));
  const extra = (p: LessonCommands, q: LessonCommands) => p.named.some((f) => !q.named.some((g) => extends_(f, g)));
  return shareFix && !contradicts(x, y) && !contradicts(y, x) && !(extra(x, y) && extra(y, x));
}
