import { createTwoFilesPatch } from 'diff';
import { z } from 'zod';
import { RuleAuthor } from '../playbook/authorMark';
import { BulletTag, DeltaOp, Evidence, RuleCount } from '../playbook/delta';
import { LoadingAgent } from '../agents/loading';
import { RuleFlag } from '../trust/kinds';
import { sha256 } from '../util/hash';

export const FileChange = z.object({
  /** Workspace-relative, forward slashes. */
  path: z.string(),
  kind: z.enum(['create', 'modify']),
  /** sha256 of the file when the proposal was made (null: it did not exist). Guards against blind overwrites. */
  baseHash: z.string().nullable(),
  before: z.string(),
  after: z.string(),
  diff: z.string(),
});
export type FileChange = z.infer<typeof FileChange>;

export const RuleChange = z.object({
  id: z.string(),
  op: z.enum(['ADD', 'UPDATE', 'MERGE', 'REMOVE']),
  section: z.string().optional(),
  content: z.string().optional(),
  support: z.array(Evidence),
  /** Why this change is held back (risky text, or evidence that is only text the agent read); [] when clean. */
  flags: z.array(RuleFlag).default([]),
  /** What the review should know (close to or contradicting another rule, only a prohibition, its budget cost). */
  notes: z.array(z.string()).optional(),
  /** How many people's and sessions' evidence supports it (people: team bundles' exporters, this machine as one). */
  corroboration: z.object({ people: z.number().int().min(0), sessions: z.number().int().min(0) }).optional(),
  /** Who wrote this change (the run's provider and model and the prompt version; Combee's own for upkeep). */
  author: RuleAuthor.optional(),
  /** Where the rule came from when not from the sessions' lessons: an agent's own memory file (read, never written). */
  source: z
    .object({ kind: z.literal('agent-memory'), agent: z.string(), file: z.string(), line: z.number().int() })
    .optional(),
});
export type RuleChange = z.infer<typeof RuleChange>;

/** What review decided of one file or rule; an item without a decision is pending. */
export const Decision = z.enum(['accepted', 'rejected']);
export type Decision = z.infer<typeof Decision>;

/**
 * Decisions so far (see review.ts). A file is listed once written by an accept; it is shown as accepted once the
 * proposal no longer holds a version of it to review. A rule is listed once accepted or rejected, alone or with the
 * playbook file; one that left `rules` is known by what is kept here.
 */
export const Reviewed = z.object({
  files: z.array(z.object({ path: z.string(), kind: FileChange.shape.kind, decision: Decision })).default([]),
  rules: z
    .array(
      z.object({
        id: z.string(),
        op: RuleChange.shape.op.optional(),
        content: z.string().optional(),
        held: z.boolean().optional(),
        decision: Decision,
      }),
    )
    .default([]),
});
export type Reviewed = z.infer<typeof Reviewed>;

export const PROPOSAL_VERSION = 1;

export const Proposal = z.object({
  version: z.literal(PROPOSAL_VERSION),
  id: z.string(),
  createdAt: z.string(),
  workspace: z.string(),
  runId: z.string(),
  provider: z.string(),
  model: z.string(),
  costUsd: z.number(),
  /** `superseded`: a newer run's proposal for the same targets took its place, with its undecided rules. */
  status: z.enum(['pending', 'accepted', 'rejected', 'partial', 'superseded']),
  /** The proposal that took this one's place. */
  supersededBy: z.string().optional(),
  /** The open proposals this one took the place of (their undecided rules are in it, under the same ids). */
  supersedes: z.array(z.string()).optional(),
  /** Earlier runs whose lessons its carried rules came from: read with its own run's (Skills, nested scopes). */
  lessonsFrom: z.array(z.string()).optional(),
  files: z.array(FileChange),
  rules: z.array(RuleChange),
  /** The operations behind the rules (by the id they got), so one rule can be accepted or rejected alone. */
  ops: z.array(z.object({ ruleId: z.string(), op: DeltaOp })).default([]),
  /** Counter updates from the sessions' tags; they go with the rest of the proposal. */
  tags: z.array(BulletTag).default([]),
  /** Counter increments counted per session (runs with the evidence ledger); they go with the rest too. */
  counts: z.array(RuleCount).default([]),
  /** The asset targets it was rendered for: a part accepted later (the CLI) is rendered for the same ones. */
  targets: z.array(z.string()).optional(),
  /**
   * The asset settings it was rendered with (targets, playbook path, budget, skill roots): every part of it decided
   * later, from any front end, is rendered with the same ones. Absent in proposals made before they were kept.
   */
  assets: z
    .object({
      targets: z.array(z.string()),
      playbookPath: z.string(),
      budgetTokens: z.number().optional(),
      skillRoots: z.array(z.string()).optional(),
      skillMinSessions: z.number().optional(),
      /** The agents of the workspace's sessions, and the tokens of Combee's text each may load at session start. */
      agents: z.array(LoadingAgent).optional(),
      agentBudgetTokens: z.number().optional(),
    })
    .optional(),
  /** Why each of those targets was rendered ("CLAUDE.md: 12 Claude Code sessions"). */
  targetReasons: z.array(z.string()).optional(),
  /**
   * Per agent of the workspace's sessions, the tokens of Combee's text it loads by itself at session start (imports
   * followed), with the files as they were and once the proposal is written (assets/contextCost.ts).
   */
  contextCost: z
    .array(
      z.object({ agent: LoadingAgent, before: z.number().int().nonnegative(), after: z.number().int().nonnegative() }),
    )
    .optional(),
  /**
   * Enforcements offered for rules sessions kept breaking (src/core/enforce): their hook files are among `files`,
   * their marks in the playbook's diff, and how their matchers did on the sessions is said here.
   */
  enforcements: z
    .array(
      z.object({
        ruleId: z.string(),
        /** The rule's text it was offered for. */
        content: z.string(),
        agents: z.array(z.string()),
        claudeCode: z.array(z.array(z.string())).optional(),
        /** The commands the other agents' hooks stop, by agent (`codex`, `cursor`, …: enforce/agentHooks.ts). */
        hooks: z.record(z.string(), z.array(z.array(z.string()))).optional(),
        preCommit: z.array(z.string()).optional(),
        broke: z.object({ stopped: z.number().int(), of: z.number().int() }),
        followed: z.object({ stopped: z.number().int(), of: z.number().int() }),
        /** Each agent's hook replayed on that agent's own sessions. */
        replays: z
          .array(
            z.object({
              agent: z.string(),
              broke: z.object({ stopped: z.number().int(), of: z.number().int() }),
              followed: z.object({ stopped: z.number().int(), of: z.number().int() }),
            }),
          )
          .optional(),
        explanation: z.string(),
        /** The playbook mark that records it (re-applied when part of the proposal is rendered again). */
        mark: z.string().optional(),
        /** Why it is held, not marked (`team-only`: only team bundles' sessions broke the rule). */
        flags: z.array(RuleFlag).optional(),
      }),
    )
    .optional(),
  /**
   * Every enforcement the proposal's hook files carry, offered by this run or marked in the playbook before (a mark
   * is text anyone with the repository can write): what each stops, said in the summary, the review and a PR body.
   */
  enforced: z
    .array(
      z.object({
        ruleId: z.string(),
        content: z.string(),
        claudeCode: z.array(z.array(z.string())).optional(),
        hooks: z.record(z.string(), z.array(z.array(z.string()))).optional(),
        preCommit: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  /**
   * Lines of the team's own text (outside Combee's block) a rule of this run contradicts: `overrules`, the rule is
   * proposed and would overrule the line (open while the rule waits); `left-out`, the team's line won and the lesson
   * is not proposed (shown while the proposal is open). Each a review comment on the line, with `suggestion`: the
   * line as the rule would have it.
   */
  teamConflicts: z
    .array(
      z.object({
        ruleId: z.string(),
        content: z.string(),
        path: z.string(),
        /** The team's line, trimmed. */
        line: z.string(),
        reason: z.string(),
        outcome: z.enum(['overrules', 'left-out']),
        suggestion: z.string(),
      }),
    )
    .optional(),
  /** Rules already in the playbook whose text is flagged: kept out of every other asset, reported here. */
  heldRules: z.array(z.object({ id: z.string(), content: z.string(), flags: z.array(RuleFlag) })).default([]),
  /** Absent in proposals made before review was recorded per item: everything in them reads as pending. */
  reviewed: Reviewed.default({ files: [], rules: [] }),
  /** Its files and rule ids in the order first proposed: the review keeps them there, whatever is decided. */
  order: z.object({ files: z.array(z.string()), rules: z.array(z.string()) }).optional(),
});
export type Proposal = z.infer<typeof Proposal>;
export type TeamConflict = NonNullable<Proposal['teamConflicts']>[number];

export function hashContent(text: string): string {
  return sha256(text);
}

export function makeFileChange(path: string, before: string | undefined, after: string): FileChange | undefined {
  if (before === after) return undefined;
  const diff = createTwoFilesPatch(`a/${path}`, `b/${path}`, before ?? '', after, undefined, undefined, { context: 3 });
  return {
    path,
    kind: before === undefined ? 'create' : 'modify',
    baseHash: before === undefined ? null : hashContent(before),
    before: before ?? '',
    after,
    diff,
  };
}
