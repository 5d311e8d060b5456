// The quality corpus's design: repositories, their sessions, and the labels the scorer grades against. Every label
// is written from what the corpus plants, never from what a learner happens to say.

/** A statement matches when every `all` pattern does and no `none` pattern does. */
export interface Matcher {
  all: RegExp[];
  none?: RegExp[];
}

export function matches(matcher: Matcher, text: string): boolean {
  return matcher.all.every((p) => p.test(text)) && !(matcher.none ?? []).some((p) => p.test(text));
}

/** What a label is: a planted lesson, a true fact of the repository (a right team rule, its tools), or a falsehood. */
export type LabelKind = 'lesson' | 'fact' | 'wrong';

export interface Label {
  id: string;
  kind: LabelKind;
  /** The label said plainly (what the careful model answers for a lesson). */
  text: string;
  match: Matcher;
  /** Lessons: the section a careful curator files it under. */
  section?: string;
  /** A lesson that corrects a team rule: the rule it replaces. */
  corrects?: string;
  /** Lessons: other wordings of the same lesson (the sloppy model's paraphrases, one per session). */
  paraphrases?: string[];
}

/** What a team rule deserves from the sessions that had it in play. */
export type ExpectedEvidence = 'helpful' | 'harmful' | 'violated' | 'untouched';

export interface TeamRule {
  id: string;
  section: string;
  content: string;
  expected: ExpectedEvidence;
  /** The label this rule states (a fact when right, a wrong label when wrong). */
  label: string;
}

/** Two statements the corpus knows cannot both stand. */
export interface Conflict {
  id: string;
  a: Matcher;
  b: Matcher;
  why: string;
}

export type Step =
  | { user: string }
  | { say: string }
  | { run: string; out: string; code?: number }
  | { read: string; out: string }
  | { edit: string; old: string; new: string };

export type Tag = 'helpful' | 'harmful' | 'violated';

export interface SessionSpec {
  /** Stable name within the corpus (e.g. `shop-03`); the session's id is drawn from it and the seed. */
  key: string;
  agent: 'claude-code' | 'codex';
  /** Day of November 2026 and hour (UTC) it started: after the team files' commit. */
  day: number;
  hour: number;
  steps: Step[];
  /** The lessons this session shows (label ids). */
  lessons: string[];
  /** What this session says of the team rules it had in play, by design. */
  tags: Record<string, Tag>;
}

export interface RepoSpec {
  name: string;
  ecosystem: string;
  /** The team's own AGENTS.md text (a Combee block of the team rules is added below it). */
  agentsText: string;
  /** The team's own CLAUDE.md text, when the repository has one. */
  claudeText?: string;
  /** Other files of the repository (package.json, Cargo.toml…), committed with the team files. */
  files: Record<string, string>;
  teamRules: TeamRule[];
  labels: Label[];
  /** Added rules matching one of these are noise. */
  noise: Array<{ id: string; match: Matcher }>;
  conflicts: Conflict[];
  sessions: SessionSpec[];
}
