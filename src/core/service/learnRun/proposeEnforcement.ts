import type { Proposal } from '../../assets/proposal';
import { hookAgentsAvailable, HOOK_AGENTS, SHARED_HOOK_DATA_PATH } from '../../assets/enforce/agentHooks';
import {
  describeEscalation,
  describeSpec,
  escalations,
  VIOLATIONS_TO_ENFORCE,
  type Escalation,
} from '../../assets/enforce/escalate';
import { enforcedRules, withEnforcedMark, type EnforcementSpec } from '../../assets/enforce/mark';
import { HOOK_DATA_PATH } from '../../assets/enforce/hookScript';
import { PRE_COMMIT_DATA_PATH } from '../../assets/enforce/preCommit';
import type { FileChange } from '../../assets/proposal';
import { preCommitHost } from '../../assets/enforce/preCommit';
import { wordsByRule } from '../../learn/rules/lifecycle';
import type { RunRecord } from '../../learn/record/record';
import type { Playbook } from '../../playbook/model';
import type { TraceStore } from '../../store/traceStore';
import type { Trace } from '../../trace/model';

/**
 * The run's playbook with an enforcement mark on each rule its sessions kept breaking (the hook files are rendered
 * from the marks with the other assets), and what the proposal says of each. Only the sessions of rules broken often
 * enough are read from the store.
 */
export async function proposeEnforcement(input: {
  playbook: Playbook;
  /** The earlier runs' records. */
  records: readonly RunRecord[];
  /** This run's: its sessions' words count, its rewordings do not (they are only proposed, beside the enforcement). */
  run: RunRecord;
  /** This run's sessions, already read. */
  traces: readonly Trace[];
  store: TraceStore;
  held: ReadonlySet<string>;
  /** Earlier proposals of the workspace: an enforcement still waiting in one, or turned down, is not offered again. */
  earlier: () => Promise<readonly Proposal[]>;
  readFile: (rel: string) => string | undefined;
  teamReview?: boolean;
}): Promise<{ playbook: Playbook; enforcements: NonNullable<Proposal['enforcements']> }> {
  const words = wordsByRule([...input.records, { ...input.run, nodes: [] }]);
  const wanted = new Set<string>();
  for (const said of words.values())
    if (said.filter((w) => w.tag === 'violated').length >= VIOLATIONS_TO_ENFORCE)
      for (const w of said) wanted.add(w.traceId);
  if (wanted.size === 0) return { playbook: input.playbook, enforcements: [] };
  const traces = new Map(input.traces.filter((t) => wanted.has(t.id)).map((t) => [t.id, t]));
  const missing = [...wanted].filter((id) => !traces.has(id)).sort();
  if (missing.length > 0) for (const t of await input.store.loadTraces(missing)) traces.set(t.id, t);
  // the same rule, worded the same: what its review said (or has yet to say) stands
  const offered = new Set(
    (await input.earlier())
      .filter((p) => p.status === 'pending' || p.status === 'rejected')
      .flatMap((p) => (p.enforcements ?? []).map((e) => `${e.ruleId}\n${e.content}`)),
  );
  const found = escalations({
    playbook: input.playbook,
    words,
    traces,
    held: input.held,
    preCommit: preCommitHost(input.readFile) !== undefined,
    hookAgents: hookAgentsAvailable(input.readFile),
    teamReview: input.teamReview,
  }).filter((e) => !offered.has(`${e.ruleId}\n${e.content}`));
  let playbook = input.playbook;
  // one only team bundles' sessions broke is held like such a rule: said, never marked, so no hook is rendered
  for (const e of found) if (!e.teamOnly) playbook = withEnforcedMark(playbook, e.ruleId, e.mark);
  return { playbook, enforcements: found.map(entry) };
}

/** The spec as the proposal stores it: Claude Code's commands, the other agents' by agent, the pre-commit paths. */
function stored(spec: EnforcementSpec) {
  const hooks: Record<string, string[][]> = {};
  for (const agent of HOOK_AGENTS)
    if (agent !== 'claude-code' && spec[agent]) hooks[agent] = spec[agent].map((m) => [...m]);
  return {
    ...(spec['claude-code'] ? { claudeCode: spec['claude-code'].map((m) => [...m]) } : {}),
    ...(Object.keys(hooks).length > 0 ? { hooks } : {}),
    ...(spec['pre-commit'] ? { preCommit: [...spec['pre-commit']] } : {}),
  };
}

/** The stored enforcement read back as a spec (only the agents Combee knows). */
function specOf(e: Pick<Enforced, 'claudeCode' | 'hooks' | 'preCommit'>): EnforcementSpec {
  const spec: EnforcementSpec = {};
  if (e.claudeCode) spec['claude-code'] = e.claudeCode;
  for (const agent of HOOK_AGENTS) if (agent !== 'claude-code' && e.hooks?.[agent]) spec[agent] = e.hooks[agent];
  if (e.preCommit) spec['pre-commit'] = e.preCommit;
  return spec;
}

function entry(e: Escalation): NonNullable<Proposal['enforcements']>[number] {
  return {
    ruleId: e.ruleId,
    content: e.content,
    agents: e.agents,
    ...stored(e.spec),
    broke: e.broke,
    followed: e.followed,
    ...(e.replays.length > 0 ? { replays: e.replays } : {}),
    explanation: e.teamOnly
      ? `${describeEscalation(e)}; held (team-only: ${e.teamOnly}), not marked or rendered until your own sessions break it too`
      : describeEscalation(e),
    ...(e.teamOnly ? { flags: [{ kind: 'team-only' as const, reason: e.teamOnly }] } : { mark: e.mark }),
  };
}

export type Enforced = NonNullable<Proposal['enforced']>[number];

/** Every enforcement the proposal's hook files carry: the playbook's marks (not held), when a hook file is among them. */
export function enforcedInFiles(
  playbook: Playbook,
  held: ReadonlySet<string>,
  files: readonly FileChange[],
): Enforced[] {
  if (!files.some((f) => [HOOK_DATA_PATH, SHARED_HOOK_DATA_PATH, PRE_COMMIT_DATA_PATH].includes(f.path))) return [];
  return [...enforcedRules(playbook)]
    .filter(([id]) => !held.has(id))
    .map(([ruleId, { content, spec }]) => ({ ruleId, content, ...stored(spec) }));
}

/** What one enforcement stops, in one line. */
export function describeEnforced(e: Pick<Enforced, 'claudeCode' | 'hooks' | 'preCommit'>): string {
  return describeSpec(specOf(e), { hook: 'stops', commit: 'refuses' });
}
