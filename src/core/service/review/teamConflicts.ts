import type { Proposal, TeamConflict } from '../../assets/proposal';
import { isOpen, pendingRules } from '../../assets/review';

// A rule that contradicts a line of the team's own text is a review comment on that line, as a pull request review
// puts one: the note, and the line as the rule would have it. It stays while the conflict is open: while the rule
// waits for a decision (it would overrule the line), or, for a lesson the team's line outweighed, while the proposal
// is open; and only while the line still reads so.

/** The team's line as the rule would have it: its list marker kept, the rule's words in place of its own. */
export function suggestedLine(line: string, content: string): string {
  const marker = /^(?:[-*+]|\d+[.)])\s+/.exec(line)?.[0] ?? '';
  return `${marker}${content}`;
}

export interface OpenConflict extends TeamConflict {
  /** Where the line is in its file now, 0-based. */
  lineNumber: number;
}

/** The open conflicts of a proposal, each on the line of the file where the team's line is now. */
export function openConflicts(proposal: Proposal, readFile: (rel: string) => string | undefined): OpenConflict[] {
  if (!isOpen(proposal)) return [];
  const pending = new Set(pendingRules(proposal).map((r) => r.id));
  const lines = new Map<string, string[] | undefined>();
  const linesOf = (path: string) => {
    if (!lines.has(path)) lines.set(path, readFile(path)?.split('\n'));
    return lines.get(path);
  };
  return (proposal.teamConflicts ?? []).flatMap((conflict) => {
    if (conflict.outcome === 'overrules' && !pending.has(conflict.ruleId)) return [];
    const lineNumber = linesOf(conflict.path)?.findIndex((l) => l.trim() === conflict.line) ?? -1;
    return lineNumber < 0 ? [] : [{ ...conflict, lineNumber }];
  });
}

/** One conflict in a sentence, naming the file, the line and the rule. */
export function describeConflict(conflict: OpenConflict): string {
  const where = `${conflict.path}:${conflict.lineNumber + 1} ("${conflict.line}")`;
  return conflict.outcome === 'overrules'
    ? `rule ${conflict.ruleId} ("${conflict.content}") overrules ${where}: ${conflict.reason}; suggested: "${conflict.suggestion}"`
    : `lesson "${conflict.content}" left out: ${where} says otherwise (${conflict.reason}); if that line is out of date, change it to "${conflict.suggestion}"`;
}

/** What the Accept dialog says after the files it writes: every open conflict, one a line. */
export function conflictsDetail(open: readonly OpenConflict[]): string {
  if (open.length === 0) return '';
  const head = `${open.length} conflict${open.length === 1 ? '' : 's'} with your team's own text (a comment on each line):`;
  return [head, ...open.map((c) => `• ${describeConflict(c)}.`)].join('\n');
}
