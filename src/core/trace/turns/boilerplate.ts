import type { Step, Trace } from '../model';

// Text that recurs verbatim at the start of several sessions is context the harness or the user's tooling put there
// (a persona prompt, a slash command's expansion, an instruction file pasted in), never the user speaking. Found
// across the sessions of one run: the paragraphs of opening messages that several sessions share word for word, and
// the long prefix several opening messages share. A short line a user types in each session ("run the tests") is too
// short to be taken for either.

/** Sessions that must share a text for it to be boilerplate (and at least this fraction of the run's sessions). */
export const MIN_SESSIONS = 3;
const MIN_FRACTION = 0.1;
/** Characters a shared paragraph or prefix needs: a persona or an expansion, not a sentence typed twice. */
export const MIN_CHARS = 160;
/** Opening messages compared: the first few user turns of each session. */
const OPENING_TURNS = 2;

export interface Boilerplate {
  /** Normalized paragraphs that recur. */
  paragraphs: Set<string>;
  /** Shared prefixes (normalized), longest first. */
  prefixes: string[];
}

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

function paragraphsOf(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map(normalize)
    .filter(Boolean);
}

function openings(trace: Trace): string[] {
  return trace.steps
    .filter((s): s is Extract<Step, { kind: 'user' }> => s.kind === 'user' && !s.isMeta && !s.confirmation)
    .slice(0, OPENING_TURNS)
    .map((s) => s.text);
}

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  // whole words only: a prefix cut mid-word would eat the start of the user's own text
  const cut = a.slice(0, i);
  const wordEnds = (text: string) => i === text.length || /\s/.test(text[i]);
  return wordEnds(a) && wordEnds(b) ? cut.trimEnd() : cut.slice(0, Math.max(0, cut.search(/\s\S*$/)));
}

/** The boilerplate of a run's sessions (nothing when there are too few of them to tell). */
export function findBoilerplate(traces: readonly Trace[]): Boilerplate {
  const needed = Math.max(MIN_SESSIONS, Math.ceil(traces.length * MIN_FRACTION));
  const paragraphs = new Set<string>();
  const prefixes: string[] = [];
  if (traces.length < needed) return { paragraphs, prefixes };
  const inSessions = new Map<string, Set<number>>();
  const firsts: Array<{ text: string; session: number }> = [];
  traces.forEach((trace, session) => {
    const opened = openings(trace);
    if (opened[0] !== undefined) firsts.push({ text: normalize(opened[0]), session });
    for (const text of opened)
      for (const p of paragraphsOf(text))
        if (p.length >= MIN_CHARS) inSessions.set(p, (inSessions.get(p) ?? new Set()).add(session));
  });
  for (const [p, sessions] of inSessions) if (sessions.size >= needed) paragraphs.add(p);
  // prefixes: sort the opening messages so that those sharing a start are neighbours, then grow runs of `needed`
  const sorted = [...firsts].sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : a.session - b.session));
  for (let i = 0; i + needed <= sorted.length; i++) {
    let shared = sorted[i].text;
    for (let j = i + 1; j < i + needed; j++) shared = commonPrefix(shared, sorted[j].text);
    if (shared.length >= MIN_CHARS && !prefixes.some((p) => p.startsWith(shared) || shared.startsWith(p)))
      prefixes.push(shared);
  }
  prefixes.sort((a, b) => b.length - a.length);
  return { paragraphs, prefixes };
}

/** A message without its boilerplate: '' when nothing of the user's own is left. */
export function withoutBoilerplateText(text: string, found: Boilerplate): string {
  let rest = text;
  const flat = normalize(rest);
  const prefix = found.prefixes.find((p) => flat.startsWith(p));
  if (prefix) {
    // walk the original text until as many non-space characters as the prefix holds are consumed
    const need = prefix.replace(/\s/g, '').length;
    let seen = 0;
    let at = 0;
    while (at < rest.length && seen < need) if (!/\s/.test(rest[at++])) seen++;
    rest = rest.slice(at);
  }
  if (found.paragraphs.size > 0)
    rest = rest
      .split(/\n\s*\n/)
      .filter((p) => !found.paragraphs.has(normalize(p)))
      .join('\n\n');
  return rest.trim();
}

/**
 * The run's sessions with their boilerplate marked: cut out of the user's messages, and a message that was nothing
 * else marked as meta (not the user's words), so that no reader of the steps takes it for the user's lesson.
 */
export function markBoilerplate(traces: readonly Trace[]): { traces: Trace[]; marked: number } {
  const found = findBoilerplate(traces);
  if (found.paragraphs.size === 0 && found.prefixes.length === 0) return { traces: [...traces], marked: 0 };
  let marked = 0;
  const out = traces.map((trace) => {
    let changed = false;
    const steps = trace.steps.map((step): Step => {
      if (step.kind !== 'user' || step.isMeta) return step;
      const text = withoutBoilerplateText(step.text, found);
      if (text === step.text.trim() || text === step.text) return step;
      changed = true;
      marked++;
      return text === '' ? { ...step, isMeta: true } : { ...step, text };
    });
    return changed ? { ...trace, steps } : trace;
  });
  return { traces: out, marked };
}

export function boilerplateWarning(marked: number): string {
  return `${marked} user message(s) hold text that recurs verbatim at the start of several sessions: read as context, not as the user's words`;
}
