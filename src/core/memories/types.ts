import type { Evidence } from '../playbook/delta';
import type { RuleFlag } from '../trust/kinds';

/** Agents whose own memory files are read as candidate lessons (one reader each). */
export type MemoryAgent = 'claude-code' | 'codex' | 'gemini-cli' | 'copilot';

/** One memory file as read (never written): its text is untrusted input until redacted and screened. */
export interface MemoryFile {
  agent: MemoryAgent;
  /** Where it was read, home shown as `~`: what is reported, never opened again from the text. */
  shown: string;
  text: string;
}

/** One memory (a bullet or a paragraph of a memory file), redacted and screened. */
export interface MemoryItem {
  /** Stable across runs: the agent, the file and the text decide it, never the order of reading or the clock. */
  id: string;
  agent: MemoryAgent;
  file: string;
  /** 1-based line of the file where it starts. */
  line: number;
  /** Read from a file kept for this workspace alone, or from one kept for every project (it names this repository). */
  scope: 'project' | 'global';
  /** The memory's text with secrets removed. */
  text: string;
  /** Secrets were removed from it. */
  redacted: boolean;
  /** What screening the text found (injections, exfiltration, …): a flagged memory is never proposed. */
  flags: RuleFlag[];
}

export type MemoryVerdictKind = 'supported' | 'contradicted' | 'unverified' | 'flagged';

/** What one session says of a memory, in the words of the rule-evidence reading. */
export interface MemorySessionEvidence extends Evidence {
  reason: string;
}

export interface MemoryVerdict {
  item: MemoryItem;
  verdict: MemoryVerdictKind;
  /** Sessions where doing what the memory says went well, or doing otherwise failed and its way fixed it. */
  support: MemorySessionEvidence[];
  /** Sessions where what the memory says went badly, or the user asked for the other way. */
  against: MemorySessionEvidence[];
  /** The playbook rule that already says it (by id), when one does: it is not proposed again. */
  sameAs?: string;
}
