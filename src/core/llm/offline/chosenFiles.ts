import * as path from 'node:path';
import type { Step } from '../../trace/model';
import type { Turn } from '../../trace/turns/classify';
import { agentAsked } from '../../trace/turns/asked';
import type { Lesson } from '../../learn/types';

// A file the user chose when asked: the agent listed files that could serve alike (their names share a word) and
// asked; the user's answer names one of them, by path or by a name only that one ends with. Read by the paths alone,
// so in any language. In one session that is the task's choice; when a second session chooses the same file, the
// choice stands, for the next session will find the same candidates. Only files inside the repository: a path
// elsewhere is someone's machine. The choice is the repository's, wherever the file sits: no folder scope.

const MIN_SESSIONS = 2;

/** A path with a folder and a file name with an extension, as an agent lists it (in backticks, a list, a table). */
const LISTED =
  /(?:^|[\s`'"(*[])(\.{0,2}\/?(?:[\w@.-]+\/)+[\w@-][\w@.-]*\.[A-Za-z]\w{0,7})(?=[\s`'",;:)*\]]|\.(?:\s|$)|$)/g;
/** What a user names: a path as above, or a file name alone. */
const NAMED = /(?:^|[\s`'"(@])(\.{0,2}\/?(?:[\w@.-]+\/)*[\w@-][\w@.-]*\.[A-Za-z]\w{0,7})(?=[\s`'",;:)]|\.(?:\s|$)|$)/g;

function pathsIn(text: string, pattern: RegExp): string[] {
  return [...new Set([...text.matchAll(pattern)].map((m) => m[1].replace(/^\.\//, '')))];
}

/** The words of a file's name without its extension: `prd-validation.md` has `prd` and `validation`. */
function nameWords(file: string): Set<string> {
  const base = path.posix.basename(file).replace(/\.[^.]+$/, '');
  return new Set(
    base
      .toLowerCase()
      .split(/[-_.\s]+/)
      .filter((w) => w.length >= 2),
  );
}

/** The agent's words that handed the turn over: its last message, with nothing run after it. */
function lastWords(steps: readonly Step[], position: number): string | undefined {
  for (let i = position - 1; i >= 0; i--) {
    const step = steps[i];
    if (step.kind === 'assistant') return step.text;
    if (step.kind === 'user' && step.isMeta) continue;
    return undefined;
  }
  return undefined;
}

/**
 * A listed path as the repository's: relative to the working folder. An absolute path outside it is kept only when
 * the session's commands name it without its leading slash (an agent writing `/docs/x.md` for `docs/x.md`).
 */
function inRepository(file: string, cwd: string | undefined, said: string): string | undefined {
  if (file.startsWith('../')) return undefined;
  if (!file.startsWith('/')) return path.posix.normalize(file);
  if (cwd && file.startsWith(`${cwd.replace(/\/$/, '')}/`)) return path.posix.relative(cwd, file);
  const bare = file.slice(1);
  const named = new RegExp(`(?:^|[^/\\w.-])${bare.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
  return named.test(said) ? bare : undefined;
}

/** What the session's commands and their outputs say, where a listed path's own spelling is looked up. */
function commandsSaid(steps: readonly Step[]): string {
  return steps
    .map((s) => (s.kind === 'tool_call' ? (s.command ?? s.input) : s.kind === 'tool_result' ? s.output : ''))
    .join('\n');
}

export function chosenFileLessons(
  traceId: string,
  steps: readonly Step[],
  turns: readonly Turn[],
  cwd: string | undefined,
): Lesson[] {
  const lessons: Lesson[] = [];
  let said: string | undefined;
  const position = new Map(steps.map((s, i) => [s.index, i]));
  for (const turn of turns) {
    if (turn.kind !== 'reply' && turn.kind !== 'task') continue;
    const at = position.get(turn.index);
    if (at === undefined || !agentAsked(steps, at)) continue;
    const words = lastWords(steps, at);
    if (!words) continue;
    const listed = pathsIn(words, LISTED);
    if (listed.length < 2) continue;
    const named = pathsIn(turn.text, NAMED);
    const matches = (file: string) =>
      named.some((n) => file === n || file.endsWith(`/${n.replace(/^\/+/, '')}`) || n.endsWith(`/${file}`));
    const chosen = listed.filter(matches);
    if (chosen.length !== 1) continue;
    const choice = chosen[0];
    const its = nameWords(choice);
    const alike = listed.filter((f) => f !== choice && [...nameWords(f)].some((w) => its.has(w)));
    if (alike.length === 0) continue;
    said ??= commandsSaid(steps);
    const file = inRepository(choice, cwd, said);
    if (!file) continue;
    const others = alike.map((f) => inRepository(f, cwd, said ?? '') ?? path.posix.basename(f)).sort();
    lessons.push({
      section: 'Conventions',
      kind: 'preference',
      key: `chosen:${file}`,
      content:
        `Use \`${file}\`, not ${others.map((f) => `\`${f}\``).join(' or ')}: ` +
        'asked which of these files to use, the user chose it.',
      minSupport: MIN_SESSIONS,
      evidence: { traceId, steps: [turn.index] },
    });
  }
  return lessons;
}
