import { classifyCommand } from '../../trace/commands';
import { failedResult } from '../sessionSignals';
import { KIT, parseLine, type Identity } from '../../trace/shell';
import type { Gate, GateContext, GatedRule } from './types';

// A command a rule prescribes is one an agent will run as written: that exact invocation (its program, subcommand,
// flags and arguments) ran and passed in a session of the run. A check may drop what picked one test or file for the
// task (`pnpm vitest run` for `pnpm vitest run src/a.test.ts`): the whole suite is the same command. Anything else
// stripped (`npm install -D` without its package) or left dangling (`node - <<'JS'` without its script) does not run.

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

function sameInvocation(ran: Identity, rule: Identity, check: boolean): boolean {
  if (ran.launcher.join(' ') !== rule.launcher.join(' ') || ran.words.join(' ') !== rule.words.join(' ')) return false;
  if (sorted(ran.env) !== sorted(rule.env)) return false;
  // a check ran on one file or filter is still the check: its selectors and targets may be dropped
  if (check) return KIT.matches(ran, rule);
  // the file a run was given is the task's (`cargo run --example x maps/a.tmx`); a package or a name is what it does
  const extra = ran.targets.filter((t) => !rule.targets.includes(t));
  return (
    flagsOf(ran) === flagsOf(rule) &&
    rule.targets.every((t) => ran.targets.includes(t)) &&
    extra.every((t) => /\/|\.\w{1,8}$/.test(t))
  );
}

/** Each command the sessions ran and passed, as identities (every simple command of the line), and every program run. */
function invocations(context: GateContext): { passed: Identity[]; programs: Set<string> } {
  const found: Identity[] = [];
  const programs = new Set<string>();
  for (const trace of context.traces.values()) {
    const calls = new Map(trace.steps.flatMap((s) => (s.kind === 'tool_call' && s.command ? [[s.callId, s]] : [])));
    for (const step of trace.steps) {
      if (step.kind !== 'tool_result') continue;
      const command = calls.get(step.callId)?.command;
      if (command === undefined) continue;
      const passed = !failedResult(step, command);
      for (const c of parseLine(command).commands) {
        const inv = KIT.invocation(c.words);
        if (!inv) continue;
        const id = KIT.identify(inv);
        programs.add(id.words[0]);
        if (id.launcher[0]) programs.add(id.launcher[0]);
        if (passed) found.push(id);
      }
    }
  }
  return { passed: found, programs };
}

export function unrunnable(rule: GatedRule, context: GateContext): string | undefined {
  const spans = prescribed(rule.content);
  if (spans.length === 0) return undefined;
  // a span naming no program the sessions ran is a name, a path or code, not a command
  const { passed: ran, programs } = invocations(context);
  for (const span of spans) {
    // a heredoc opener without its body runs nothing useful
    if (/<<-?\s*['"]?\w+['"]?\s*$/.test(span)) return span;
    const commands = parseLine(span).commands.filter((c) => c.words[0] !== 'cd');
    if (commands.length !== 1) continue;
    const inv = KIT.invocation(commands[0].words);
    if (!inv) continue;
    const id = KIT.identify(inv);
    // a bare word (`python3`, `Entire-Checkpoint`) names a program or a thing, not a form to run
    if (id.words.length === 1 && inv.args.length === 0 && inv.launcher.length === 0) continue;
    // a span naming no program the sessions ran is a name, a path or code, not a command
    if (!programs.has(id.words[0])) continue;
    const check = CHECKS.has(classifyCommand(span));
    if (!ran.some((r) => sameInvocation(r, id, check))) return span;
  }
  return undefined;
}

export const runnableGate: Gate = {
  name: 'runnable',
  check: (rule, context) => {
    const span = unrunnable(rule, context);
    return span === undefined
      ? undefined
      : `it prescribes \`${span}\`, which no session ran and passed in that form: not runnable as written`;
  },
};
