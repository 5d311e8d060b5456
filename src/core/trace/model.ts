import { z } from 'zod';

/** Bumped when the stored shape changes; readers of the store migrate or re-import older versions. */
export const TRACE_SCHEMA_VERSION = 1;

export const AGENTS = [
  'claude-code',
  'codex',
  'copilot',
  'cline',
  'roo-code',
  'gemini-cli',
  'cursor',
  'opencode',
  'continue',
  'aider',
] as const;
export const AgentId = z.enum(AGENTS);
export type AgentId = z.infer<typeof AgentId>;

const base = {
  /** Index within the trace, used as the evidence reference in lessons ("step 12"). */
  index: z.number().int().nonnegative(),
  time: z.string().optional(),
  /** true for steps of a subagent (Claude sidechains, Codex spawned threads). */
  sidechain: z.boolean().optional(),
};

export const UserMessageStep = z.object({
  ...base,
  kind: z.literal('user'),
  text: z.string(),
  isMeta: z.boolean().optional(),
  /** Typed while the agent was working (Claude Code's queued messages): often a correction of what it is doing. */
  queued: z.boolean().optional(),
  /** An answer to the agent tool's own yes/no prompt (Aider's "Add file to the chat?"), not words to the agent. */
  confirmation: z.boolean().optional(),
  /** The user undid the agent's previous edit (Aider's `/undo`): a correction without words. */
  undo: z.boolean().optional(),
});
export const AssistantMessageStep = z.object({
  ...base,
  kind: z.literal('assistant'),
  text: z.string(),
  model: z.string().optional(),
});
export const ToolCallStep = z.object({
  ...base,
  kind: z.literal('tool_call'),
  callId: z.string(),
  tool: z.string(),
  /** Shell command line when the tool runs one (Bash, shell, exec_command…). */
  command: z.string().optional(),
  /** The folder the agent ran the command in, when it recorded one per call (Codex's `workdir`); redacted like `cwd`. */
  workdir: z.string().optional(),
  input: z.string(),
});
export const ToolResultStep = z.object({
  ...base,
  kind: z.literal('tool_result'),
  callId: z.string(),
  output: z.string(),
  isError: z.boolean(),
  exitCode: z.number().int().optional(),
  interrupted: z.boolean().optional(),
  /** The agent's client refused or cancelled the call before it ran: its output says nothing of the command. */
  notRun: z.boolean().optional(),
  /** Original output length in characters when `output` was cut. */
  truncatedFrom: z.number().int().optional(),
});
export const SubagentStep = z.object({
  ...base,
  kind: z.literal('subagent'),
  traceId: z.string(),
  description: z.string().optional(),
});
export const ErrorStep = z.object({ ...base, kind: z.literal('error'), text: z.string() });

export const Step = z.discriminatedUnion('kind', [
  UserMessageStep,
  AssistantMessageStep,
  ToolCallStep,
  ToolResultStep,
  SubagentStep,
  ErrorStep,
]);
export type Step = z.infer<typeof Step>;
export type ToolCallStep = z.infer<typeof ToolCallStep>;
export type ToolResultStep = z.infer<typeof ToolResultStep>;

export const Outcome = z.object({
  toolErrors: z.number().int().nonnegative(),
  testRuns: z.object({ passed: z.number().int().nonnegative(), failed: z.number().int().nonnegative() }),
  userCorrections: z.number().int().nonnegative(),
  interrupted: z.boolean(),
});
export type Outcome = z.infer<typeof Outcome>;

/**
 * How a session's local times were placed on the clock, for agents that write local times without a zone (Aider):
 * the zone used, and where it came from (`git`: the same repository's commits of that day; `machine`: the importing
 * machine's zone, a guess).
 */
export const Clock = z.object({
  zone: z.string().regex(/^[+-]\d\d:\d\d$/),
  from: z.enum(['git', 'machine']),
});
export type Clock = z.infer<typeof Clock>;

export const Trace = z.object({
  schemaVersion: z.literal(TRACE_SCHEMA_VERSION),
  /** Stable across re-imports: `<agent>:<agent's own session id>`. */
  id: z.string(),
  agent: AgentId,
  agentVersion: z.string().optional(),
  /** Working directory the agent recorded (home shown as `~` after redaction). */
  cwd: z.string().optional(),
  title: z.string().optional(),
  startedAt: z.string().optional(),
  endedAt: z.string().optional(),
  /** Set when the agent wrote times without a zone and the reader had to choose one (see `Clock`). */
  clock: Clock.optional(),
  source: z.object({ path: z.string(), bytes: z.number().int().nonnegative() }),
  parentId: z.string().optional(),
  /** Who the session came from, for a session imported from a team bundle (its exporter); absent: this machine's. */
  contributor: z.string().optional(),
  /** Set when the bundle's SSH signature verified with a key of the user's allowed signers: its principal (= contributor). */
  signedBy: z.string().optional(),
  /** The tool that exported the session to the file read, when it was not the agent itself (`agent` stays the source). */
  exportedBy: z.enum(['specstory']).optional(),
  steps: z.array(Step),
  outcome: Outcome,
  /** Record types / fields the reader did not understand, counted rather than failed on. */
  unknown: z.record(z.string(), z.number().int()),
  warnings: z.array(z.string()),
  redactions: z.number().int().nonnegative(),
});
export type Trace = z.infer<typeof Trace>;

export type TraceDraft = Omit<Trace, 'schemaVersion' | 'outcome' | 'redactions'>;

/** A step before it is numbered: readers push these and the accumulator assigns `index`. */
export type StepInput = Step extends infer S ? (S extends Step ? Omit<S, 'index'> : never) : never;
