import { escapeCodesGate } from './escapeCodes';
import { personalDataGate } from './personalData';
import { restatesGate } from './restates';
import { supportGate } from './support';
import { taskRequestGate } from './taskRequest';
import type { Gate, GateContext, GatedRule, GateName } from './types';

/**
 * The gates in the order a rule is checked: what it carries first, then what it says. The support gate is not in the
 * run yet: until lessons of one action merge into one rule (the shell-command identity), a lesson shown in two
 * sessions still arrives as two rules of one session each, and the gate would drop it.
 */
export const GATES: readonly Gate[] = [personalDataGate, escapeCodesGate, taskRequestGate, restatesGate];

/** Every gate, the support gate included (for callers that weigh support themselves). */
export const ALL_GATES: readonly Gate[] = [...GATES, supportGate];

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
