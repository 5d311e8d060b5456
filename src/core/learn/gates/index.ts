import { completeCommandGate } from './completeCommand';
import { echoesTurnGate } from './echoesTurn';
import { escapeCodesGate } from './escapeCodes';
import { personalDataGate } from './personalData';
import { restatesGate } from './restates';
import { runnableGate } from './runnable';
import { supportUnlessFixGate } from './support';
import { taskRequestGate } from './taskRequest';
import type { Gate, GateContext, GatedRule, GateName } from './types';

/**
 * The gates in the order a rule is checked: what it carries first, then what it says, whether its commands run as
 * written, then its support (two sessions or a standing instruction, for every rule: a failure's lessons of one action
 * merge by its identity, so one lesson shown in two sessions arrives as one rule).
 */
export const GATES: readonly Gate[] = [
  personalDataGate,
  escapeCodesGate,
  taskRequestGate,
  echoesTurnGate,
  completeCommandGate,
  restatesGate,
  runnableGate,
  supportUnlessFixGate,
];

/** The first gate a rule fails, with why; undefined when it passes them all. */
export function gateRule(
  rule: GatedRule,
  context: GateContext,
  gates: readonly Gate[] = GATES,
): { gate: GateName; reason: string } | undefined {
  for (const gate of gates) {
    const reason = gate.check(rule, context);
    if (reason) return { gate: gate.name, reason };
  }
  return undefined;
}
