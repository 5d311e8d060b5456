// The real-session benchmark's data: what a careful reader of each corpus learned (written before any learner ran on
// it), the traps a naive learner falls into, and the verdict given to every rule a learner proposes.

import type { Matcher } from '../quality/types';

export type { Matcher };

/** What a lesson is about: a command that works, an order of steps, a stated convention, or a recurring mistake. */
export type LessonKind = 'command' | 'workflow' | 'convention' | 'pitfall';

/** Where a lesson or trap shows: a session (its file name or id) and the turn or step in it. */
export interface Evidence {
  session: string;
  where: string;
}

export interface Label {
  id: string;
  /** The lesson said precisely; commands exactly as they ran successfully. */
  statement: string;
  kind: LessonKind;
  sessions: Evidence[];
  /** Shown in two or more sessions. */
  repeated: boolean;
  /** Stated by the user as a standing instruction (not about the task at hand). */
  standing: boolean;
  /** Whether the repository already says it (per SOURCES.md or a file's content shown in the sessions). */
  repoStates: 'yes' | 'no' | 'unknown';
  /** Recognizes a proposed rule as this lesson (on the rule's text). */
  match: Matcher;
  note?: string;
}

/** Why a trap is not a lesson. */
export type TrapKind =
  | 'injected' // persona prompts, slash-command expansions, instruction files, hook or tool messages
  | 'task-request' // what to do in this session, including review findings pasted in
  | 'reply' // an answer to the agent's question, a menu choice, a confirmation
  | 'one-off' // a bug, failure or environment state seen once
  | 'personal-data' // e-mail addresses, people's names, home folders, host names
  | 'no-match' // a search that found nothing, an exit status that is not a failure
  | 'tool-noise'; // the agent tool's own errors and setup problems, not the repository's

export interface Trap {
  id: string;
  kind: TrapKind;
  /** What a naive learner would take as a rule (paraphrased, never quoted at length). */
  what: string;
  why: string;
  sessions: Evidence[];
  /** Recognizes a proposed rule that fell into this trap. */
  match: Matcher;
}

export interface CorpusLabels {
  /** The folder under real-sessions/. */
  corpus: string;
  /** Honest summary: what the corpus teaches, or that it teaches nothing general. */
  summary: string;
  lessons: Label[];
  traps: Trap[];
}

/** useful: true and worth an agent's attention; trivial: true but adds nothing; false: not so; harmful: misleads. */
export type VerdictKind = 'useful' | 'trivial' | 'false' | 'harmful';

export interface Verdict {
  verdict: VerdictKind;
  /** One line. */
  reason: string;
  /** The lesson this rule states, when it states one. */
  label?: string;
  /** The trap this rule fell into, when it did. */
  trap?: string;
}

/** Verdicts of one corpus, keyed by `normalizeRuleText(rule)`, or by its hash (`verdictKey.ts`) when the rule is
 * someone's words from a session or carries personal data. */
export interface CorpusVerdicts {
  corpus: string;
  verdicts: Record<string, Verdict>;
}

/** The key a verdict is filed under: case, spacing, list markers and closing punctuation do not make a new rule. */
export function normalizeRuleText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/[.;:!]+$/, '')
    .toLowerCase();
}
