// `@path` imports (Claude Code's CLAUDE.md, Gemini CLI's GEMINI.md): a path after `@` at the start of a line or after
// white space, outside code blocks and code spans, resolved from the importing file's folder.

const FENCE = /^\s*(```|~~~)/;
const IMPORT = /(?:^|\s)@((?:\.{1,2}\/)*[^\s`'"()<>@]+)/g;

function normalize(parts: string[]): string | undefined {
  const out: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined; // leaves the workspace
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

/**
 * The workspace-relative files a file imports, in order, each once. Absolute and home paths are left out: they are
 * outside the workspace, and nothing Combee renders points there.
 */
export function importedPaths(text: string, fromPath: string): string[] {
  const folder = fromPath.includes('/') ? fromPath.slice(0, fromPath.lastIndexOf('/')).split('/') : [];
  const found: string[] = [];
  let fenced = false;
  for (const line of text.split(/\r?\n/)) {
    if (FENCE.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const outsideSpans = line.replace(/`[^`]*`/g, ' ');
    for (const m of outsideSpans.matchAll(IMPORT)) {
      const raw = m[1].replace(/[.,;:!?]+$/, '');
      if (raw.startsWith('/') || raw.startsWith('~')) continue;
      const path = normalize([...folder, ...raw.split('/')]);
      if (path && !found.includes(path)) found.push(path);
    }
  }
  return found;
}

/** Whether the file already imports `target` (workspace-relative), however the path is written. */
export function importsFile(text: string, fromPath: string, target: string): boolean {
  return importedPaths(text, fromPath).includes(target);
}

/** The import line that pulls `target` into the file at `fromPath` (`@./x.md` with `dotSlash`, as Gemini CLI documents). */
export function importLine(fromPath: string, target: string, dotSlash = false): string {
  const depth = fromPath.split('/').length - 1;
  const from = fromPath.split('/').slice(0, depth);
  const to = target.split('/');
  let shared = 0;
  while (shared < from.length && shared < to.length - 1 && from[shared] === to[shared]) shared++;
  const up = from.slice(shared).map(() => '..');
  return `@${up.length === 0 && dotSlash ? './' : ''}${[...up, ...to.slice(shared)].join('/')}`;
}
