import type { Proposal } from '../assets/proposal';
import { describeEscalation, escalations, VIOLATIONS_TO_ENFORCE, type Escalation } from '../assets/enforce/escalate';
import { withEnforcedMark } from '../assets/enforce/mark';
import { preCommitHost } from '../assets/enforce/preCommit';
import { wordsByRule } from '../learn/lifecycle';
import type { RunRecord } from '../learn/record';
import type { Playbook } from '../playbook/model';
import type { TraceStore } from '../store/traceStore';
import type { Trace } from '../trace/model';

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
  }).filter((e) => !offered.has(`${e.ruleId}\n${e.content}`));
  let playbook = input.playbook;
  for (const e of found) playbook = withEnforcedMark(playbook, e.ruleId, e.mark);
  return { playbook, enforcements: found.map(entry) };
}

function entry(e: Escalation): NonNullable<Proposal['enforcements']>[number] {
  return {
    ruleId: e.ruleId,
    content: e.content,
    agents: e.agents,
    ...(e.spec['claude-code'] ? { claudeCode: e.spec['claude-code'].map((m) => [...m]) } : {}),
    ...(e.spec['pre-commit'] ? { preCommit: e.spec['pre-commit'] } : {}),
    broke: e.broke,
    followed: e.followed,
    explanation: describeEscalation(e),
    mark: e.mark,
  };
}
