// What a tool's command line means, as data: which words make its identity, which flags take a value, which select
// a target for one task, and which exit statuses are answers rather than failures. Plain JSON, so the enforcement
// hook (hookScript.ts) carries the same table the core reads.

export interface ExitAnswer {
  /** Exit statuses that answer a question ("no match", "they differ", "false") instead of saying it failed. */
  codes: number[];
  /** Only for this subcommand (`git diff`). */
  sub?: string;
  /** Only when one of these flags is given (`git diff --exit-code`). */
  flags?: string[];
}

export interface FlagGrammar {
  /** Flags that take the next word as their value (`-m msg`); `--flag=value` is read for any long flag. */
  value?: string[];
  /** Short flags whose value, when there is one, is attached (`git status -uall`). */
  optional?: string[];
  /** Prefixes that carry an attached value (`mvn -Dtest=X`, `gradle -Pprofile`). */
  attached?: string[];
  /** Flags that pick a target for one task (a workspace, a package, a test filter): dropped when generalizing. */
  selector?: string[];
  /** Flags whose value is part of what the command does (`cargo run --bin x`, `tox -e lint`, `nx run-many -t test`). */
  identity?: string[];
  /** Other spellings of a flag (`--message` for `-m`). */
  flagAliases?: Record<string, string>;
  /** Whether short flags combine (`-am msg` is `-a -m msg`). */
  posix?: boolean;
  /** Exit statuses that are answers, not failures. */
  exitOk?: ExitAnswer[];
}

export interface ToolGrammar extends FlagGrammar {
  /** Program names (`mvn`, `mvnw`). */
  names: string[];
  /**
   * Leading positional words that are the command's identity: 1 a subcommand (default), 0 none (`rg`, `pytest`: its
   * arguments are patterns, files and tests), 'all' every positional (make targets, mvn goals, gradle tasks).
   */
  depth?: number | 'all';
  /** The only words that can be a subcommand, when the tool's other positional words are files and filters. */
  only?: string[];
  /** Other spellings of a subcommand (`npm i` is `npm install`). */
  aliases?: Record<string, string>;
  /** Subcommands whose next positional word is identity too (`npm run <script>`, `docker compose up`). */
  deeper?: string[];
  /**
   * The tool's own subcommands, when any other word is a script it runs (`pnpm build` is `pnpm run build`): such a
   * word is identity as `run <script>`.
   */
  builtins?: string[];
  /** Subcommands that name a workspace before the command run in it (`yarn workspace api test`). */
  scoped?: string[];
  /** Subcommands that run the script of their name (`npm test` is `npm run test`). */
  lifecycle?: string[];
  /** Flags and exit meanings of one subcommand, on top of the tool's own. */
  subs?: Record<string, FlagGrammar>;
}

/** The registry, by program name. */
export type GrammarTable = Record<string, ToolGrammar>;

export function grammarTable(grammars: readonly ToolGrammar[]): GrammarTable {
  const table: GrammarTable = {};
  for (const g of grammars) for (const name of g.names) table[name] = g;
  return table;
}
