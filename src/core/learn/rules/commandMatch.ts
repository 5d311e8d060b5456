import { firstCommand } from '../../trace/commands';
import { ruleIdentity, runsRuleCommand } from '../../trace/shell';
import { COUNTERPARTS, isPlaceholder, purposeOf, SAME_SUBCOMMAND } from './ruleText';

// How a session's command compares with a rule's: the same command (its key words lead it), the counterpart tool's
// command for the same job (`npm test` for `pnpm test`), or another command for one job (`pip install`, `uv sync`).

/**
 * A command's identity words (launcher, program, subcommand or script), remembered: each command part of a session is
 * compared with every rule's commands. `npm install <pkg>` names `npm install` with any package. None for a line the
 * parser cannot read.
 */
const KEYS = new Map<string, readonly string[]>();
export function keyWords(command: string): readonly string[] {
  let words = KEYS.get(command);
  if (!words) {
    if (KEYS.size >= 16_384) KEYS.clear();
    const id = ruleIdentity(command);
    const all = id ? [...id.launcher, ...id.words] : [];
    const open = all.findIndex(isPlaceholder);
    words = open < 0 ? all : all.slice(0, Math.max(1, open));
    KEYS.set(command, words);
  }
  return words;
}

/** A run part does what a rule's command names: its identity or a narrower one, with the rule's flags, env and folder. */
export function matchesCommand(part: string, ruleCommand: string): boolean {
  return runsRuleCommand(part, ruleCommand);
}

/** `pnpm test` → `test`, `npm run db:generate` → `db:generate`, `pnpm add x` → `install x`. */
function subcommandWords(command: string): string[] {
  const words = keyWords(command).slice(1);
  if (words[0] === 'run') words.shift();
  if (words[0] && SAME_SUBCOMMAND[words[0]]) words[0] = SAME_SUBCOMMAND[words[0]];
  return words;
}

/** `npm test` where the rule says `pnpm test`: the same job done with the tool the rule did not choose. */
export function isCounterpartOf(part: string, ruleCommand: string): boolean {
  const tool = keyWords(ruleCommand)[0];
  const program = keyWords(part)[0];
  if (!(COUNTERPARTS[tool] ?? []).includes(program)) return false;
  const want = subcommandWords(ruleCommand);
  const have = subcommandWords(part);
  // a bare tool is handled by `forbidden`; here only the same job counts
  return want.length > 0 && want.every((w, i) => have[i] === w);
}

/** `npm install lodash` → `npm install`, `npm run build` → `npm run build`, `TZ=UTC pnpm vitest run x` → `pnpm vitest`. */
export function toolAndJob(command: string): string {
  const words = firstCommand(command).split(/\s+/).filter(Boolean);
  const job = (w: string | undefined) => w !== undefined && /^[a-z][\w:-]*$/.test(w);
  if (!job(words[1])) return words[0] ?? '';
  // a script run names the script: `npm run build` and `pnpm build` do one job, `npm run` alone says nothing
  const takesScript = ['run', 'exec', 'dlx'].includes(words[1]) && words[0] in COUNTERPARTS && job(words[2]);
  return words.slice(0, takesScript ? 3 : 2).join(' ');
}

/** Two commands for one job: counterparts (`npm install x`, `pnpm add y`) or the same kind of check or job. */
export function sameJob(a: string, b: string): boolean {
  if (isCounterpartOf(a, b) || isCounterpartOf(b, a)) return true;
  const purpose = purposeOf(a);
  return purpose !== undefined && purpose === purposeOf(b);
}
