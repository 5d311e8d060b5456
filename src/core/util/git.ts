import { execFile, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';

// Git as Combee runs it on a repository it reads (asset history, team bundles on a branch): read-only plumbing
// commands with fixed arguments, and every setting through which a cloned repository's .git/config could make git
// run a program turned off (fsmonitor, hooks, pager, signature checks). Nothing is fetched: a partial clone's missing
// blob is missing, not asked of its promisor remote (whose upload-pack command the repository names). Paths given
// are literal, never pathspec magic.

const run = promisify(execFile);

const SAFE = [
  ...['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'core.pager=cat'],
  // a signature check would run the configured gpg program, and print its lines among the log's
  ...['-c', 'log.showSignature=false'],
  // no transport at all: a lazy fetch of a partial clone would run the remote's configured upload-pack
  ...['-c', 'protocol.allow=never'],
  '--no-pager',
  '--literal-pathspecs',
];

const gitEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  GIT_TERMINAL_PROMPT: '0',
  GIT_OPTIONAL_LOCKS: '0',
  // git 2.44 and later: never fetch a missing object of a partial clone (older ones: protocol.allow above)
  GIT_NO_LAZY_FETCH: '1',
});

export interface GitOptions {
  /** Most bytes of output kept (default 64 MiB); more fails the call. */
  maxBuffer?: number;
  timeoutMs?: number;
}

/** git's standard output in `cwd`; throws when git is missing, `cwd` is no repository, or the command fails. */
export async function runGit(cwd: string, args: string[], options: GitOptions = {}): Promise<string> {
  const { stdout } = await run('git', [...SAFE, '-C', cwd, ...args], {
    maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
    timeout: options.timeoutMs ?? 30_000,
    env: gitEnv(),
  });
  return stdout;
}

/** runGit, or undefined where it would throw (no git, no repository, no commits yet). */
export async function tryGit(cwd: string, args: string[], options?: GitOptions): Promise<string | undefined> {
  try {
    return await runGit(cwd, args, options);
  } catch {
    return undefined;
  }
}

/**
 * Writes git's standard output to the file `to` as it comes (a blob of hundreds of MiB is never held in memory);
 * more than `maxBytes` fails it. Returns the bytes written; on any failure the file is removed.
 */
export async function gitToFile(
  cwd: string,
  args: string[],
  to: string,
  maxBytes: number,
  timeoutMs = 5 * 60_000,
): Promise<number> {
  const child = spawn('git', [...SAFE, '-C', cwd, ...args], {
    env: gitEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs,
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    if (stderr.length < 4096) stderr += text;
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  exited.catch(() => undefined); // awaited below; no unhandled rejection meanwhile
  let bytes = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > maxBytes ? new Error(`more than ${maxBytes} bytes`) : null, chunk);
    },
  });
  try {
    await pipeline(child.stdout, cap, createWriteStream(to));
    const code = await exited;
    if (code !== 0) throw new Error(`git ${args[0]} failed (${code ?? 'killed'}): ${stderr.trim().slice(0, 300)}`);
    return bytes;
  } catch (error) {
    child.kill();
    await exited.catch(() => undefined);
    await rm(to, { force: true });
    throw error;
  }
}
