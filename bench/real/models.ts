import type { ChatRequest, Responder, ScriptedReply } from '../../testing/modelServer';
import type { CorpusLabels, Label, LessonKind } from './types';

// The two scripted models of the real-session benchmark (simulations, labelled as such) behind the loopback server.
// Both know a session by the trace id in its reflection prompt's header. The careful one answers with exactly the
// labelled lessons that session shows, citing the steps that name the lesson's commands, and nothing for a session
// that teaches nothing. The sloppy one does what careless models do on real work: it takes the user's first words
// (a task request, or the persona prompt pasted before it) as a standing rule, turns the first failing command into
// advice to run it, adds a generic platitude, and paraphrases the lessons it was shown; it tags nothing and curates
// every item into an ADD.

export type RealModelStyle = 'careful' | 'sloppy';

const SECTION_OF: Record<LessonKind, string> = {
  command: 'Build',
  workflow: 'Conventions',
  convention: 'Conventions',
  pitfall: 'Pitfalls',
};

interface PromptStep {
  n: number;
  kind: string;
  text: string;
}

function stepsOf(prompt: string): PromptStep[] {
  return [...prompt.matchAll(/^#(\d+) (\w+)([^\n]*)$/gm)].map((m) => ({ n: Number(m[1]), kind: m[2], text: m[3] }));
}

/** The steps that show a lesson: those naming one of its backticked commands or paths; the first user step if none. */
function evidenceOf(steps: readonly PromptStep[], label: Label): number[] {
  const terms = [...label.statement.matchAll(/`([^`]{3,})`/g)].map((m) => m[1].replace(/\s*….*$/, '').trim());
  const shown = steps.filter((s) => terms.some((t) => t.length >= 3 && s.text.includes(t))).map((s) => s.n);
  if (shown.length > 0) return shown.slice(0, 6);
  const user = steps.find((s) => s.kind === 'USER');
  return [user?.n ?? steps[0]?.n ?? 0];
}

type Lesson = { section: string; content: string; kind: string; evidence_steps: number[] };

function careful(steps: readonly PromptStep[], labels: readonly Label[]): Lesson[] {
  return labels.map((label) => ({
    section: SECTION_OF[label.kind],
    content: label.statement,
    kind: label.kind === 'convention' ? 'preference' : 'rule',
    evidence_steps: evidenceOf(steps, label),
  }));
}

const firstSentence = (text: string) =>
  text
    .replace(/^:\s*/, '')
    .split(/(?<=[.!?。！？])\s|\n/)[0]
    .trim()
    .slice(0, 200);

function sloppy(steps: readonly PromptStep[], labels: readonly Label[]): Lesson[] {
  const lessons: Lesson[] = [];
  const user = steps.find((s) => s.kind === 'USER' && !s.text.startsWith(' (injected)'));
  if (user && firstSentence(user.text))
    lessons.push({
      section: 'Conventions',
      content: firstSentence(user.text),
      kind: 'preference',
      evidence_steps: [user.n],
    });
  const failed = steps.findIndex(
    (s, i) => s.kind === 'RESULT' && /^ FAILED/.test(s.text) && steps[i - 1]?.kind === 'TOOL',
  );
  const call = failed > 0 ? /\$ (.+)$/.exec(steps[failed - 1].text) : null;
  if (call)
    lessons.push({
      section: 'Build',
      content: `Run \`${call[1].slice(0, 120)}\` before committing.`,
      kind: 'rule',
      evidence_steps: [steps[failed - 1].n, steps[failed].n],
    });
  lessons.push({
    section: 'Conventions',
    content: 'Always write clean, well-tested code.',
    kind: 'preference',
    evidence_steps: [0],
  });
  for (const label of labels)
    lessons.push({
      section: SECTION_OF[label.kind],
      content: `Remember: ${label.statement}`,
      kind: 'rule',
      evidence_steps: evidenceOf(steps, label),
    });
  return lessons;
}

function reflect(style: RealModelStyle, prompt: string, labels: readonly Label[]): ScriptedReply {
  const steps = stepsOf(prompt);
  const lessons = style === 'careful' ? careful(steps, labels) : sloppy(steps, labels);
  return { content: JSON.stringify({ lessons, bullet_tags: [] }) };
}

type Operation = { type: 'ADD'; section: string; content: string; kind?: string; sources: string[] };

/** Both models curate by merging items of exactly the same text, citing every label behind them. */
function aggregate(prompt: string): ScriptedReply {
  const merged = new Map<string, Operation>();
  for (const m of prompt.matchAll(/^((?:L|D)[\d.]+) \(\d+ session\(s\)\): (.*)$/gm)) {
    const [, source, text] = m;
    const lesson = /^\[(\w+), ([^,\]]+)(?:, scope [^\]]+)?\] (.*)$/.exec(text);
    const add = /^ADD to "([^"]+)": (.*?)(?: \(scope [^)]+\))?$/.exec(text);
    const op: Operation | undefined = lesson
      ? { type: 'ADD', section: lesson[2], content: lesson[3], kind: lesson[1], sources: [source] }
      : add
        ? { type: 'ADD', section: add[1], content: add[2], sources: [source] }
        : undefined;
    if (!op) continue;
    const seen = merged.get(op.content);
    if (seen) seen.sources.push(source);
    else merged.set(op.content, op);
  }
  return { content: JSON.stringify({ operations: [...merged.values()] }) };
}

/** The lessons each trace shows, by trace id (see run.ts, which knows the traces' session names). */
export type LessonsBySession = ReadonlyMap<string, readonly Label[]>;

/** The responder of one style for one corpus. */
export function realScriptedModel(style: RealModelStyle, lessons: LessonsBySession): Responder {
  return (request: ChatRequest) => {
    const prompt = request.messages.map((m) => m.content).join('\n');
    const id = /^Session (\S+) \(/m.exec(prompt)?.[1];
    if (!id || !/"lessons"/.test(prompt)) return aggregate(prompt);
    return reflect(style, prompt, lessons.get(id) ?? []);
  };
}

/** Which labelled lessons each session shows. */
export function lessonsBySession(
  labels: CorpusLabels,
  traces: ReadonlyArray<{ id: string; keys: readonly string[] }>,
): Map<string, Label[]> {
  const out = new Map<string, Label[]>();
  for (const trace of traces)
    out.set(
      trace.id,
      labels.lessons.filter((l) => l.sessions.some((s) => trace.keys.includes(s.session))),
    );
  return out;
}
