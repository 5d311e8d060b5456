import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { escapeRegExp } from '../util/regExp';

// Whose memory it is. A global memory file (one for every project) holds facts about other projects too: hosts,
// clients, contracts. Of such a file only a memory that names this repository, in its text or in the heading it sits
// under, is a candidate here.

/** The most of `.git/config` read for the origin's name. */
const MAX_GIT_CONFIG_BYTES = 64 * 1024;

/** The repository's name in `remote "origin"`'s URL (`git@host:team/acme-shop.git` → `acme-shop`). */
function originName(workspace: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(workspace, '.git', 'config'), 'utf8').slice(0, MAX_GIT_CONFIG_BYTES);
  } catch {
    return undefined;
  }
  const section = /\[remote "origin"\]([^[]*)/.exec(text)?.[1] ?? '';
  const url = /^\s*url\s*=\s*(\S+)\s*$/m.exec(section)?.[1];
  const name = url
    ?.replace(/\/+$/, '')
    .split(/[/:]/)
    .pop()
    ?.replace(/\.git$/, '');
  return name || undefined;
}

/**
 * The names this repository goes by: its folder's name, its origin's name, its path. A name of fewer than 3
 * characters names nothing in particular.
 */
export function repositoryNames(workspace: string): string[] {
  const names = [basename(workspace), originName(workspace), workspace].filter(
    (n): n is string => n !== undefined && n.length >= 3,
  );
  return [...new Set(names.map((n) => n.toLowerCase()))];
}

/** Whether a memory (its text or its heading) names the repository as a whole word: `acme-shop`, not `acme-shops`. */
export function namesRepository(memory: { text: string; heading?: string }, names: readonly string[]): boolean {
  const where = `${memory.heading ?? ''}\n${memory.text}`.toLowerCase();
  return names.some((name) => new RegExp(`(?<![\\w.-])${escapeRegExp(name)}(?![\\w-]|\\.\\w)`).test(where));
}
