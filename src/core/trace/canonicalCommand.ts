import { classifyCommand, firstCommand } from './commands';

// A command as a rule should name it: the arguments that pick one test, one file or one filter for today's task are
// dropped, so three sessions running three test files state one way to run the tests. Only checks are generalized:
// the arguments of `pnpm add lodash` or `make release` are what the command does.

const GENERALIZED_KINDS = new Set(['test', 'lint', 'typecheck', 'format']);

/** Flags whose value selects tests or files for one task (`-t "adds tax"`, `-k cart`, `-run TestX`, `--grep x`). */
const FILTER_FLAGS = new Set([
  '-t',
  '-k',
  '-run',
  '--run',
  '-g',
  '--grep',
  '--testNamePattern',
  '--test-name-pattern',
  '--testPathPattern',
  '--test-path-pattern',
  '--test',
  '--bench',
  '--spec',
  '--tests',
  '--only',
]);

/** Sub-commands kept after the program (`vitest run`, `go test`); anything else bare after a test runner is a filter. */
const KEPT_WORDS = new Set([
  'run',
  'test',
  'tests',
  'exec',
  'x',
  'watch',
  'check',
  'clippy',
  'vet',
  'lint',
  'typecheck',
]);

/** Flags whose value says what is built or checked (`-p parser`, `--filter web`, `--features serde`): kept with it. */
const VALUE_FLAGS = new Set([
  '-p',
  '--package',
  '--filter',
  '-F',
  '--features',
  '-C',
  '--target',
  '--project',
  '-P',
  '-m',
]);
const MANAGERS = new Set([
  'bundle',
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'make',
  'just',
  'task',
  'uv',
  'poetry',
  'npx',
  'pnpx',
  'bunx',
  'python',
  'python3',
]);
const RUNS = new Set(['run', 'exec', 'x', 'dlx', '-m']);
/** Programs whose first word is a sub-command. */
const SUBCOMMAND_TOOLS = new Set([
  ...['cargo', 'go', 'dotnet', 'deno', 'gradle', './gradlew', 'mvn', './mvnw', 'ruff', 'golangci-lint'],
  ...['mix', 'bin/rails', 'rails', 'rake', 'php', 'composer', 'swift'],
]);

/** Programs whose arguments are read here: package managers, test runners, linters, type checkers. */
const RUNNERS = new Set([
  ...MANAGERS,
  ...['pytest', 'jest', 'vitest', 'mocha', 'playwright', 'cargo', 'go', 'tox', 'nox', 'eslint', 'ruff', 'tsc'],
  ...['mypy', 'pyright', 'golangci-lint', 'rspec', 'bundle', 'dotnet', 'gradle', 'mvn', 'deno', 'node', 'phpunit'],
  ...['rustfmt', 'gofmt', 'gofumpt', 'prettier', 'black', 'isort', 'clang-format', 'shfmt'],
  ...['./gradlew', './mvnw', 'mix', 'bin/rails', 'rails', 'rake', 'rspec', 'rubocop', 'composer', 'swift'],
]);

/** Inputs a command reads, not code it runs: data, documents, images, archives, logs. */
const DATA_FILE =
  /\.(?:tmx|json|jsonl|csv|tsv|txt|ya?ml|xml|toml|png|jpe?g|gif|svg|pdf|log|md|html?|sql|parquet|zip|tar|gz)$/i;

function tokens(command: string): string[] {
  return command.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
}

/** A path, a glob, a test id or a source file: `src/cart.test.ts`, `tests/test_x.py::test_y`, `parser::tests::foo`. */
function isSelector(word: string): boolean {
  if (/^['"]/.test(word)) return true;
  if (word.includes('::')) return true;
  if (/\.(?:[cm]?[jt]sx?|py|rs|go|rb|java|kt|php|cs|swift|spec|test)$/.test(word)) return true;
  return /[/*]/.test(word) && word !== '.' && word !== './...';
}

/** Where the command's own words begin: after `cd x &&` and env assignments, which are kept as they are. */
function splitPrefix(line: string): { prefix: string; body: string } {
  const body = firstCommand(line);
  return { prefix: line.slice(0, line.length - body.length), body };
}

/**
 * The general form of a check command: `TZ=UTC pnpm vitest run src/cart.test.ts -t "adds tax"` →
 * `TZ=UTC pnpm vitest run`, `cargo test parser::tests::bar -- --nocapture` → `cargo test -- --nocapture`,
 * `go test ./internal/cache -run TestTTL` → `go test ./...`. Other commands come back trimmed.
 */
export function canonicalCommand(command: string): string {
  const line = command.split('\n')[0].trim().replace(/\s+/g, ' ');
  if (/&&|\|\||;|\|/.test(firstCommand(line))) return line; // a pipeline says more than one command
  // what a commit says is the task's: `git commit -am "Add GET /credit-notes"` is `git commit -a`
  if (/^git commit\b/.test(firstCommand(line)))
    return `${splitPrefix(line).prefix}${firstCommand(line).replace(/\s(-\w*)m\s*(?:"[^"]*"|'[^']*'|\S+)/g, (_, f: string) => (f === '-' ? '' : ` ${f}`))}`.trim();
  const { prefix, body } = splitPrefix(line);
  const words = tokens(body);
  // `docker run … npm test` or `ssh ci make test`: whose arguments are what, only the runner itself knows
  if (!RUNNERS.has(words[0] ?? '')) return line;
  if (!GENERALIZED_KINDS.has(classifyCommand(line))) {
    // the map, image or fixture a run was given is the task's (`cargo run --example render maps/hex.tmx`)
    const kept = words.filter((w, i) => i < 2 || w.startsWith('-') || !DATA_FILE.test(w));
    return `${prefix}${kept.join(' ')}`.trim();
  }
  const kept: string[] = [];
  let droppedPackage = false;
  let afterSeparator = false;
  const isGo = words[0] === 'go';
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (i === 0 || word === '--') {
      afterSeparator ||= word === '--';
      kept.push(word);
    } else if (FILTER_FLAGS.has(word)) {
      i++; // and its value
    } else if (/^--?[\w-]+=/.test(word) && FILTER_FLAGS.has(word.slice(0, word.indexOf('=')))) {
      continue;
    } else if (word.startsWith('-')) {
      kept.push(word);
      // a known flag's value, or a quoted one (`--env "A=1"`), goes with its flag
      const next = words[i + 1];
      // after `--` a bare word after a flag is that flag's (`-- -D warnings`); before it, a test name may follow
      if (
        next !== undefined &&
        !next.startsWith('-') &&
        (VALUE_FLAGS.has(word) || afterSeparator || /^['"]/.test(next))
      )
        kept.push(words[++i]);
    } else if (isGo && /^\.{1,2}\//.test(word)) {
      droppedPackage = true;
    } else if (!isSelector(word) && !afterSeparator && isCommandWord(kept, word)) {
      kept.push(word);
    }
  }
  if (droppedPackage) kept.push('./...');
  while (kept.at(-1) === '--') kept.pop();
  return `${prefix}${kept.join(' ')}`.trim();
}

/**
 * Whether a bare word still names the command rather than a test: a package manager's script name (`pnpm test:unit`),
 * a runner's sub-command (`vitest run`), never a second free word after a test runner's sub-command.
 */
function isCommandWord(kept: readonly string[], word: string): boolean {
  if (KEPT_WORDS.has(word)) return true;
  const bare = kept.filter((w, i) => !w.startsWith('-') && !VALUE_FLAGS.has(kept[i - 1] ?? ''));
  const [program, second] = bare;
  // `pnpm test:unit`, `pnpm run test:unit`, `uv run pytest`, `npx vitest`, `python -m pytest`: the script or tool
  if (MANAGERS.has(program) && (bare.length === 1 || (bare.length === 2 && RUNS.has(second)))) return true;
  // `cargo fmt`, `go vet`, `uv run ruff format`: the tool's own sub-command, after the runner if there is one
  const through = MANAGERS.has(program) ? (RUNS.has(second) ? 2 : 1) : 0;
  return SUBCOMMAND_TOOLS.has(bare[through] ?? '') && bare.length === through + 1;
}
