import type { GatedOutRule } from './gateRules';
import type { AssetSettings } from '../../assets/targets';
import type { Proposal } from '../../assets/proposal';
import type { RunEstimate } from '../../learn/estimate';
import type { LiveRunSnapshot } from '../../learn/record/liveRun';
import type { RunRecord } from '../../learn/record/record';
import type { ReflectionSet } from '../../learn/reflectionSet';
import type { learn, Strategy } from '../../learn/run';
import type { Aggregator, EmbedFn, ProviderInfo, Reflector } from '../../learn/types';
import type { ProposalStore } from '../../store/proposals';
import type { TraceStore } from '../../store/traceStore';
import type { AgentId, Trace } from '../../trace/model';
import type { AgentMemorySettings } from '../agentMemories';

// What a learning run of one workspace is asked for and what it hands back (see learnWorkspace.ts).

/**
 * What a learning run is asked to do, the same from both front ends (the CLI's flags, the extension's settings) and
 * read as it is by the worker and the service: plain data that crosses a worker's port, no handles or callbacks.
 */
export interface LearnRequest {
  playbookPath?: string;
  strategy?: Strategy;
  /** `all`: one batch of every selected session (each reflected against the same playbook, as a map across machines needs). */
  batchSize?: number | 'auto' | 'all';
  seed?: number;
  /**
   * Only sessions that ended within this many days of the workspace's newest session (0 or undefined: no window).
   * Anchored to the sessions, not to the clock, so the same store gives the same selection on any day.
   */
  windowDays?: number;
  /** Only sessions that ended at or after this time (ISO), on top of the window. */
  since?: string;
  /** Only sessions of these agents. */
  agents?: readonly AgentId[];
  /** Learn from every stored session, not only those recorded in this workspace. */
  allWorkspaces?: boolean;
  /** Compute the proposal without saving it or marking sessions learned. */
  dryRun?: boolean;
  /** Token budget of one condensed session (the model's view of it, and the estimate). */
  budgetTokens?: number;
  /** Effective capacity of one aggregation call (see learn/capacity/capacity.ts); the model's roles read it. */
  aggregationCapacityTokens?: number;
  /** Per-run token and money limits (a run that reaches one stops cleanly, keeping finished batches). */
  limits?: { maxTokens?: number; maxCostUsd?: number };
  /** USD per million input tokens, for the estimate shown before a large run. */
  pricePerMTokInput?: number;
  /** Which assets to render and how (targets, rules budgets, skill roots); unset fields follow the sessions. */
  assets?: Partial<AssetSettings>;
  /** Reviewed by the team as a pull request (`learn --pr-body`): see screenProposal's `teamReview`. */
  teamReview?: boolean;
  /** Read the agents' own memories as candidate rules, checked against the sessions (see service/agentMemories.ts). */
  agentMemories?: AgentMemorySettings;
}

/** A request, and what running it here takes: the stores, the model's roles, the cancel and the callbacks. */
export interface LearnWorkspaceOptions extends LearnRequest {
  store: TraceStore;
  proposals: ProposalStore;
  workspace: string;
  reflector: Reflector;
  aggregator: Aggregator;
  provider: ProviderInfo;
  /** The provider's embeddings, when it has them (semantic duplicate detection). */
  embed?: EmbedFn;
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (message: string, fraction: number) => void;
  /** The run's tree while it grows (see learn/record/liveRun.ts). */
  onSnapshot?: (snapshot: LiveRunSnapshot) => void;
  /** Asked once the sessions are selected, before any model call; false cancels the run before it starts. */
  confirm?: (estimate: RunEstimate) => Promise<boolean>;
  /** Anchors the window here instead of at the newest session (tests, or "the last N days from today"). */
  now?: Date;
  /**
   * The map phase alone (a CI runner's shard): reflect on the selected sessions (a 1-based shard's share of them)
   * against the playbook as it is, and hand the reflections back. Nothing is saved or marked learned.
   */
  mapOnly?: { shard?: { index: number; count: number } };
  /** Reflections made elsewhere (shards, the Batch API): used for the sessions and playbook they were made for. */
  precomputed?: readonly ReflectionSet[];
  /**
   * The precomputed sets were read from files (CI shards' artifacts, which anyone with them could write): each lesson
   * is believed only as far as its cited steps in this machine's store show it, and the rules drawn from the rest are
   * flagged.
   */
  precomputedFromFiles?: boolean;
}

export interface LearnWorkspaceResult {
  /** Sessions considered (new for this workspace). */
  traces: Trace[];
  /** Sessions of this run whose learning failed (not marked learned: the next run tries them again). */
  failedTraces?: Array<{ id: string; reason: string }>;
  /** Unlearned sessions of this workspace left out because they are older than the window. */
  outsideWindow: number;
  /** Sessions left out because their learning failed MAX_LEARNING_FAILURES times, with the last reason. */
  givenUp: Array<{ id: string; reason: string; count: number }>;
  /** The user declined the estimate: nothing ran. */
  declined?: boolean;
  /** `mapOnly`: the reflections made. */
  reflections?: ReflectionSet;
  proposal?: Proposal;
  /** The open proposals this run's proposal took the place of (their undecided rules are in it, same ids). */
  superseded?: string[];
  /** The run brought nothing the open proposal did not hold: that one still waits, no new one was made. */
  stillPending?: string;
  record?: RunRecord;
  invalidStoredTraces: number;
  /** New rules the precision gates left out, each with its gate and why (learn/gates). */
  gatedOut?: GatedOutRule[];
}

/** What the learning itself hands back: the new playbook, its operations, the run's record. */
export type LearnResult = Awaited<ReturnType<typeof learn>>;
