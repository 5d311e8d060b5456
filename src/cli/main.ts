import { ACCEPT_HELP, acceptCommand, rejectCommand } from './commands/accept';
import { benchCommand } from './commands/bench';
import { CACHE_HELP, cacheCommand } from './commands/cache';
import { MERGE_HELP, mergeCommand } from './commands/merge';
import { TREE_HELP, treeCommand } from './commands/tree';
import { IMPORT_HELP, importCommand } from './commands/import';
import { LEARN_HELP, learnCommand } from './commands/learn';
import { UsageError } from './args';
import { consoleOutput, type Output } from './output';

const HELP = `combee — learn agent rules from past coding-agent sessions

Usage:
${IMPORT_HELP}

${LEARN_HELP}

${ACCEPT_HELP}

${TREE_HELP}

${MERGE_HELP}

${CACHE_HELP}

combee bench learn [--json] [--quick]   (from a source checkout) speed, retention and cost benchmarks (simulation)

Store: --store, else $COMBEE_STORE, else the per-user data folder.
Exit codes: 0 success, 1 failure, 2 bad usage (warnings never change the exit code).`;

/** Runs one CLI invocation and returns its exit code (never calls process.exit, so tests can call it). */
export async function runCli(argv: string[], out: Output = consoleOutput, signal?: AbortSignal): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'import':
        return await importCommand(rest, out, signal);
      case 'learn':
        return await learnCommand(rest, out, signal);
      case 'accept':
        return await acceptCommand(rest, out);
      case 'reject':
        return await rejectCommand(rest, out);
      case 'merge':
        return await mergeCommand(rest, out);
      case 'tree':
        return await treeCommand(rest, out);
      case 'cache':
        return await cacheCommand(rest, out);
      case 'bench':
        return await benchCommand(rest, out);
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
      out.warn(`${error.message}\n\n${HELP}`);
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
