import { firstCommand } from '../../trace/commands';
import { isNearDuplicate } from '../../playbook/similarity';
import { ruleCommands } from './ruleEvidence';
import { actionKeys, mayBeOneLesson } from './sameAction';

// Whether two rule texts are the same rule, for decisions that must outlive a rule's id (every run numbers its new
// rules afresh): the same words, the same purpose for the same section of the playbook, or the very same actions in
// any section (a source that files rules its own way, as an agent's memory does, must meet the same decisions).

export interface RuleShape {
  content: string;
  /** The playbook section it is (or would be) filed under, when known. */
  section?: string;
}

/** Words after which a command names what it runs (`uv run pytest`, `pnpm exec tsc`, `python -m pytest`). */
const RUNNERS = new Set(['run', 'exec', 'dlx', 'x', 'tool', '-m']);

/**
 * A command by what it runs, not by the file, filter or package of one session: the program and its subcommand
 * (`pnpm test -- cart.test.ts` → `pnpm test`, `pnpm add zod` → `pnpm add`, `cargo test --features x` → `cargo test`),
 * and what a runner runs (`uv run pytest tests/x.py` → `uv run pytest`).
 */
export function commandPurpose(command: string): string {
  const words = firstCommand(command)
    .split(/\s*(?:&&|\|\||;|\|)\s*/)[0]
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  const kept = words.slice(0, 1);
  for (const word of words.slice(1)) {
    const afterRunner = RUNNERS.has(kept[kept.length - 1]);
    if (!afterRunner && (kept.length >= 2 || (word.startsWith('-') && !RUNNERS.has(word)))) break;
    // a path, a file or an assignment is one session's argument, never the purpose
    if (/[/\\=]|\.\w+$/.test(word)) break;
    kept.push(word);
    if (kept.length === 4) break;
  }
  return kept.join(' ');
}

/** What the rule is for: the one command it prescribes first, else the commands it rules out; none for prose. */
export function rulePurpose(content: string): string | undefined {
  const { prescribed, forbidden } = ruleCommands(content);
  if (prescribed.length > 0) return `run ${commandPurpose(prescribed[0])}`;
  if (forbidden.length > 0) return `not ${[...new Set(forbidden.map(commandPurpose))].sort().join(', ')}`;
  return undefined;
}

const sectionKey = (section: string) => section.replace(/\s+/g, ' ').trim().toLowerCase();

/** Both name the same commands, each prescribed or ruled out alike: one lesson whatever the words around them. */
function sameActions(a: string, b: string): boolean {
  const keys = actionKeys(a);
  return keys.length > 0 && keys.join('\n') === actionKeys(b).join('\n');
}

/**
 * The same rule: near-identical words, or (when `byPurpose`) the same purpose under the same section, or the same
 * purpose by the very same actions wherever it is filed.
 */
export function isSameRule(a: RuleShape, b: RuleShape, byPurpose = true): boolean {
  if (isNearDuplicate(a.content, b.content)) return true;
  if (!byPurpose) return false;
  const purpose = rulePurpose(a.content);
  // `cargo run --bin api` and `--bin worker` read alike by their first words, but run other targets
  if (purpose === undefined || purpose !== rulePurpose(b.content) || !mayBeOneLesson(a.content, b.content))
    return false;
  if (sameActions(a.content, b.content)) return true;
  return a.section !== undefined && b.section !== undefined && sectionKey(a.section) === sectionKey(b.section);
}
