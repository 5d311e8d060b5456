import type { Proposal } from '../../assets/proposal';
import { decisionNotes } from '../../learn/rules/priorDecisions';
import { lintRules } from '../../learn/rules/ruleLint';
import type { MemoryVerdict } from '../../memories/types';
import type { Playbook } from '../../playbook/model';
import { describeFlags } from '../../trust/kinds';
import type { HeldRule } from '../../trust/hold';
import { memoryNote } from '../agentMemories';

// What the review is told beside each rule: the lint's notes, a decision made about it before, why a held rule's
// retirement is offered, its enforcement, the memory it came from, and what an earlier proposal said of it.

export interface NotesInput {
  rules: Parameters<typeof lintRules>[0];
  playbook: Playbook;
  budgetTokens: number;
  team: Array<{ path: string; text: string }>;
  appliedOps: Parameters<typeof decisionNotes>[0];
  judge: Parameters<typeof decisionNotes>[1];
  retiring: readonly HeldRule[];
  playbookPath: string;
  enforcements: ReadonlyArray<{ ruleId: string; explanation: string }>;
  fromMemory: ReadonlyMap<string, MemoryVerdict>;
  carried: ReadonlyMap<string, Proposal['rules'][number]>;
}

export function ruleNotes(input: NotesInput): Map<string, string[]> {
  const notes = lintRules(input.rules, input.playbook, input.budgetTokens, input.team);
  // a rule back after a rejection or retirement says so first (decided on other sessions than these)
  for (const [id, note] of decisionNotes(input.appliedOps, input.judge))
    notes.set(id, [note, ...(notes.get(id) ?? [])]);
  // a held rule's retirement says why it is offered, and what each decision does
  for (const h of input.retiring)
    notes.set(h.id, [
      `flagged in ${input.playbookPath} (${describeFlags(h.flags)}): accept to take it out of the playbook, reject to keep it there, out of the other files`,
      ...(notes.get(h.id) ?? []),
    ]);
  // a rule reworded beside its enforcement says so where it is reviewed
  for (const e of input.enforcements) notes.set(e.ruleId, [...(notes.get(e.ruleId) ?? []), e.explanation]);
  for (const [id, verdict] of input.fromMemory) notes.set(id, [memoryNote(verdict), ...(notes.get(id) ?? [])]);
  // what the review was told of a carried rule is told again (new notes first)
  for (const [id, rule] of input.carried) {
    const all = [...(notes.get(id) ?? []), ...(rule.notes ?? [])];
    if (all.length > 0) notes.set(id, [...new Set(all)]);
  }
  return notes;
}
