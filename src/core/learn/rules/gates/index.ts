import { completeCommandGate } from './completeCommand';
import { echoesTurnGate } from './echoesTurn';
import { escapeCodesGate } from './escapeCodes';
import { personalDataGate } from './personalData';
import { refutedGate } from './refuted';
import { restatesGate } from './restates';
import { userWordsSupportGate } from './support';
import { taskRequestGate } from './taskRequest';
import type { Gate, GateContext, GatedRule, GateName } from './types';

/**
 * The gates in the order a rule is checked: what it carries first, then what it says, then its support. Support is
 * asked of rules drawn from a user's correction only (see support.ts): until commands share one identity, a failure's
 * lesson shown in two sessions can still arrive as two rules of one session each.
 */
export const GATES: readonly Gate[] = [
  personalDataGate,
  escapeCodesGate,
  taskRequestGate,
  echoesTurnGate,
  completeCommandGate,
  refutedGate,
  restatesGate,
  userWordsSupportGate,
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
