import { classifyCommand, commandKey, firstCommand } from '../../trace/commands';

// How a rule's text (or a user's message) reads as commands: the ones it tells the agent to run, the ones it rules
// out, and the ones it calls broken. Plain reading, no model: backticked spans, a few tool names, negations.

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
export const SAME_SUBCOMMAND: Readonly<Record<string, string>> = { add: 'install', i: 'install', ci: 'install' };

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
  'rustfmt',
  'rustup',
  'gofmt',
  'gofumpt',
  'golangci-lint',
  'black',
  'isort',
  'flake8',
  'pylint',
  'pyright',
  'uvx',
  'pipx',
  'nox',
  'alembic',
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

/**
 * The flags a prohibition is conditioned on, as words of its command: "never `git status` with `-uall`" forbids
 * `git status -uall`, "never `git push` without `--force-with-lease`" forbids `git push !--force-with-lease` (a
 * `!` flag must be absent), so the form the rule allows is not ruled out.
 */
function flagCondition(tokens: readonly Token[], i: number): string {
  const joiner = tokens[i + 1]?.kind === 'word' ? tokens[i + 1].text.toLowerCase() : '';
  const flag = tokens[i + 2];
  if (!['with', 'without', 'using'].includes(joiner) || flag?.kind !== 'code') return '';
  const flags = flag.text.split(' ').filter(Boolean);
  if (flags.length === 0 || !flags.every((f) => /^--?[A-Za-z][\w-]*(?:=[\w.-]+)?$/.test(f))) return '';
  return flags.map((f) => ` ${joiner === 'without' ? '!' : ''}${f}`).join('');
}

const NEGATIONS = ['not', 'never', "don't", 'dont', "doesn't", "mustn't", 'avoid', 'no'];

/** Whether the word at `i` starts a negation ("never", "do not", "skip", "instead of") of what follows in the clause. */
function isNegation(tokens: readonly Token[], i: number): boolean {
  const word = tokens[i].text.toLowerCase().replace('’', "'");
  const next = tokens[i + 1]?.kind === 'word' ? tokens[i + 1].text.toLowerCase() : '';
  if ((word === 'instead' && next === 'of') || (word === 'rather' && next === 'than')) return true;
  // "don't forget to run `x`", "not only `x`" and "never skip `x`" prescribe
  if (next === 'forget' || next === 'only' || next === 'skip') return false;
  // "skip `deno fmt`" rules the command out, unless a negation comes right before ("never skip"); "skip the e2e
  // tests with `pnpm test --project unit`" names the means, not what is skipped
  if (word === 'skip') {
    const before = tokens[i - 1]?.kind === 'word' ? tokens[i - 1].text.toLowerCase().replace('’', "'") : '';
    return tokens[i + 1]?.kind === 'code' && !NEGATIONS.includes(before);
  }
  return NEGATIONS.includes(word);
}

/** A backticked span that reads as a shell command: a known tool, a script path, or a word followed by args. */
function looksLikeCommand(span: string): boolean {
  if (/[{}]|=>|\(\)/.test(span)) return false;
  const words = firstCommand(span).split(/\s+/).filter(Boolean);
  if (words.length === 0) return false;
  const program = words[0].toLowerCase();
  // a project's own launcher: `./gradlew`, `bin/rails`, `bin/dev`, `scripts/release.sh`
  const launcher = /^\.{1,2}\/\S/.test(program) || /^(?:bin|scripts?|tools|\.bin)\/[\w.-]+$/.test(program);
  if (KNOWN_TOOLS.has(program) || launcher) return true;
  return (
    words.length >= 2 &&
    /^[a-z][a-z0-9_-]*$/.test(words[0]) &&
    !CODE_WORDS.has(program) &&
    (/^(?:-|[\w@./:=+-]+$)/.test(words[1]) || isPlaceholder(words[1]))
  );
}

/** What a span is said to be after it: "`npm test` is broken", "`make check` hangs", "`tox` no longer works". */
const CALLED_BROKEN =
  /^(?:(?:is|are|was|seems|looks|script|command|here|currently|now|still|always)\s+)*(?:broken|flaky|deprecated|obsolete|unreliable|hangs?|fails?|failing|times?\s+out|(?:does\s+not|doesn't|won't|will\s+not|no\s+longer)\s+work|never\s+pass(?:es)?)\b/;
/** Words that make a failure conditional: "without it `pnpm test` fails" prescribes the fix, not avoiding the test. */
const CONDITIONAL = /\b(?:without|unless|if|when|until|before|after|otherwise)\b/;

export interface RuleCommands {
  /** Commands it tells the agent to run. */
  prescribed: readonly string[];
  /** Commands it tells the agent not to run, the broken ones included. */
  forbidden: readonly string[];
  /** Commands it says fail here: running one and seeing it fail is what the rule predicts. */
  broken: readonly string[];
}

/** Rules read once: every session of a run is judged against the same few rules (bounded, cleared when full). */
const READ_RULES = new Map<string, Readonly<RuleCommands>>();
const MAX_READ_RULES = 4096;

/** The commands a rule tells the agent to run, those it tells it not to, and those it calls broken. */
export function ruleCommands(content: string): Readonly<RuleCommands> {
  const known = READ_RULES.get(content);
  if (known) return known;
  if (READ_RULES.size >= MAX_READ_RULES) READ_RULES.clear();
  // a rule in a user's words types its commands as they did ("use make test"): read as if backticked
  const read = Object.freeze(readRuleCommands(quotePlainCommands(content)));
  READ_RULES.set(content, read);
  return read;
}

function readRuleCommands(content: string): RuleCommands {
  const prescribed: string[] = [];
  const forbidden: string[] = [];
  const broken: string[] = [];
  const add = (list: string[], command: string) => {
    if (!list.includes(command)) list.push(command);
  };
  for (const clause of clauses(content)) {
    let negated = false;
    clause.forEach((token, i) => {
      if (token.kind === 'code') {
        if (!looksLikeCommand(token.text)) return;
        const command = token.text.replace(/\s+/g, ' ');
        if (negated) add(forbidden, command + flagCondition(clause, i));
        else {
          const failing = saidToFail(clause, i);
          if (failing === 'broken') add(broken, command);
          // "when `pnpm test` fails with …, run …" describes a situation: it neither prescribes nor rules out
          else if (failing === undefined) add(prescribed, command);
        }
        return;
      }
      if (isNegation(clause, i)) negated = true;
      const tool = token.text.toLowerCase();
      if (!(tool in COUNTERPARTS)) return;
      // a plain tool name counts only where it is clearly the tool to (not) use: "uses pnpm", "never npm", "don't use
      // npm" — not "don't edit generated files, pnpm regenerates them", where the negation is of something else
      if (negated) return negatedRightBefore(clause, i) ? add(forbidden, tool) : undefined;
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
  // a command the rule also prescribes is not one it calls broken ("`pnpm test` fails; run `pnpm test` after …")
  const called = broken.filter((c) => !prescribed.includes(c));
  for (const command of called) add(forbidden, command);
  return { prescribed, forbidden, broken: called };
}

/** Whether a negation is right before the word at `i` ("never npm", "not npm", "don't use npm", "instead of npm"). */
function negatedRightBefore(clause: readonly Token[], i: number): boolean {
  for (let j = i - 1; j >= Math.max(0, i - 5); j--) {
    if (clause[j].kind !== 'word') continue; // "never `npm` or yarn"
    if (isNegation(clause, j) || /^(?:of|than)$/i.test(clause[j].text)) return true;
    // "never npm or yarn": the list goes on under the same negation
    const word = clause[j].text.toLowerCase();
    if (!/^(?:use|using|run|call|with|or|and|nor|touch)$/.test(word) && !(word in COUNTERPARTS)) return false;
  }
  return false;
}

/**
 * What the words after the span at `i` say of it: `broken` ("`npm test` is broken"), `conditional` when its clause
 * makes the failure depend on something ("without it `pnpm test` fails", "when `make` fails, …"), else nothing.
 */
function saidToFail(clause: readonly Token[], i: number): 'broken' | 'conditional' | undefined {
  const after: string[] = [];
  for (let j = i + 1; j < clause.length && clause[j].kind === 'word'; j++) after.push(clause[j].text.toLowerCase());
  if (!CALLED_BROKEN.test(after.join(' ').replace('’', "'"))) return undefined;
  const all = clause.filter((t) => t.kind === 'word').map((t) => t.text.toLowerCase());
  return CONDITIONAL.test(all.join(' ')) ? 'conditional' : 'broken';
}

/** Interjections that open a reply ("No, …", "Actually …") and are not the negation of what follows. */
const OPENING = /^\s*(?:no|nope|wrong|stop|wait|hmm|actually|instead|ok|okay)\b[,.!:;]?\s*/i;

/** Words that end a command written without backticks: "use make test here", "not go test directly". */
const PROSE = new Set([
  ...NOT_A_SCRIPT,
  'it',
  'this',
  'that',
  'is',
  'are',
  'was',
  'so',
  'but',
  'because',
  'since',
  'please',
  'here',
  'there',
  'directly',
  'first',
  'again',
  'locally',
  'anymore',
  'only',
  'now',
  'then',
  'also',
  'everywhere',
  'always',
]);
const PLAIN_LEAD = new Set(['use', 'uses', 'using', 'run', 'runs', 'with', 'via', 'not', 'never', 'prefer']);

/**
 * People type commands in a chat without backticks ("No, use make test", "run it with uv run fastapi dev app/main.py"):
 * a known tool after a word that prescribes or rules out, with the arguments after it, reads as a backticked span.
 */
function quotePlainCommands(text: string): string {
  return text
    .split(/(`[^`\n]*`)/)
    .map((part, i) => {
      if (i % 2 === 1) return part;
      const words = part.split(/(\s+)/);
      for (let w = 0; w < words.length; w += 2) {
        const lead = words[w - 2]?.toLowerCase();
        if (!lead || !PLAIN_LEAD.has(lead) || !KNOWN_TOOLS.has(words[w].toLowerCase())) continue;
        let end = w;
        while (end + 2 < words.length && end - w < 10) {
          const next = words[end + 2];
          // a sentence's punctuation ends the command, not `./...`
          const bare = next.endsWith('...') ? next : next.replace(/[.,:;!?]+$/, '');
          // "pnpm add / pnpm install": a lone slash lists another command, it is not an argument
          if (!/^[\w@./:=+-]+$/.test(bare) || bare === '/' || PROSE.has(bare.toLowerCase())) break;
          end += 2;
          if (bare !== next) break;
        }
        const command = words.slice(w, end + 1).join('');
        const trailing = /[.,:;!?]+$/.exec(command)?.[0] ?? '';
        const body = command.endsWith('...') ? command : command.slice(0, command.length - trailing.length);
        words.splice(w, end - w + 1, `\`${body}\`${command.slice(body.length)}`);
      }
      return words.join('');
    })
    .join('');
}

/** The commands a user's message asks for and those it rules out, read as a rule is (not kept: each is read once). */
export function requestedCommands(text: string): Readonly<RuleCommands> {
  return readRuleCommands(quotePlainCommands(text.slice(0, 600).replace(OPENING, '')));
}

/** A word of a rule's command that stands for any value: `<pkg>`, `src/<file>.rs`, `[args]`, `{file}`, `...`, `$NAME`. */
export function isPlaceholder(word: string): boolean {
  // `src/<file>.rs` too: a path with a placeholder in it stands for any such path
  return /<[^>]+>|^(?:\[[^\]]*\]|\{[^}]*\}|\.{3}|…|\$[A-Z_]+)$/.test(word);
}

/** Subcommands a package tool uses to add or install packages, read as one job. */
const INSTALLS = new Set(['add', 'install', 'i', 'ci', 'sync']);

/**
 * What a command is for, when that can be said: `install` for any package tool's add/install/sync, else the kind of
 * check or job (`test`, `build`, `lint`, `typecheck`, `format`, `codegen`). `npm install` and `pnpm add` share one;
 * `pnpm tsc` and `npm install` do not. Undefined for a bare tool or a one-off command.
 */
export function purposeOf(command: string): string | undefined {
  const words = commandKey(command).split(' ');
  let sub = words[1];
  if (words[0] === 'uv' && sub === 'pip') sub = words[2];
  if (sub && INSTALLS.has(sub) && (words[0] in COUNTERPARTS || ['cargo', 'go', 'bundle', 'gem'].includes(words[0])))
    return 'install';
  const kind = classifyCommand(command);
  return ['test', 'build', 'lint', 'typecheck', 'format', 'codegen', 'install'].includes(kind) ? kind : undefined;
}

/** What "before you commit" and "before pushing" name: the git command a rule's own command must come before. */
export function namedSteps(content: string): string[] {
  const steps: string[] = [];
  for (const m of content.matchAll(/\bbefore (?:you |each |every |any )?(commit|push|merg)(?:ing|e|es)?\b/gi)) {
    const step = `git ${m[1].toLowerCase() === 'merg' ? 'merge' : m[1].toLowerCase()}`;
    if (!steps.includes(step)) steps.push(step);
  }
  return steps;
}

/** A backticked span that names a file: a path or a name with an extension (`CHANGELOG.md`, `src/flags.ts`). */
const FILE_NAME = /^(?:[\w.-]+\/)*[\w-]+\.[A-Za-z][\w]{0,5}$/;

/** The files a rule tells the agent to edit or add to ("Add a `CHANGELOG.md` entry"), never those it rules out. */
export function namedFiles(content: string): string[] {
  const files: string[] = [];
  for (const clause of clauses(content)) {
    let negated = false;
    clause.forEach((token, i) => {
      if (token.kind === 'word') negated ||= isNegation(clause, i);
      else if (!negated && FILE_NAME.test(token.text) && !looksLikeCommand(token.text) && !files.includes(token.text))
        files.push(token.text);
    });
  }
  return files;
}
