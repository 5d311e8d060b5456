import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { tryResolveInWorkspace } from '../trust/workspacePath';
import { tryGit } from '../util/git';
import { MAX_ALLOWED_SIGNERS_BYTES, parseAllowedSigners, type AllowedSigners } from './allowedSigners';

// Which allowed-signers file vouches for bundle signers is the user's choice, never the repository's: Combee's own
// user setting (or the CLI's --allowed-signers), else `gpg.ssh.allowedSignersFile` from the user's global or system
// git config — not the repository's .git/config, nor its .vscode/settings.json, which came with the folder. The user
// may point at a file the repository commits (a relative path is read inside the workspace, symbolic links out of it
// refused): then the repository names which key is whose, and that is all it does. A verified signer only changes
// the name a bundle's sessions are counted and shown under; it sends nothing anywhere, selects no key or endpoint,
// and clears no flag (a signed bundle is still team evidence).

export interface AllowedSignersChoice {
  path: string;
  /** Where the path came from, for messages. */
  from: string;
}

const GIT_KEY = 'gpg.ssh.allowedSignersFile';

/** `~/x` to the home folder; a relative path to the workspace folder (refused when it leaves it). */
function placed(raw: string, workspace: string | undefined, from: string): AllowedSignersChoice | string {
  const path = raw === '~' || raw.startsWith('~/') ? join(homedir(), raw.slice(1)) : raw;
  if (isAbsolute(path)) return { path, from };
  if (!workspace) return `${from}: ${JSON.stringify(raw)} is relative and there is no workspace folder to read it in`;
  const inside = tryResolveInWorkspace(workspace, path);
  return inside ? { path: inside, from } : `${from}: ${JSON.stringify(raw)} leads outside the workspace folder`;
}

/**
 * The allowed-signers file to use: `setting` when the user set one (`from` names it), else the user's git config.
 * Returns undefined when none is set, or the reason (a string) when the one set cannot be used.
 */
export async function chooseAllowedSigners(
  workspace: string | undefined,
  setting?: { value: string; from: string },
): Promise<AllowedSignersChoice | string | undefined> {
  if (setting && setting.value.trim()) return placed(setting.value.trim(), workspace, setting.from);
  for (const scope of ['--global', '--system']) {
    // from the home folder: no repository's config is in reach
    const out = await tryGit(homedir(), ['config', scope, '--includes', '--type=path', '--get', GIT_KEY]);
    const value = out?.trim();
    if (value) return placed(value, workspace, `git config ${scope.slice(2)} ${GIT_KEY}`);
  }
  return undefined;
}

/** Reads and parses the chosen file; a missing, unreadable or oversized one is a reason (string), not a throw. */
export async function loadAllowedSigners(choice: AllowedSignersChoice): Promise<AllowedSigners | string> {
  const where = `${choice.path} (${choice.from})`;
  const info = await stat(choice.path).catch(() => undefined);
  if (!info?.isFile()) return `allowed signers ${where}: no such file`;
  if (info.size > MAX_ALLOWED_SIGNERS_BYTES)
    return `allowed signers ${where}: larger than ${MAX_ALLOWED_SIGNERS_BYTES} bytes, not read`;
  try {
    return parseAllowedSigners(await readFile(choice.path, 'utf8'), choice.path);
  } catch (error) {
    return `allowed signers ${where}: ${(error as Error).message}`;
  }
}
