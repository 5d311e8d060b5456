import { DEFAULT_PLAYBOOK_PATH } from '../../src/core/assets/playbookAsset';
import { findManagedBlock } from '../../src/core/assets/managedBlock';
import { parsePlaybook } from '../../src/core/playbook/markdown';
import { bullets } from '../../src/core/playbook/model';
import { matches, type ExpectedEvidence, type Label, type RepoSpec } from './types';

// Grades one repository's accepted files against the corpus's own labels. Nothing here asks src/core's lint or
// evidence code what it thinks: the benchmark must not grade itself.

/** The agent files scored besides the playbook. */
export const AGENT_FILES = ['AGENTS.md', 'CLAUDE.md'] as const;

export interface AcceptedRepo {
  repo: RepoSpec;
  /** Accepted files by workspace path: the playbook and the agent files (absent ones left out). */
  files: Record<string, string>;
  /** The run's word on each rule (its record's evidence), one entry per session and rule. */
  evidence: ReadonlyArray<{ id: string; traceId: string; tag: string }>;
}

export interface RuleVerdict {
  id: string;
  expected: ExpectedEvidence;
  right: boolean;
  /** Why not, when not right. */
  mismatch?: string;
  observed: {
    present: boolean;
    reworded: boolean;
    helpful?: number;
    harmful?: number;
    said: Record<string, number>;
  };
}

export interface RepoFigures {
  repo: string;
  lessons: { planted: number; found: string[]; missed: string[] };
  added: { total: number; precise: number; imprecise: string[] };
  duplicates: Array<{ label: string; statements: string[] }>;
  noise: Array<{ kind: string; rule: string }>;
  contradictions: Array<{ conflict: string; a: string; b: string }>;
  evidence: RuleVerdict[];
}

interface Statement {
  text: string;
  /** Where it stands: the playbook, a Combee block, or the team's own text. */
  where: 'playbook' | 'block' | 'team';
  file: string;
}

const stripListMark = (line: string) => line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').trim();

/** The statements of an agent file: its block's rule lines and the team's own lines outside it. */
function agentFileStatements(path: string, text: string): Statement[] {
  const block = findManagedBlock(text, path);
  const team = block ? text.slice(0, block.start) + text.slice(block.end) : text;
  const out: Statement[] = [];
  for (const line of team.split('\n')) {
    const t = stripListMark(line);
    if (t && !line.startsWith('#')) out.push({ text: t, where: 'team', file: path });
  }
  for (const line of (block?.inner ?? '').split('\n')) {
    const rule = /^\s*-\s+\[[^\]]+\]\s+(.*?)(?: \(in `[^`]+`\))?$/.exec(line);
    if (rule) out.push({ text: rule[1], where: 'block', file: path });
  }
  return out;
}

/**
 * The label a statement states: a falsehood first (a statement that says one is wrong, whatever else it says), then
 * lessons, then facts (each repository lists its facts from the most specific to the most general).
 */
export function labelOf(repo: RepoSpec, text: string): Label | undefined {
  for (const kind of ['wrong', 'lesson', 'fact'] as const) {
    const found = repo.labels.find((l) => l.kind === kind && matches(l.match, text));
    if (found) return found;
  }
  return undefined;
}

function verdict(
  rule: RepoSpec['teamRules'][number],
  repo: RepoSpec,
  playbook: Map<string, { content: string; helpful: number; harmful: number }>,
  evidence: AcceptedRepo['evidence'],
): RuleVerdict {
  const now = playbook.get(rule.id);
  const said: Record<string, number> = {};
  for (const e of evidence) if (e.id === rule.id && e.tag !== 'neutral') said[e.tag] = (said[e.tag] ?? 0) + 1;
  const observed = {
    present: now !== undefined,
    reworded: now !== undefined && now.content !== rule.content,
    helpful: now?.helpful,
    harmful: now?.harmful,
    said,
  };
  const problems: string[] = [];
  const helpful = (now?.helpful ?? 0) + (now ? 0 : (said.helpful ?? 0));
  const harmful = Math.max(now?.harmful ?? 0, said.harmful ?? 0);
  switch (rule.expected) {
    case 'helpful':
      if (!now) problems.push('was removed');
      else if (observed.reworded) problems.push(`was reworded as "${now.content}"`);
      if ((now?.helpful ?? 0) === 0) problems.push('gained no helpful');
      if (harmful > 0) problems.push(`gained harmful ${harmful}`);
      if (said.violated) problems.push(`was called violated ${said.violated}×`);
      break;
    case 'harmful': {
      const correction = repo.labels.find((l) => l.corrects === rule.id);
      if (now && !observed.reworded) problems.push('is still in the playbook as it was (no REMOVE or UPDATE)');
      else if (now && correction && !matches(correction.match, now.content))
        problems.push(`was reworded as "${now.content}", not as the user's correction`);
      if (harmful === 0) problems.push('gained no harmful');
      if (helpful > 0) problems.push(`gained helpful ${helpful}`);
      break;
    }
    case 'violated':
      if (!now) problems.push('was removed');
      else if (labelOf(repo, now.content)?.id !== rule.label) problems.push(`was reworded as "${now.content}"`);
      if (!said.violated) problems.push('was never called violated');
      if (harmful > 0) problems.push(`gained harmful ${harmful}`);
      if ((now?.helpful ?? 0) > 0) problems.push(`gained helpful ${now?.helpful} (the sessions broke it)`);
      break;
    case 'untouched':
      if (!now) problems.push('was removed');
      else if (observed.reworded) problems.push(`was reworded as "${now.content}"`);
      if ((now?.helpful ?? 0) + (now?.harmful ?? 0) > 0)
        problems.push(`counters moved to ${now?.helpful}/${now?.harmful}`);
      if (Object.keys(said).length > 0)
        problems.push(
          `was tagged ${Object.entries(said)
            .map(([t, n]) => `${t} ${n}`)
            .join(', ')}`,
        );
      break;
  }
  return {
    id: rule.id,
    expected: rule.expected,
    right: problems.length === 0,
    mismatch: problems.length ? `${rule.id} (${rule.expected} expected): ${problems.join('; ')}` : undefined,
    observed,
  };
}

/** The figures of one repository's accepted files. */
export function scoreRepo(input: AcceptedRepo): RepoFigures {
  const { repo } = input;
  const rules = bullets(parsePlaybook(input.files[DEFAULT_PLAYBOOK_PATH] ?? ''));
  const byId = new Map(rules.map((b) => [b.id, b]));
  const team = new Map(repo.teamRules.map((r) => [r.id, r]));
  const statements: Statement[] = [
    ...rules.map((b): Statement => ({ text: b.content, where: 'playbook', file: DEFAULT_PLAYBOOK_PATH })),
    ...AGENT_FILES.flatMap((path) =>
      input.files[path] === undefined ? [] : agentFileStatements(path, input.files[path]),
    ),
  ];

  // a rule that carries a test filter, a typo or a flaky run does not state its lesson well: it counts as noise
  const noisy = (text: string) => repo.noise.filter((n) => matches(n.match, text));
  const lessonLabels = repo.labels.filter((l) => l.kind === 'lesson');
  const found = lessonLabels
    .filter((l) =>
      rules.some(
        (b) =>
          matches(l.match, b.content) && noisy(b.content).length === 0 && labelOf(repo, b.content)?.kind !== 'wrong',
      ),
    )
    .map((l) => l.id);

  // added: rules that are not the team's, and team rules reworded
  const added = rules.filter((b) => !team.has(b.id) || team.get(b.id)?.content !== b.content);
  const imprecise = added.filter((b) => {
    const label = labelOf(repo, b.content);
    return !label || label.kind === 'wrong' || noisy(b.content).length > 0;
  });

  const byLabel = new Map<string, string[]>();
  for (const s of statements) {
    // a block line is a rendered copy of a playbook rule; a noisy rule is counted as noise, not again here
    if (s.where === 'block' || noisy(s.text).length > 0) continue;
    const label = labelOf(repo, s.text);
    if (label) byLabel.set(label.id, [...(byLabel.get(label.id) ?? []), s.text]);
  }

  const contradictions: RepoFigures['contradictions'] = [];
  const texts = [...new Set(statements.map((s) => s.text))];
  for (const conflict of repo.conflicts)
    for (const a of texts.filter((t) => matches(conflict.a, t)))
      for (const b of texts.filter((t) => t !== a && matches(conflict.b, t)))
        contradictions.push({ conflict: conflict.id, a, b });

  return {
    repo: repo.name,
    lessons: {
      planted: lessonLabels.length,
      found,
      missed: lessonLabels.map((l) => l.id).filter((id) => !found.includes(id)),
    },
    added: {
      total: added.length,
      precise: added.length - imprecise.length,
      imprecise: imprecise.map((b) => b.content),
    },
    duplicates: [...byLabel].filter(([, s]) => s.length > 1).map(([label, s]) => ({ label, statements: s })),
    noise: added.flatMap((b) => {
      const kinds = noisy(b.content).map((n) => n.id);
      return kinds.length ? [{ kind: kinds.join(', '), rule: b.content }] : [];
    }),
    contradictions,
    evidence: repo.teamRules.map((r) => verdict(r, repo, byId, input.evidence)),
  };
}

export interface Totals {
  lessonsPlanted: number;
  lessonsFound: number;
  added: number;
  precise: number;
  /** precise / added (1 when nothing was added). */
  precision: number;
  duplicates: number;
  noise: number;
  contradictions: number;
  teamRules: number;
  evidenceRight: number;
}

export function totalsOf(repos: readonly RepoFigures[]): Totals {
  const sum = (f: (r: RepoFigures) => number) => repos.reduce((n, r) => n + f(r), 0);
  const added = sum((r) => r.added.total);
  const precise = sum((r) => r.added.precise);
  return {
    lessonsPlanted: sum((r) => r.lessons.planted),
    lessonsFound: sum((r) => r.lessons.found.length),
    added,
    precise,
    precision: added === 0 ? 1 : precise / added,
    duplicates: sum((r) => r.duplicates.reduce((n, d) => n + d.statements.length - 1, 0)),
    noise: sum((r) => r.noise.length),
    contradictions: sum((r) => r.contradictions.length),
    teamRules: sum((r) => r.evidence.length),
    evidenceRight: sum((r) => r.evidence.filter((e) => e.right).length),
  };
}
