import type { Evidence } from '../../../playbook/delta';
import type { Trace } from '../../../trace/model';

// Every rule a run proposes, the miner's or a model's, passes the same gates (index.ts); a rule that fails one is
// not proposed, and the run says which gate left it out.

export type GateName =
  | 'support'
  | 'runnable'
  | 'personal-data'
  | 'escape-codes'
  | 'task-request'
  | 'echoes-turn'
  | 'complete-command'
  | 'refuted'
  | 'restates-repository';

export interface GatedRule {
  content: string;
  support: readonly Evidence[];
}

/** What the repository already says to an agent: its declared commands and its documents. */
export interface RepositoryText {
  /** Commands the repository declares (`pnpm test` for a `test` script, `make gen` for a target), as typed. */
  commands: ReadonlySet<string>;
  /** README, CONTRIBUTING, the agents' files: text an agent reads anyway. */
  documents: ReadonlyArray<{ path: string; text: string }>;
}

export interface GateContext {
  traces: ReadonlyMap<string, Trace>;
  repository: RepositoryText;
}

export interface Gate {
  name: GateName;
  /** Why the rule is not proposed, or undefined when it passes. */
  check(rule: GatedRule, context: GateContext): string | undefined;
}
