import { matches } from '../quality/types';
import { countTokens } from '../../src/core/util/tokens';
import type { CorpusLabels, CorpusVerdicts, Verdict } from './types';
import { verdictFor } from './verdictKey';

// Grades one learner's proposal on one corpus: every proposed rule must have a verdict (given by hand, see
// verdicts/); precision is the share judged true and useful; recall counts the labelled lessons shown in two or more
// sessions that some proposed rule states; personal data is looked for in every rule and every file the proposal writes.

export interface ProposedRule {
  id: string;
  op: string;
  content: string;
  flags: string[];
}

export interface RealFigures {
  corpus: string;
  proposed: number;
  useful: number;
  trivial: number;
  false: number;
  harmful: number;
  /** Rules with no verdict yet: the benchmark fails on any. */
  unjudged: string[];
  precision: number;
  /** Proposed rules that fell into a task-request trap, or whose verdict says they are one. */
  taskRequests: number;
  personalData: string[];
  recall: { found: string[]; of: number; missed: string[] };
  /** Tokens each agent file gains (o200k), by path. */
  tokensAdded: Record<string, number>;
  rules: Array<ProposedRule & { verdict?: Verdict }>;
}

const PERSONAL = [
  { what: 'e-mail address', pattern: /[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/i },
  { what: 'home folder', pattern: /(?:\/Users\/|\/home\/|[A-Z]:\\Users\\)(?!<|\$)[\w.-]+/ },
];

/** The personal data in one text, as "what: match". */
export function personalDataIn(text: string): string[] {
  const found: string[] = [];
  for (const { what, pattern } of PERSONAL) {
    const m = new RegExp(pattern.source, `${pattern.flags}g`);
    for (const hit of text.matchAll(m)) found.push(`${what}: ${hit[0]}`);
  }
  return found;
}

export function scoreCorpus(input: {
  labels: CorpusLabels;
  verdicts: CorpusVerdicts;
  rules: readonly ProposedRule[];
  files: ReadonlyArray<{ path: string; before: string; after: string }>;
}): RealFigures {
  const { labels, verdicts } = input;
  const judged = input.rules.map((r) => ({ ...r, verdict: verdictFor(verdicts, r.content) }));
  const count = (kind: Verdict['verdict']) => judged.filter((r) => r.verdict?.verdict === kind).length;
  const traps = new Map(labels.traps.map((t) => [t.id, t]));
  const taskRequests = judged.filter(
    (r) =>
      (r.verdict?.trap && traps.get(r.verdict.trap)?.kind === 'task-request') ||
      labels.traps.some((t) => t.kind === 'task-request' && matches(t.match, r.content)),
  ).length;
  const repeated = labels.lessons.filter((l) => l.repeated);
  const found = repeated.filter((l) => input.rules.some((r) => matches(l.match, r.content))).map((l) => l.id);
  const tokensAdded: Record<string, number> = {};
  const personalData = [
    ...input.rules.flatMap((r) => personalDataIn(r.content).map((p) => `rule ${r.id}: ${p}`)),
    ...input.files.flatMap((f) => {
      const before = new Set(personalDataIn(f.before));
      return personalDataIn(f.after)
        .filter((p) => !before.has(p))
        .map((p) => `${f.path}: ${p}`);
    }),
  ];
  for (const f of input.files) {
    if (f.path.startsWith('.combee/')) continue;
    tokensAdded[f.path] = countTokens(f.after) - countTokens(f.before);
  }
  const useful = count('useful');
  return {
    corpus: labels.corpus,
    proposed: judged.length,
    useful,
    trivial: count('trivial'),
    false: count('false'),
    harmful: count('harmful'),
    unjudged: judged.filter((r) => !r.verdict).map((r) => r.content),
    precision: judged.length === 0 ? 1 : useful / judged.length,
    taskRequests,
    personalData,
    recall: { found, of: repeated.length, missed: repeated.filter((l) => !found.includes(l.id)).map((l) => l.id) },
    tokensAdded,
    rules: judged,
  };
}
