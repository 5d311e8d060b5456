import type { Step } from './model';

// What a user step is, for the texts that show a session (transcripts, prompts, evidence): the user's words, or one
// of the steps that are not words to the agent.

export type UserStepKind = 'words' | 'injected' | 'confirmation' | 'undo';

export function userStepKind(step: Extract<Step, { kind: 'user' }>): UserStepKind {
  if (step.undo) return 'undo';
  if (step.confirmation) return 'confirmation';
  return step.isMeta ? 'injected' : 'words';
}
