import type { RuleWithScope } from '../assets/agentsMd';
import type { AppliedOp } from '../playbook/apply';
import type { Playbook } from '../playbook/model';
import { rulesFromApplied } from './proposalFiles';
import type { Trace } from '../trace/model';
import { holdBack, type Hold } from '../trust/hold';
import { describeFlags } from '../trust/kinds';
import { screenRule } from '../trust/screenRule';

export interface ScreenedProposal {
  /** The proposal's rule changes, each with its flags ([] when clean). */
  rules: Array<RuleWithScope & { flags: NonNullable<RuleWithScope['flags']> }>;
  hold: Hold;
  /** One line per flagged rule, new or existing: for the run record, the CLI and the log. */
  warnings: string[];
}

/** Screens a run's rule changes against their sessions, and the playbook's existing rules by their text. */
export function screenProposal(input: {
  applied: AppliedOp[];
  playbook: Playbook;
  traces: readonly Trace[];
  playbookPath: string;
  isTrusted?: (content: string) => boolean;
}): ScreenedProposal {
  const byId = new Map(input.traces.map((t) => [t.id, t] as const));
  const rules = rulesFromApplied(input.applied).map((rule) => ({ ...rule, flags: screenRule(rule, byId) }));
  const hold = holdBack({ playbook: input.playbook, rules, isTrusted: input.isTrusted });
  const warnings = [
    ...[...hold.flagged].map(
      ([id, flags]) =>
        `proposed rule ${id} is flagged (${describeFlags(flags)}); it is in the playbook diff only, and is accepted only by name`,
    ),
    ...hold.existing.map(
      (held) =>
        `rule ${held.id} in ${input.playbookPath} is flagged (${describeFlags(held.flags)}); it is kept out of AGENTS.md and the other files`,
    ),
  ];
  return { rules, hold, warnings };
}
