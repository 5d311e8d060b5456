import {
  ACCEPT_HELP,
  BENCH_HELP,
  CACHE_HELP,
  CALIBRATE_HELP,
  EVAL_HELP,
  EXPORT_HELP,
  IMPORT_HELP,
  LEARN_HELP,
  MERGE_HELP,
  REJECT_HELP,
  RETIRE_HELP,
  PIN_HELP,
  UNPIN_HELP,
  RULES_HELP,
  MEMORIES_HELP,
  TREE_HELP,
  UNDO_HELP,
} from './help';
import { UsageError } from './args';
import { consoleOutput, redactingOutput, type Output } from './output';
import { COMBEE_VERSION } from './version';

const HELP = `combee — learn agent rules from past coding-agent sessions

Usage:
${IMPORT_HELP}

${EXPORT_HELP}

${LEARN_HELP}

${CALIBRATE_HELP}

${ACCEPT_HELP}

${REJECT_HELP}

${UNDO_HELP}

${RETIRE_HELP}

${PIN_HELP}

${UNPIN_HELP}

${TREE_HELP}

${RULES_HELP}

${MEMORIES_HELP}

${EVAL_HELP}

${MERGE_HELP}

${CACHE_HELP}

${BENCH_HELP}

combee <command> --help shows one command's usage; combee --version the version.
Store: --store, else $COMBEE_STORE, else the extension's (VS Code, Insiders, VSCodium, code-server), else the per-user
data folder; stderr says which.
Exit codes: 0 success, 1 failure, 2 bad usage (warnings never change the exit code).`;

/** Runs one CLI invocation and returns its exit code (never calls process.exit, so tests can call it). */
/** Each command's own usage, for `combee <command> --help`. */
const COMMAND_HELP: Record<string, string> = {
  import: IMPORT_HELP,
  export: EXPORT_HELP,
  learn: LEARN_HELP,
  calibrate: CALIBRATE_HELP,
  accept: ACCEPT_HELP,
  reject: REJECT_HELP,
  undo: UNDO_HELP,
  retire: RETIRE_HELP,
  pin: PIN_HELP,
  unpin: UNPIN_HELP,
  tree: TREE_HELP,
  rules: RULES_HELP,
  memories: MEMORIES_HELP,
  eval: EVAL_HELP,
  merge: MERGE_HELP,
  cache: CACHE_HELP,
  bench: BENCH_HELP,
};

export async function runCli(argv: string[], output: Output = consoleOutput, signal?: AbortSignal): Promise<number> {
  const [command, ...rest] = argv;
  const out = redactingOutput(output);
  if (
    command !== undefined &&
    Object.hasOwn(COMMAND_HELP, command) &&
    (rest.includes('--help') || rest.includes('-h'))
  ) {
    out.result(COMMAND_HELP[command]);
    return 0;
  }
  try {
    switch (command) {
      // Each command is loaded when run: an import never pays for the learning engine's code and memory.
      case 'import':
        return await (await import('./commands/import.js')).importCommand(rest, out, signal);
      case 'export':
        return await (await import('./commands/export.js')).exportCommand(rest, out);
      case 'learn':
        return await (await import('./commands/learn.js')).learnCommand(rest, out, signal);
      case 'calibrate':
        return await (await import('./commands/calibrate.js')).calibrateCommand(rest, out, signal);
      case 'accept':
        return await (await import('./commands/accept.js')).acceptCommand(rest, out);
      case 'reject':
        return await (await import('./commands/accept.js')).rejectCommand(rest, out);
      case 'undo':
        return await (await import('./commands/undo.js')).undoCommand(rest, out);
      case 'retire':
        return await (await import('./commands/ruleChange.js')).retireCommand(rest, out);
      case 'pin':
        return await (await import('./commands/ruleChange.js')).pinCommand(rest, out);
      case 'unpin':
        return await (await import('./commands/ruleChange.js')).unpinCommand(rest, out);
      case 'merge':
        return await (await import('./commands/merge.js')).mergeCommand(rest, out);
      case 'tree':
        return await (await import('./commands/tree.js')).treeCommand(rest, out);
      case 'rules':
        return await (await import('./commands/rules.js')).rulesCommand(rest, out);
      case 'memories':
        return await (await import('./commands/memories.js')).memoriesCommand(rest, out);
      case 'eval':
        return await (await import('./commands/eval.js')).evalCommand(rest, out, signal);
      case 'cache':
        return await (await import('./commands/cache.js')).cacheCommand(rest, out);
      case 'bench':
        return await (await import('./commands/bench.js')).benchCommand(rest, out);
      case '--version':
      case '-V':
      case 'version':
        out.result(COMBEE_VERSION);
        return 0;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        out.result(HELP);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command ${command}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      // One clear line, and where to find more (the whole usage would bury it).
      out.warn(
        `${error.message}\n${command !== undefined && Object.hasOwn(COMMAND_HELP, command) ? `Usage: combee ${command} --help` : 'Usage: combee --help'}`,
      );
      return 2;
    }
    out.warn(`failed: ${(error as Error).message}`);
    return 1;
  }
}

if (require.main === module) {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  void runCli(process.argv.slice(2), consoleOutput, controller.signal).then((code) => {
    process.exitCode = code;
  });
}
