import type { ChatRequest, Responder, ScriptedReply } from '../../testing/modelServer';
import { CORPORA, REPOS, specsByTraceId } from './corpus';
import { HELDOUT_SLOPPY_EXTRAS } from './heldout';
import type { Label, RepoSpec, SessionSpec } from './types';

// The two scripted models of the benchmark (simulations, labelled as such) behind the loopback server. Both
// recognize a session by the id in its reflection prompt's header. The careful one answers with exactly the lessons
// planted in that session and its designed tags of the rules the prompt shows it, and curates by merging items of the same text (a lesson that
// corrects a team rule becomes an UPDATE of that rule). The sloppy one paraphrases, repeats itself, adds a wrong
// lesson and one that contradicts a team rule, tags nothing, and turns every item into an ADD.

export type ModelStyle = 'careful' | 'sloppy';

/** What the sloppy model gets wrong on purpose, by session key. */
export const SLOPPY_EXTRAS: Readonly<Record<string, Array<{ section: string; content: string }>>> = {
  // a wrong lesson: npm in a pnpm workspace
  'shop-01': [{ section: 'Build and test', content: 'Run the tests with `npm test`.' }],
  // one that contradicts the team's rule to run clippy before pushing
  'tile-01': [{ section: 'Build and test', content: 'Skip clippy before pushing: `cargo check` is enough.' }],
  ...HELDOUT_SLOPPY_EXTRAS,
};

const isReflection = (prompt: string) => /You review one coding-agent session/.test(prompt);

/**
 * The session's steps that show a label (its evidence): the lines its patterns match, a tool call with its result;
 * the first step when none does.
 */
function evidenceSteps(prompt: string, label: Label): number[] {
  const steps = [...prompt.matchAll(/^#(\d+) (\w+)(.*)$/gm)].map((m) => ({ n: Number(m[1]), kind: m[2], text: m[3] }));
  const shown = new Set<number>();
  steps.forEach((s, i) => {
    if (!label.match.all.some((p) => p.test(s.text))) return;
    shown.add(s.n);
    if (s.kind === 'TOOL' && steps[i + 1]?.kind === 'RESULT') shown.add(steps[i + 1].n);
  });
  return shown.size > 0 ? [...shown].slice(0, 6) : [steps[0]?.n ?? 0];
}

function labelOf(repo: RepoSpec, id: string): Label {
  const label = repo.labels.find((l) => l.id === id);
  if (!label) throw new Error(`${repo.name}: no label ${id}`);
  return label;
}

/** Which time this lesson comes up, counting the repository's sessions in order (picks the sloppy wording). */
function occurrence(repo: RepoSpec, spec: SessionSpec, lesson: string): number {
  return repo.sessions.slice(0, repo.sessions.indexOf(spec)).filter((s) => s.lessons.includes(lesson)).length;
}

function reflect(style: ModelStyle, prompt: string, repo: RepoSpec, spec: SessionSpec): ScriptedReply {
  const lessons: Array<{ section: string; content: string; kind: string; evidence_steps: number[] }> = [];
  spec.lessons.forEach((id, i) => {
    const label = labelOf(repo, id);
    const steps = evidenceSteps(prompt, label);
    const kind = label.section === 'Conventions' ? 'preference' : 'rule';
    const section = label.section ?? 'Workflow';
    if (style === 'careful') {
      lessons.push({ section, content: label.text, kind, evidence_steps: steps });
      return;
    }
    const wordings = label.paraphrases ?? [label.text];
    lessons.push({
      section,
      content: wordings[occurrence(repo, spec, id) % wordings.length],
      kind,
      evidence_steps: steps,
    });
    // the first lesson of a repository's first session, said twice in other words
    if (i === 0 && repo.sessions[0] === spec)
      lessons.push({ section, content: label.text, kind, evidence_steps: steps });
  });
  if (style === 'sloppy')
    for (const extra of SLOPPY_EXTRAS[spec.key] ?? []) lessons.push({ ...extra, kind: 'rule', evidence_steps: [0] });
  // a model tags only the rules its prompt shows it
  const shown = new Set([...prompt.matchAll(/^\[([a-z]{2,5}-\d{5})\] /gm)].map((m) => m[1]));
  const bullet_tags =
    style === 'careful'
      ? Object.entries(spec.tags)
          .filter(([id]) => shown.has(id))
          .map(([id, tag]) => ({
            id,
            tag,
            reason: `the session ${tag === 'violated' ? 'broke' : 'followed'} it`,
          }))
      : [];
  return { content: JSON.stringify({ lessons, bullet_tags }) };
}

interface Item {
  label: string;
  text: string;
}

type Operation =
  | { type: 'ADD'; section: string; content: string; kind?: string; sources: string[] }
  | { type: 'UPDATE'; id: string; content: string; sources: string[] }
  | { type: 'REMOVE'; id: string; reason: string; sources: string[] };

const LESSONS: ReadonlyMap<string, Label> = new Map(
  Object.values(CORPORA)
    .flat()
    .flatMap((r) => r.labels.filter((l) => l.kind === 'lesson').map((l) => [l.text, l] as const)),
);

/** One operation of an item: a lesson (`[kind, section] text`) or an operation a parallel curator proposed. */
function operationOf(style: ModelStyle, item: Item): Operation | undefined {
  const lesson = /^\[(\w+), ([^,\]]+)(?:, scope [^\]]+)?\] (.*)$/.exec(item.text);
  if (lesson) {
    const [, kind, section, content] = lesson;
    const corrects = style === 'careful' ? LESSONS.get(content)?.corrects : undefined;
    return corrects
      ? { type: 'UPDATE', id: corrects, content, sources: [item.label] }
      : { type: 'ADD', section, content, kind, sources: [item.label] };
  }
  const add = /^ADD to "([^"]+)": (.*?)(?: \(scope [^)]+\))?$/.exec(item.text);
  if (add) return { type: 'ADD', section: add[1], content: add[2], sources: [item.label] };
  const update = /^UPDATE (\S+): (.*)$/.exec(item.text);
  if (update) return { type: 'UPDATE', id: update[1], content: update[2], sources: [item.label] };
  const remove = /^REMOVE (\S+): (.*)$/.exec(item.text);
  if (remove) return { type: 'REMOVE', id: remove[1], reason: remove[2], sources: [item.label] };
  return undefined;
}

/** Both models merge operations of exactly the same text, citing every label behind them. */
function aggregate(style: ModelStyle, prompt: string): ScriptedReply {
  const items = [...prompt.matchAll(/^((?:L|D)[\d.]+) \(\d+ session\(s\)\): (.*)$/gm)].map((m) => ({
    label: m[1],
    text: m[2],
  }));
  const merged = new Map<string, Operation>();
  for (const item of items) {
    const op = operationOf(style, item);
    if (!op) continue;
    const key = JSON.stringify({ ...op, sources: [], kind: undefined });
    const seen = merged.get(key);
    if (seen) seen.sources.push(...op.sources);
    else merged.set(key, op);
  }
  return { content: JSON.stringify({ operations: [...merged.values()] }) };
}

/** The responder of one style for the corpus written with `seed`. */
export function scriptedModel(style: ModelStyle, seed: number, repos: readonly RepoSpec[] = REPOS): Responder {
  const sessions = specsByTraceId(seed, repos);
  return (request: ChatRequest) => {
    const prompt = request.messages.map((m) => m.content).join('\n');
    if (!isReflection(prompt)) return aggregate(style, prompt);
    const id = /^Session (\S+) \(/m.exec(prompt)?.[1];
    const found = id ? sessions.get(id) : undefined;
    if (!found) return { content: JSON.stringify({ lessons: [], bullet_tags: [] }) };
    return reflect(style, prompt, found.repo, found.spec);
  };
}
