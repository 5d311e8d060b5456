import { budgetedTokens } from './budget';
import { bullets, type Playbook } from '../../playbook/model';
import { jaccard, NEAR_DUPLICATE, tokens } from '../../playbook/similarity';
import { countTokens } from '../../util/tokens';
import { conflictBetween } from './conflicts';
import { COUNTERPARTS, ruleCommands } from './ruleEvidence';

// What the review should know of a proposed rule before accepting it, beyond the trust screen: that it is close to
// a rule already there, that it contradicts one (a command one prescribes and the other rules out), that it only
// says what not to do, and what it costs the playbook's budget. Notes inform; they hold nothing back.

/** Words shared with another rule from here on are worth a look (at NEAR_DUPLICATE, the ADD is skipped outright). */
const CLOSE = 0.5;
const PROHIBITION = /^\s*(?:never|don'?t|do not|avoid|no)\b/i;

export interface LintedChange {
  id: string;
  op: string;
  content?: string;
}

function commandHead(command: string): string {
  return command
    .split(/\s+/)
    .filter((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w))
    .slice(0, 2)
    .join(' ');
}

/** Notes for each proposed ADD or UPDATE, by rule id, against the playbook the proposal leaves. */
export function lintRules(
  changes: readonly LintedChange[],
  playbook: Playbook,
  budgetTokens: number,
  /** The team's own text in the agents' files (outside Combee's block), by path. */
  team: ReadonlyArray<{ path: string; text: string }> = [],
): Map<string, string[]> {
  const teamSays = team.flatMap(({ path, text }) =>
    text
      .split(/\n+/)
      .map((line) => ({ path, line: line.trim(), ...ruleCommands(line) }))
      .filter((c) => c.prescribed.length + c.forbidden.length > 0),
  );
  const rules = bullets(playbook);
  const total = budgetedTokens(playbook);
  const notes = new Map<string, string[]>();
  for (const change of changes) {
    if ((change.op !== 'ADD' && change.op !== 'UPDATE') || !change.content) continue;
    const said: string[] = [];
    const words = tokens(change.content);
    const own = ruleCommands(change.content);
    for (const other of rules) {
      if (other.id === change.id) continue;
      const overlap = jaccard(words, tokens(other.content));
      if (overlap >= CLOSE && overlap < NEAR_DUPLICATE)
        said.push(`close to [${other.id}] (${Math.round(overlap * 100)} % of its words): merge them?`);
      const clash = conflictBetween(change.content, other.content);
      if (clash) said.push(`contradicts [${other.id}]: ${clash}`);
    }
    for (const line of teamSays) {
      const clash = conflictBetween(change.content, line.line);
      // the team's text is theirs to change: the review says which line this rule overrules
      const note =
        clash && `contradicts the team's own text in ${line.path} ("${line.line}"): ${clash}; edit that line by hand`;
      if (note && !said.includes(note)) said.push(note);
    }
    if (PROHIBITION.test(change.content) && own.prescribed.length === 0) {
      // what the rest of the playbook or the team prescribes instead gives the rule its positive form
      const elsewhere = [
        ...rules.filter((r) => r.id !== change.id).flatMap((r) => ruleCommands(r.content).prescribed),
        ...teamSays.flatMap((line) => line.prescribed),
      ].map(commandHead);
      const form = own.forbidden.map(commandHead).flatMap((not) => {
        const [tool, sub] = not.split(' ');
        const instead = elsewhere.find((c) => {
          const [otherTool, otherSub] = c.split(' ');
          return (COUNTERPARTS[tool] ?? []).includes(otherTool) && (sub === undefined || otherSub === sub);
        });
        return instead ? [`Run \`${instead}\`, not \`${not}\``] : [];
      })[0];
      said.push(
        form
          ? `says only what not to do; as an instruction: "${form}"`
          : 'says only what not to do: agents follow a rule better when it says what to do instead',
      );
    }
    const cost = countTokens(change.content);
    said.push(`${cost} token(s); the playbook is ${total} of its ${budgetTokens}-token budget`);
    notes.set(change.id, said);
  }
  return notes;
}
