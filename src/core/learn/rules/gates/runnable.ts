import { classifyCommand } from '../../../trace/commands';
import { KIT, parseLine, type Identity } from '../../../trace/shell';
import type { Gate, GateContext, GatedRule } from './types';

// A command a rule prescribes is one an agent will run as written. What the sessions can prove wrong is refused: a
// heredoc opener without its body (`node - <<'JS'`), and a command stripped of what it acts on — one that never ran
// in that form while the sessions ran it with a name after it (`npm install -D` for `npm install -D vitest`). A check
// may drop what picked one test or file for the task, a run the file it was given, and any flag: those still run.

/** Spans a rule names as what not to run: after "not", "never", "instead of", "without", "rather than". */
const FORBIDDEN_BEFORE = /\b(?:not|never|instead of|without|rather than|than|avoid|don't|do not)\s*$/i;
const CHECKS = new Set(['test', 'lint', 'typecheck', 'format']);

/** The commands a rule tells an agent to run: backticked spans that parse to a command the sessions ran. */
function prescribed(content: string): string[] {
  const found: string[] = [];
  for (const m of content.matchAll(/`([^`\n]+)`/g)) {
    const before = content.slice(0, m.index);
    // a failure's quoted output is no command either
    if (FORBIDDEN_BEFORE.test(before) || /\bfails? with\s*$/i.test(before)) continue;
    found.push(m[1].trim());
  }
  return found;
}

const sorted = (list: readonly string[]) => [...list].sort().join('\u0000');
const flagsOf = (id: Identity) => sorted([...id.flags, ...id.selectors].map(([n, v]) => `${n}=${v ?? ''}`));
/** A target that names what the command acts on (a package, a branch), not a file or a setting. */
const isName = (target: string) => /^[A-Za-z@][\w@:+-]*$/.test(target);

function sameInvocation(ran: Identity, rule: Identity): boolean {
  return (
    ran.launcher.join(' ') === rule.launcher.join(' ') &&
    ran.words.join(' ') === rule.words.join(' ') &&
    sorted(ran.env) === sorted(rule.env) &&
    flagsOf(ran) === flagsOf(rule) &&
    sorted(ran.targets) === sorted(rule.targets)
  );
}

/** The rule's command with names cut off: the same invocation, and a name it acted on missing from the rule. */
function strippedOf(ran: Identity, rule: Identity): boolean {
  if (ran.launcher.join(' ') !== rule.launcher.join(' ') || ran.words.join(' ') !== rule.words.join(' ')) return false;
  if (!KIT.matches(ran, rule)) return false;
  return ran.targets.some((t) => !rule.targets.includes(t) && isName(t));
}

/** Each command the sessions ran, whatever came of it, as identities (every simple command of the line). */
function invocations(context: GateContext): { all: Identity[] } {
  const all: Identity[] = [];
  for (const trace of context.traces.values())
    for (const step of trace.steps) {
      if (step.kind !== 'tool_call' || !step.command) continue;
      for (const c of parseLine(step.command).commands) {
        const inv = KIT.invocation(c.words);
        if (inv) all.push(KIT.identify(inv));
      }
    }
  return { all };
}

export function unrunnable(rule: GatedRule, context: GateContext): string | undefined {
  const spans = prescribed(rule.content);
  if (spans.length === 0) return undefined;
  const { all } = invocations(context);
  for (const span of spans) {
    // a heredoc opener without its body runs nothing useful
    if (/<<-?\s*['"]?\w+['"]?\s*$/.test(span)) return span;
    const commands = parseLine(span).commands.filter((c) => c.words[0] !== 'cd');
    if (commands.length !== 1) continue;
    const inv = KIT.invocation(commands[0].words);
    if (!inv || CHECKS.has(classifyCommand(span))) continue;
    const id = KIT.identify(inv);
    if (all.some((r) => sameInvocation(r, id))) continue;
    if (all.some((r) => strippedOf(r, id))) return span;
  }
  return undefined;
}

export const runnableGate: Gate = {
  name: 'runnable',
  check: (rule, context) => {
    const span = unrunnable(rule, context);
    return span === undefined
      ? undefined
      : `it prescribes \`${span}\`, cut short of what the sessions ran: not runnable as written`;
  },
};
