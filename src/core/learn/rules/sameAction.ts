import { ruleIdentity } from '../../trace/shell';
import { codeTerms } from './codeTerms';
import { keyWords, matchesCommand } from './commandMatch';
import { COUNTERPARTS, ruleCommands, SAME_SUBCOMMAND } from './ruleText';

// Two rules are one lesson only when they are about the same actions: a command's identity by its tool's grammar
// (program, subcommand, script or target: `make gen-001`, `npm run test:web`, `cargo run --bin=api`). Rules that name
// different targets of one tool are different lessons however many words they share, and a rule that rules out what
// another prescribes is its opposite, never its duplicate.

/** What each rule text was read as: a run compares every new rule with every other (bounded, cleared when full). */
const READ = new Map<string, { actions: ReadonlyMap<string, string[]>; targets: readonly string[] }>();

function read(content: string): { actions: ReadonlyMap<string, string[]>; targets: readonly string[] } {
  let found = READ.get(content);
  if (!found) {
    if (READ.size >= 16_384) READ.clear();
    const { prescribed, forbidden } = ruleCommands(content);
    const targets = [...prescribed, ...forbidden].flatMap((c) => ruleIdentity(c)?.targets ?? []);
    found = { actions: readActions(content), targets: targets.map((t) => t.toLowerCase()) };
    READ.set(content, found);
  }
  return found;
}

const actionsByProgram = (content: string) => read(content).actions;

/** Identity keys of the commands a rule names (prescribed or ruled out), grouped by program. */
function readActions(content: string): Map<string, string[]> {
  const { prescribed, forbidden } = ruleCommands(content);
  const byProgram = new Map<string, string[]>();
  for (const command of [...prescribed, ...forbidden]) {
    const words = [...keyWords(command)];
    // `pnpm add x` and `pnpm install` are the one job of installing with pnpm
    if (words[0] in COUNTERPARTS && words[1] && SAME_SUBCOMMAND[words[1]])
      words.splice(1, words.length, SAME_SUBCOMMAND[words[1]]);
    const key = words.length > 0 ? words.join(' ') : command.trim().toLowerCase();
    const program = key.split(' ')[0];
    const list = byProgram.get(program) ?? [];
    if (!list.includes(key)) list.push(key);
    byProgram.set(program, list);
  }
  return byProgram;
}

/** The identities of the commands a rule names, sorted: what it does, whatever its wording. */
export function actionKeys(content: string): string[] {
  return [...actionsByProgram(content).values()].flat().sort();
}

/** One identity is the other, or a narrower form of it (`make` and `make gen-001`, `cargo test` and `cargo test --bin=api`). */
function related(p: string, q: string): boolean {
  return p === q || p.startsWith(`${q} `) || q.startsWith(`${p} `);
}

/**
 * Whether two rules name different actions of a tool they both use: for some program, neither rule's commands of it
 * are all among the other's (`make gen-001` and `make test-001` against `make gen-002` and `make test-002`). Rules with
 * no command in common programs are not judged here.
 */
export function differentActions(a: string, b: string): boolean {
  const [x, y] = [actionsByProgram(a), actionsByProgram(b)];
  for (const [program, mine] of x) {
    const theirs = y.get(program);
    if (!theirs) continue;
    const within = (p: string[], q: string[]) => p.every((c) => q.some((d) => related(c, d)));
    if (!within(mine, theirs) && !within(theirs, mine)) return true;
  }
  return false;
}

/** Whether every action of one rule is among the other's (`iex -S mix phx.server` among `mix phx.server` and it). */
export function actionsWithin(a: string, b: string): boolean {
  const all = (content: string) => [...actionsByProgram(content).values()].flat();
  const [x, y] = [all(a), all(b)];
  const within = (p: string[], q: string[]) => p.length > 0 && p.every((c) => q.some((d) => related(c, d)));
  return within(x, y) || within(y, x);
}

/**
 * Whether the commands of one rule act on what the other names: `cp .env.example .env.local` and "`pnpm dev` needs
 * `.env.local`: copy it from `.env.example`" tell one lesson from two ends. A folder both name in prose (`services/cart`)
 * is where two lessons apply, not what either does.
 */
export function actsOnNamesOf(a: string, b: string): boolean {
  const actsOn = (one: string, other: string) => {
    const { targets } = read(one);
    if (targets.length === 0) return false;
    const names = codeTerms(other);
    return targets.some((t) => names.has(t));
  };
  return actsOn(a, b) || actsOn(b, a);
}

/** Whether one rule rules out a command the other prescribes ("never `make lint`" / "always `make lint`"). */
export function opposedActions(a: string, b: string): boolean {
  const [x, y] = [ruleCommands(a), ruleCommands(b)];
  const rulesOut = (own: typeof x, other: typeof x) =>
    other.prescribed.some(
      (c) => own.forbidden.some((f) => matchesCommand(c, f)) && !own.prescribed.some((p) => matchesCommand(c, p)),
    );
  return rulesOut(x, y) || rulesOut(y, x);
}

/**
 * Whether two rules can be one lesson at all, by their actions: where both name commands, the actions of one among the
 * other's (or acting on what it names), no other target of a tool they share, and neither ruling out the other's.
 */
export function mayBeOneLesson(a: string, b: string): boolean {
  if (differentActions(a, b) || opposedActions(a, b)) return false;
  const named = (content: string) => actionsByProgram(content).size > 0;
  return !named(a) || !named(b) || actionsWithin(a, b) || actsOnNamesOf(a, b);
}
