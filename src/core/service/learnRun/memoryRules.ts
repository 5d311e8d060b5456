import type { Proposal } from '../../assets/proposal';
import { agentName } from '../../memories/candidates';
import type { MemoryVerdict } from '../../memories/types';
import { cleanAuthor, type RuleAuthor } from '../../playbook/authorMark';
import type { DeltaOp } from '../../playbook/delta';
import type { Trace } from '../../trace/model';
import { agentMemoryReport, proposeMemories } from '../agentMemories';
import type { LearnResult, LearnWorkspaceOptions } from './options';

// The agents' own memories a run proposes: those this workspace's sessions bear out become rules of its proposal,
// written by the agent whose memory held them.

/**
 * The memories the sessions bear out, by the id of the rule each became (`result` takes them), and the sessions that
 * bear them out (the screen reads those too). Nothing when the run failed or the user turned memories off.
 */
export async function memoryRules(
  options: LearnWorkspaceOptions,
  result: LearnResult,
  veto: (op: DeltaOp) => string | undefined,
): Promise<{ fromMemory: Map<string, MemoryVerdict>; memoryTraces: Trace[] }> {
  if (!options.agentMemories || result.record.status !== 'completed')
    return { fromMemory: new Map(), memoryTraces: [] };
  const report = await agentMemoryReport({
    store: options.store,
    workspace: options.workspace,
    settings: options.agentMemories,
    playbook: result.playbook,
    allWorkspaces: options.allWorkspaces,
  });
  return { fromMemory: proposeMemories(result, report, veto), memoryTraces: report.traces };
}

/** A rule's origin when an agent's memory proposed it. */
export function memorySource(verdict: MemoryVerdict): NonNullable<Proposal['rules'][number]['source']> {
  const { agent, file, line } = verdict.item;
  return { kind: 'agent-memory', agent: agentName(agent), file, line };
}

/** Who wrote a rule an agent's memory proposed: that agent's memory (no model of this run, no prompt). */
export function memoryAuthor(verdict: MemoryVerdict): RuleAuthor {
  return cleanAuthor({ provider: 'agent-memory', model: verdict.item.agent, promptVersion: 'none' });
}
