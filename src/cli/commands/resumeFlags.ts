import { UsageError } from '../args';

// A Batch API run saves its command line in the store; `--resume` replays it. The store is a file anyone with access
// to it could edit, so the replay keeps only the flags that shape what is learned, never one that says where data is
// sent, which key or paths are used, or what is written: those come from the command line that resumes.

/** Flags of `learn` that take a value. */
const VALUED = new Set([
  ...['store', 'workspace', 'provider', 'base-url', 'model', 'strategy', 'batch', 'seed', 'window-days', 'targets'],
  ...['playbook', 'timeout', 'max-tokens', 'max-cost', 'price-in', 'price-out', 'aggregation-tokens', 'since'],
  ...['agent', 'budget', 'shard', 'out', 'reduce', 'pr-body', 'resume', 'poll-seconds'],
]);

/** Saved flags a resume takes over: what is learned and how, never where data goes or what is written. */
const REPLAYED = new Set([
  ...['provider', 'model', 'strategy', 'batch', 'seed', 'window-days', 'targets', 'timeout', 'max-tokens'],
  ...['max-cost', 'price-in', 'price-out', 'aggregation-tokens', 'since', 'agent', 'budget', 'poll-seconds'],
  ...['all-workspaces', 'dry-run', 'json', 'no-cache', 'batch-api'],
]);

interface Flag {
  name: string;
  tokens: string[];
  value?: string;
}

function flagsOf(argv: readonly string[]): Flag[] {
  const flags: Flag[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (!token.startsWith('--')) continue;
    const [name, inline] = token.slice(2).split(/=(.*)/s, 2);
    if (inline !== undefined || !VALUED.has(name)) flags.push({ name, tokens: [token], value: inline });
    else {
      flags.push({ name, tokens: [token, argv[i + 1] ?? ''], value: argv[i + 1] });
      i++;
    }
  }
  return flags;
}

/** The endpoint a saved command line submitted to, when it named one. */
export function savedEndpoint(saved: readonly string[]): string | undefined {
  return flagsOf(saved).find((f) => f.name === 'base-url')?.value;
}

/**
 * The saved command line's flags a resume replays. The endpoint is never taken from it: when the run was submitted
 * to one, the resuming command line must name the same (`--base-url`), or the resume is refused.
 */
export function replayedFlags(saved: readonly string[], current: readonly string[], batchId: string): string[] {
  const savedFlags = flagsOf(saved);
  const endpoint = savedEndpoint(saved);
  const given = flagsOf(current).find((f) => f.name === 'base-url')?.value;
  if (endpoint !== undefined && given !== endpoint)
    throw new UsageError(
      `batch ${batchId} was submitted to ${endpoint}: resume it with --base-url ${endpoint} (a resume never takes the endpoint from the store)`,
    );
  return savedFlags.filter((f) => REPLAYED.has(f.name)).flatMap((f) => f.tokens);
}
