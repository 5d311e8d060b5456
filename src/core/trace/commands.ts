import { identityKey, mainIdentity } from './shell';

/** Recognizes what a shell command does, so lessons can talk about "the test command" of a repo. */
export type CommandKind =
  'test' | 'build' | 'lint' | 'typecheck' | 'install' | 'format' | 'codegen' | 'run' | 'vcs' | 'other';

const KIND_PATTERNS: Array<[CommandKind, RegExp]> = [
  // `test`/`tests` as a word, not a folder in a path (`tmp.lint.sh tests/basic/x.py` is a lint run) nor a part of a
  // task's name (`db:test:prepare`); `test:unit` is a test script
  [
    'test',
    /(?:\b(?:jest|vitest|mocha|pytest|go test|cargo test|rspec|phpunit|ctest|tox|nox|playwright test|unittest)\b|(?<![\w/.:-])tests?(?![\w/.-]))/i,
  ],
  ['typecheck', /\b(?:tsc|mypy|pyright|typecheck|type-check|check-types)\b/i],
  ['lint', /\b(?:lint|eslint|ruff|flake8|pylint|clippy|golangci-lint|rubocop|stylelint|shellcheck|go vet)\b/i],
  ['format', /\b(?:prettier|black|gofmt|rustfmt|fmt|format)\b/i],
  ['codegen', /\b(?:generate|codegen|gen:|prisma generate|protoc|buf generate|openapi|graphql-codegen|sqlc)\b/i],
  [
    'build',
    /\b(?:build|compile|make|cmake|gradle|mvn|webpack|esbuild|vite build|rollup|cargo build|go build|bundle)\b/i,
  ],
  [
    'install',
    /\b(?:npm (?:ci|install|i)\b|pnpm (?:install|i)\b|yarn(?: install)?$|pip install|poetry install|uv sync|bundle install|go mod download|cargo fetch|apt-get install)/i,
  ],
  ['vcs', /^\s*git\b/i],
  ['run', /\b(?:npm run|pnpm|yarn|node|python|cargo run|go run|deno|bun)\b/i],
];

/**
 * The playbook section a rule about a command of this kind is filed under: the check it runs, not where the lesson
 * came from. Undefined for the other kinds (each caller has its own default).
 */
export function sectionOfCommandKind(kind: CommandKind): string | undefined {
  switch (kind) {
    case 'test':
      return 'Test';
    case 'build':
    case 'codegen':
      return 'Build';
    case 'lint':
    case 'format':
      return 'Lint';
    case 'typecheck':
      return 'Typecheck';
    case 'install':
      return 'Setup';
    case 'run':
      return 'Run';
    default:
      return undefined;
  }
}

/** Programs that only look at things: `cat vitest.config.ts` is not a test run. */
const READ_ONLY = new Set([
  'cat',
  'less',
  'more',
  'head',
  'tail',
  'ls',
  'find',
  'grep',
  'rg',
  'ag',
  'sed',
  'awk',
  'wc',
  'echo',
  'printf',
  'pwd',
  'which',
  'type',
  'file',
  'stat',
  'tree',
  'diff',
  'jq',
  'date',
  'env',
  'sleep',
  'true',
]);

export function classifyCommand(command: string): CommandKind {
  const first = firstCommand(command);
  const program = first.split(/\s+/)[0]?.replace(/^.*\//, '') ?? '';
  if (READ_ONLY.has(program)) return 'other';
  for (const [kind, pattern] of KIND_PATTERNS) if (pattern.test(first)) return kind;
  return 'other';
}

/** The first meaningful command of a shell line: leading `cd x &&` and env assignments are dropped. */
export function firstCommand(command: string): string {
  let rest = command.trim();
  for (;;) {
    const cd = /^cd\s+\S+\s*(?:&&|;)\s*/.exec(rest);
    if (cd) {
      rest = rest.slice(cd[0].length);
      continue;
    }
    const env = /^[A-Z_][A-Z0-9_]*=\S*\s+/.exec(rest);
    if (env) {
      rest = rest.slice(env[0].length);
      continue;
    }
    return rest;
  }
}

/**
 * A command's identity as one string, by its tool's grammar (`npm run build`, `make gen-001`, `uv run pytest`): its
 * first command past any `cd`, wrappers peeled, selectors and values left out. A line the parser cannot read keys as
 * itself, so it only ever equals the same line.
 */
export function commandKey(command: string): string {
  const id = mainIdentity(command);
  return id ? identityKey(id) : command.trim().toLowerCase();
}

/** Flags that make a check repair things: `pnpm lint --fix` is a fix, not the way to run the check. */
export function isAutoFix(command: string): boolean {
  return (
    /\s(?:--fix|--write|-w|--update-snapshots|-u|--apply)\b/.test(command) ||
    /\b(?:format|fmt)\b/.test(command) ||
    // a project's own fixing script: `bun run lint:fix`, `npm run fix`, `cargo fix`
    /(?:^|\s)[\w-]+:fix\b|\b(?:run|cargo|eslint|ruff check|biome check)\s+fix\b/.test(command)
  );
}
