import { classifyCommand, commandKey, firstCommand, type CommandKind } from '../trace/commands';
import { editedFiles } from '../trace/edits';
import type { Step, ToolCallStep, ToolResultStep, Trace } from '../trace/model';
import { isCorrection } from '../trace/outcome';

// What one session says about each playbook rule that was in play in it. A rule names commands; the session's
// command runs, citations of the rule's id and the user's reactions decide whether following the rule went well.

export interface RuleInPlay {
  id: string;
  content: string;
}

export type EvidenceTag = 'helpful' | 'harmful' | 'violated' | 'neutral';

export interface RuleEvidence {
  id: string;
  tag: EvidenceTag;
  /** A short fixed sentence, with at most one command cut to 80 characters: never the session's text. */
  reason: string;
  /** Step indexes that show it, ascending. */
  steps: number[];
}

/** What the session's outcome says, independent of any rule. All indexes are step indexes, ascending. */
export interface SessionSignals {
  /** Tool calls that edited files. */
  edits: number[];
  /** Check runs (test/build/lint/typecheck) that passed after the last edit (all of them without edits). */
  checksPassedAfterLastEdit: number[];
  /** The last run of each check kind, when it failed: the session ended with that check failing. */
  checksFailingAtEnd: number[];
  /** User messages that corrected the agent. */
  corrections: number[];
  /** User messages that thanked or accepted ("thanks", "lgtm", "works now"). */
  acceptances: number[];
  /** Tool results that failed. */
  toolErrors: number[];
  interrupted: boolean;
  /** The session ends on a failing tool result or an error, with no later success or acceptance. */
  abandoned: boolean;
  /** Commands that threw away edits made earlier in the session (git checkout --, restore, reset --hard, stash). */
  reverted: number[];
}

/** A correction this close after a followed step answers that step rather than later work. */
const CORRECTION_WINDOW = 8;
const CHECK_KINDS: readonly CommandKind[] = ['test', 'build', 'lint', 'typecheck'];
const MAX_COMMAND_IN_REASON = 80;

/** Tools that do one job, so naming one says "not the others". */
export const COUNTERPARTS: Readonly<Record<string, readonly string[]>> = {
  pnpm: ['npm', 'yarn', 'bun'],
  npm: ['pnpm', 'yarn', 'bun'],
  yarn: ['npm', 'pnpm', 'bun'],
  bun: ['npm', 'pnpm', 'yarn'],
  uv: ['pip', 'pip3', 'poetry'],
  poetry: ['pip', 'pip3', 'uv'],
  pip: ['uv', 'poetry'],
  pip3: ['uv', 'poetry'],
};

/** Subcommands that mean the same across counterpart tools: `pnpm add x` and `npm install x` do one thing. */
const SAME_SUBCOMMAND: Readonly<Record<string, string>> = { add: 'install', i: 'install', ci: 'install' };

/** Programs that make a backticked span a command even alone (`pnpm`, `make`). */
const KNOWN_TOOLS = new Set([
  ...Object.keys(COUNTERPARTS),
  'npx',
  'pnpx',
  'bunx',
  'node',
  'deno',
  'tsc',
  'jest',
  'vitest',
  'mocha',
  'playwright',
  'eslint',
  'prettier',
  'python',
  'python3',
  'pytest',
  'mypy',
  'ruff',
  'tox',
  'go',
  'cargo',
  'make',
  'cmake',
  'git',
  'gh',
  'docker',
  'kubectl',
  'terraform',
  'gradle',
  'mvn',
  'bundle',
  'rake',
  'rails',
  'dotnet',
  'composer',
  'php',
  'prisma',
]);

/** Words that start code, not a shell command: `import x from 'y'` is not a command to run. */
const CODE_WORDS = new Set([
  'import',
  'export',
  'const',
  'let',
  'var',
  'return',
  'function',
  'class',
  'type',
  'interface',
  'if',
  'else',
  'await',
  'async',
  'new',
  'def',
  'from',
]);

/** Words before a plain tool name that make it a prescription ("uses pnpm", "use only uv"). */
const PRESCRIBING = new Set(['use', 'uses', 'using', 'prefer', 'prefers', 'run', 'runs', 'with', 'via', 'only']);

/** Subcommands worth keeping after a plain tool name ("Use pnpm add"). */
const PLAIN_SUBCOMMANDS = new Set([
  'add',
  'install',
  'i',
  'ci',
  'remove',
  'rm',
  'test',
  'run',
  'exec',
  'dlx',
  'build',
  'lint',
  'sync',
  'update',
  'upgrade',
  'publish',
]);

/** Words that cannot be a script name after `pnpm run` in prose ("use pnpm run for scripts"). */
const NOT_A_SCRIPT = new Set([
  'for',
  'to',
  'and',
  'or',
  'with',
  'in',
  'on',
  'the',
  'a',
  'an',
  'not',
  'never',
  'instead',
  'when',
  'before',
  'after',
]);

type Token = { kind: 'code' | 'word'; text: string };

/** The rule's text as clauses of backticked spans and plain words; a negation reaches to its clause's end. */
function clauses(content: string): Token[][] {
  const raw: Array<Token | { kind: 'comma' } | { kind: 'end' }> = [];
  for (const m of content.matchAll(/`([^`\n]+)`|([.;:!?](?=\s|$)|\n)|(,)|([A-Za-z][\w'’-]*)/g)) {
    if (m[1] !== undefined) raw.push({ kind: 'code', text: m[1].trim() });
    else if (m[2] !== undefined) raw.push({ kind: 'end' });
    else if (m[3] !== undefined) raw.push({ kind: 'comma' });
    else raw.push({ kind: 'word', text: m[4] });
  }
  const result: Token[][] = [[]];
  raw.forEach((token, i) => {
    if (token.kind === 'end') result.push([]);
    else if (token.kind === 'comma') {
      // "Never run `a`, `b` or `c`" lists on in the same clause; "Run `a`, not `b`" starts a new one
      const next = raw[i + 1];
      const afterJoiner = next?.kind === 'word' && /^(?:or|and|nor)$/i.test(next.text) ? raw[i + 2] : next;
      if (afterJoiner?.kind !== 'code') result.push([]);
    } else result[result.length - 1].push(token);
  });
  return result.filter((clause) => clause.length > 0);
}

/** Whether the word at `i` starts a negation ("never", "do not", "instead of") of what follows in the clause. */
function isNegation(tokens: readonly Token[], i: number): boolean {
  const word = tokens[i].text.toLowerCase().replace('’', "'");
  const next = tokens[i + 1]?.kind === 'word' ? tokens[i + 1].text.toLowerCase() : '';
  if ((word === 'instead' && next === 'of') || (word === 'rather' && next === 'than')) return true;
  // "don't forget to run `x`" and "not only `x`" prescribe
  if (next === 'forget' || next === 'only') return false;
  return ['not', 'never', "don't", 'dont', "doesn't", "mustn't", 'avoid', 'no'].includes(word);
}

/** A backticked span that reads as a shell command: a known tool, a script path, or a word followed by args. */
function looksLikeCommand(span: string): boolean {
  if (/[{}]|=>|\(\)/.test(span)) return false;
  const words = firstCommand(span).split(/\s+/).filter(Boolean);
  if (words.length === 0) return false;
  const program = words[0].toLowerCase();
  if (KNOWN_TOOLS.has(program) || /^\.{1,2}\/\S/.test(program)) return true;
  return (
    words.length >= 2 &&
    /^[a-z][a-z0-9_-]*$/.test(words[0]) &&
    !CODE_WORDS.has(program) &&
    /^(?:-|[\w@./:=+-]+$)/.test(words[1])
  );
}

/** Rules read once: every session of a run is judged against the same few rules (bounded, cleared when full). */
const READ_RULES = new Map<string, Readonly<{ prescribed: readonly string[]; forbidden: readonly string[] }>>();
const MAX_READ_RULES = 4096;

/** The commands a rule tells the agent to run, and those it tells it not to. */
export function ruleCommands(
  content: string,
): Readonly<{ prescribed: readonly string[]; forbidden: readonly string[] }> {
  const known = READ_RULES.get(content);
  if (known) return known;
  if (READ_RULES.size >= MAX_READ_RULES) READ_RULES.clear();
  const read = Object.freeze(readRuleCommands(content));
  READ_RULES.set(content, read);
  return read;
}

function readRuleCommands(content: string): { prescribed: string[]; forbidden: string[] } {
  const prescribed: string[] = [];
  const forbidden: string[] = [];
  const add = (list: string[], command: string) => {
    if (!list.includes(command)) list.push(command);
  };
  for (const clause of clauses(content)) {
    let negated = false;
    clause.forEach((token, i) => {
      if (token.kind === 'code') {
        if (looksLikeCommand(token.text)) add(negated ? forbidden : prescribed, token.text.replace(/\s+/g, ' '));
        return;
      }
      if (isNegation(clause, i)) negated = true;
      const tool = token.text.toLowerCase();
      if (!(tool in COUNTERPARTS)) return;
      // a plain tool name counts only where it is clearly the tool to (not) use: "uses pnpm", "never npm"
      if (negated) return add(forbidden, tool);
      const before = clause[i - 1];
      if (before?.kind !== 'word' || !PRESCRIBING.has(before.text.toLowerCase())) return;
      const sub = clause[i + 1]?.kind === 'word' ? clause[i + 1].text.toLowerCase() : undefined;
      if (!sub || !PLAIN_SUBCOMMANDS.has(sub)) return add(prescribed, tool);
      const script = clause[i + 2]?.kind === 'word' ? clause[i + 2].text : undefined;
      const takesScript = ['run', 'exec', 'dlx'].includes(sub) && script && !NOT_A_SCRIPT.has(script.toLowerCase());
      add(prescribed, takesScript ? `${tool} ${sub} ${script}` : `${tool} ${sub}`);
    });
  }
  // naming the tool alone is choosing it: "use pnpm" forbids npm, yarn and bun
  for (const command of [...prescribed]) {
    for (const other of COUNTERPARTS[command] ?? []) if (!prescribed.includes(other)) add(forbidden, other);
  }
  return { prescribed, forbidden };
}

interface Run {
  call: ToolCallStep;
  result: ToolResultStep;
  /** The command's first line, split at `&&`, `||`, `;` and `|`: each part is a command of its own. */
  parts: string[];
  kind: CommandKind;
  failed: boolean;
}

/** Shell commands paired with their results, as the offline miner reads them (first line of each command). */
function commandRuns(steps: readonly Step[]): Run[] {
  const calls = new Map<string, ToolCallStep>();
  const runs: Run[] = [];
  for (const step of steps) {
    if (step.kind === 'tool_call' && step.command) calls.set(step.callId, step);
    if (step.kind !== 'tool_result') continue;
    const call = calls.get(step.callId);
    if (!call?.command) continue;
    const line = call.command.split('\n')[0].trim();
    const parts = line
      .split(/\s*(?:&&|\|\||;|\|)\s*/)
      .map((p) => p.trim())
      .filter(Boolean);
    runs.push({ call, result: step, parts, kind: classifyCommand(line), failed: failedResult(step) });
  }
  return runs;
}

function failedResult(step: ToolResultStep): boolean {
  return step.isError || (step.exitCode !== undefined && step.exitCode !== 0);
}

/** `TZ=UTC` in `TZ=UTC pnpm vitest run`: the part of the line that `firstCommand` drops, minus any `cd`. */
function envAssignments(command: string): string[] {
  const trimmed = command.trim();
  const prefix = trimmed.slice(0, trimmed.length - firstCommand(trimmed).length);
  return prefix.match(/\b[A-Z_][A-Z0-9_]*=\S*/g) ?? [];
}

/** A run part matches a rule's command when the rule's key words lead it and it sets the rule's env vars. */
/**
 * `commandKey` split into words, remembered: each command part of a session is compared with every rule's commands,
 * and each rule's with every part (bounded, cleared when full).
 */
const KEYS = new Map<string, readonly string[]>();
function keyWords(command: string): readonly string[] {
  let words = KEYS.get(command);
  if (!words) {
    if (KEYS.size >= 16_384) KEYS.clear();
    words = commandKey(command).split(' ');
    KEYS.set(command, words);
  }
  return words;
}

export function matchesCommand(part: string, ruleCommand: string): boolean {
  const have = keyWords(part);
  const want = keyWords(ruleCommand);
  if (want.length > have.length || want.some((w, i) => have[i] !== w)) return false;
  const env = envAssignments(part);
  return envAssignments(ruleCommand).every((e) => env.includes(e));
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

const ACCEPTANCE =
  /\b(?:thanks|thank you|thx|perfect|lgtm|looks good|works now|that works|it works|great|awesome|ship it)\b/i;

/** What the session's outcome says, independent of any rule. */
export function sessionSignals(trace: Trace): SessionSignals {
  const runs = commandRuns(trace.steps);
  const edits: number[] = [];
  const editedSoFar: Array<{ index: number; files: string[] }> = [];
  const corrections: number[] = [];
  const acceptances: number[] = [];
  const toolErrors: number[] = [];
  let interrupted = trace.outcome.interrupted;
  let endsFailing = false;
  let sawAgentWork = false;
  for (const step of trace.steps) {
    switch (step.kind) {
      case 'tool_call': {
        sawAgentWork = true;
        const files = editedFiles(step, trace.cwd);
        if (files.length > 0) {
          edits.push(step.index);
          editedSoFar.push({ index: step.index, files });
        }
        break;
      }
      case 'tool_result':
        if (failedResult(step)) toolErrors.push(step.index);
        if (step.interrupted) interrupted = true;
        endsFailing = failedResult(step);
        break;
      case 'error':
        endsFailing = true;
        break;
      case 'assistant':
        sawAgentWork = true;
        break;
      case 'user':
        // the opening request can sound like a correction ("don't use npm"): only replies to the agent count
        if (step.isMeta || !sawAgentWork) break;
        if (isCorrection(step.text)) corrections.push(step.index);
        else if (ACCEPTANCE.test(step.text.slice(0, 300))) {
          acceptances.push(step.index);
          endsFailing = false;
        }
        break;
      default:
        break;
    }
  }
  const lastEdit = edits.length > 0 ? edits[edits.length - 1] : -1;
  const checks = runs.filter((r) => CHECK_KINDS.includes(r.kind));
  const lastOfKind = new Map<CommandKind, Run>();
  for (const run of checks) lastOfKind.set(run.kind, run);
  const reverted = runs
    .filter((run) => !run.failed)
    .filter((run) => {
      const before = editedSoFar.filter((e) => e.index < run.call.index).flatMap((e) => e.files);
      return before.length > 0 && run.parts.some((part) => revertsAny(part, before, trace.cwd));
    })
    .map((run) => run.call.index);
  return {
    edits,
    checksPassedAfterLastEdit: checks.filter((r) => !r.failed && r.call.index > lastEdit).map((r) => r.call.index),
    checksFailingAtEnd: [...lastOfKind.values()]
      .filter((r) => r.failed)
      .map((r) => r.call.index)
      .sort((a, b) => a - b),
    corrections,
    acceptances,
    toolErrors,
    interrupted,
    abandoned: endsFailing,
    reverted,
  };
}

/** Whether a git command throws away the working-tree changes to any of `files`. */
function revertsAny(part: string, files: readonly string[], cwd?: string): boolean {
  const words = firstCommand(part)
    .split(/\s+/)
    .map((w) => w.replace(/^['"]|['"]$/g, ''));
  if (words[0] !== 'git') return false;
  const [sub, ...rest] = words.slice(1);
  const flags = rest.filter((w) => w.startsWith('-'));
  const paths = rest.filter((w) => !w.startsWith('-'));
  switch (sub) {
    case 'reset':
      return flags.includes('--hard');
    case 'stash':
      // a bare `git stash` (or push/save) stashes every change; pop, apply, list and show do not
      if (paths.length === 0) return true;
      if (!['push', 'save'].includes(paths[0])) return false;
      return paths.length === 1 || paths.slice(1).some((p) => touchesAny(p, files, cwd));
    case 'restore':
      // `--staged` alone only unstages
      if (flags.includes('--staged') && !flags.includes('--worktree')) return false;
      return paths.some((p) => touchesAny(p, files, cwd));
    case 'checkout':
      // `git checkout main` switches branches; only a path that the session edited (or `.`) reverts
      return paths.some((p) => touchesAny(p, files, cwd));
    default:
      return false;
  }
}

function touchesAny(path: string, files: readonly string[], cwd?: string): boolean {
  let arg = cwd && path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
  arg = arg.replace(/^\.\//, '').replace(/\/$/, '');
  if (arg === '.' || arg === '') return true;
  return files.some((f) => f === arg || f.startsWith(`${arg}/`) || f.endsWith(`/${arg}`) || arg.endsWith(`/${f}`));
}

function clip(command: string): string {
  const flat = command.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_COMMAND_IN_REASON ? `${flat.slice(0, MAX_COMMAND_IN_REASON - 1)}…` : flat;
}

function sortedUnique(steps: number[]): number[] {
  return [...new Set(steps)].sort((a, b) => a - b);
}

/** A step where the agent followed the rule: a run of a prescribed command, or a citation of the rule's id. */
interface Follow {
  /** The step the reaction is measured from: the command's result, or the citing message. */
  at: number;
  /** The step shown as evidence: the command's call, or the citing message. */
  shown: number;
  run?: Run;
  /** The part of the run that matched, and the prescribed command it matched. */
  part?: string;
  prescribed?: string;
}

/**
 * What one session says about each rule in play, in the order of `rules`. Violated wins over helpful and harmful:
 * a session that broke a rule says nothing about whether following it helps. Harmful wins over helpful: one bad
 * outcome of following a rule is worth reviewing even when another went well.
 */
export function ruleEvidence(
  trace: Trace,
  rules: readonly RuleInPlay[],
  signals: SessionSignals = sessionSignals(trace),
): RuleEvidence[] {
  const runs = commandRuns(trace.steps);
  const userSteps = trace.steps.filter((s) => s.kind === 'user' && !s.isMeta).map((s) => s.index);
  const corrections = new Set(signals.corrections);
  return rules.map((rule) => judge(rule, trace, runs, userSteps, corrections, signals));
}

function judge(
  rule: RuleInPlay,
  trace: Trace,
  runs: readonly Run[],
  userSteps: readonly number[],
  corrections: ReadonlySet<number>,
  signals: SessionSignals,
): RuleEvidence {
  const { prescribed, forbidden } = ruleCommands(rule.content);
  const evidence = (tag: EvidenceTag, reason: string, steps: number[]): RuleEvidence => ({
    id: rule.id,
    tag,
    reason,
    steps: sortedUnique(steps),
  });

  const follows: Follow[] = [];
  const violations: Array<{ step: number; part: string }> = [];
  for (const run of runs) {
    for (const part of run.parts) {
      // the longest match names what was followed: `pnpm add` rather than `pnpm`
      const matched = prescribed
        .filter((c) => matchesCommand(part, c))
        .sort((a, b) => commandKey(b).length - commandKey(a).length)[0];
      if (matched) follows.push({ at: run.result.index, shown: run.call.index, run, part, prescribed: matched });
      else if (forbidden.some((c) => matchesCommand(part, c)) || prescribed.some((c) => isCounterpartOf(part, c)))
        violations.push({ step: run.call.index, part });
    }
  }
  if (violations.length > 0) {
    return evidence(
      'violated',
      `the session ran \`${clip(violations[0].part)}\`, which the rule rules out`,
      violations.map((v) => v.step),
    );
  }

  const citation = `[${rule.id}]`;
  for (const step of trace.steps) {
    if (step.kind === 'assistant' && step.text.includes(citation)) follows.push({ at: step.index, shown: step.index });
  }
  follows.sort((a, b) => a.shown - b.shown);
  if (follows.length === 0) return evidence('neutral', 'in play, and nothing in the session bears on it', []);

  // harmful 1: a specific prescribed command failed and never passed later (a bare tool name says which tool,
  // not that its command will pass, so `pnpm test` failing says nothing about "use pnpm")
  const stillFailing = new Map<string, Follow>();
  for (const follow of follows) {
    if (!follow.run || !follow.prescribed || commandKey(follow.prescribed).split(' ').length < 2) continue;
    if (follow.run.failed) stillFailing.set(follow.prescribed, follow);
    else stillFailing.delete(follow.prescribed);
  }
  const failing = [...stillFailing.values()];
  if (failing.length > 0) {
    return evidence(
      'harmful',
      `the agent ran \`${clip(failing[0].part ?? '')}\` as the rule says and it kept failing`,
      failing.flatMap((f) => [f.shown, f.run?.result.index ?? f.shown]),
    );
  }

  // harmful 2: the user's next message after a followed step corrected the agent
  const correctedRightAfter = follows.flatMap((follow) => {
    const reply = userSteps.find((s) => s > follow.at);
    const corrected = reply !== undefined && corrections.has(reply) && reply - follow.at <= CORRECTION_WINDOW;
    return corrected ? [follow.shown, reply] : [];
  });
  if (correctedRightAfter.length > 0) {
    return evidence('harmful', 'the user corrected the agent right after it followed the rule', correctedRightAfter);
  }

  // harmful 3: the work done after following the rule was thrown away
  const revert = signals.reverted.find((s) => s > follows[0].shown);
  if (revert !== undefined) {
    return evidence('harmful', 'the edits were reverted after the agent followed the rule', [follows[0].shown, revert]);
  }

  // helpful: what followed went well — the command (or a check after it) passed and no correction came later
  const correctedAfter = (at: number) => signals.corrections.some((c) => c > at);
  const wentWell: Array<{ steps: number[]; reason: string }> = [];
  for (const follow of follows) {
    if (correctedAfter(follow.at)) continue;
    const command = clip(follow.part ?? '');
    if (!follow.run) {
      // the offline miner's rule for citations: cited and never corrected afterwards
      wentWell.push({ steps: [follow.shown], reason: 'the agent cited the rule and no correction followed' });
    } else if (signals.abandoned) {
      continue;
    } else if (!follow.run.failed) {
      wentWell.push({ steps: [follow.shown], reason: `the agent ran \`${command}\` as the rule says and it passed` });
    } else {
      const check = runs.find((r) => r.call.index > follow.at && !r.failed && CHECK_KINDS.includes(r.kind));
      if (check) {
        wentWell.push({
          steps: [follow.shown, check.call.index],
          reason: `the agent ran \`${command}\` as the rule says and the checks after it passed`,
        });
      }
    }
  }
  if (wentWell.length > 0) {
    return evidence(
      'helpful',
      wentWell[0].reason,
      wentWell.flatMap((w) => w.steps),
    );
  }
  return evidence(
    'neutral',
    'the agent followed the rule, but what came after does not show whether it helped',
    follows.map((f) => f.shown),
  );
}
