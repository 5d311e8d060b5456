import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { OutsideWorkspaceError, workspaceRelative } from './workspacePath';

// Aider loads no rules file by itself: a repository makes it read one with `read:` in .aider.conf.yml (a file name or
// a list of them; CONVENTIONS.md by custom). The config is a repository file, so untrusted: a name it gives is used
// only when it is relative and stays inside the workspace folder (the writer checks symbolic links again when it
// writes); an absolute name is refused even when it points inside, so every reader of the config agrees.

export const AIDER_CONFIG = '.aider.conf.yml';

export interface AiderReads {
  /** Workspace-relative files the config has Aider read, in its order, each once. */
  files: string[];
  /** Why each name left out was refused (outside the workspace, not a file name, a broken config). */
  refused: string[];
}

function entriesOf(value: unknown): unknown[] {
  if (isSeq(value)) return value.items.map((item) => (isScalar(item) ? item.value : item));
  if (isScalar(value)) return [value.value];
  return value === undefined ? [] : [value];
}

/** The files `.aider.conf.yml` names under `read:`, confined to the workspace; `workspace` names it in messages. */
export function aiderReads(readFile: (relPath: string) => string | undefined, workspace: string): AiderReads {
  let text: string | undefined;
  try {
    text = readFile(AIDER_CONFIG);
  } catch {
    text = undefined; // a folder of that name
  }
  const out: AiderReads = { files: [], refused: [] };
  if (text === undefined) return out;
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0 || !isMap(doc.contents)) {
    if (doc.errors.length > 0 || doc.contents !== null)
      out.refused.push(`${AIDER_CONFIG} is not a YAML mapping; the files it names are not read`);
    return out;
  }
  for (const entry of entriesOf(doc.contents.get('read', true))) {
    if (typeof entry !== 'string' || entry.trim() === '') {
      out.refused.push(`${AIDER_CONFIG}: a \`read:\` entry that is not a file name is left out`);
      continue;
    }
    const raw = entry.trim();
    try {
      // Aider expands `~` to the home folder
      if (raw.startsWith('~') || raw.includes('$'))
        throw new OutsideWorkspaceError(entry, workspace, 'it names a home or environment path');
      const rel = workspaceRelative(raw, workspace);
      if (!out.files.includes(rel)) out.files.push(rel);
    } catch (error) {
      if (!(error instanceof OutsideWorkspaceError)) throw error;
      out.refused.push(`${AIDER_CONFIG}: \`read:\` ${error.message}`);
    }
  }
  return out;
}

/** Of the files Aider reads, the one Combee's rules go in: a CONVENTIONS file first, else the first Markdown one. */
export function aiderRulesFile(files: readonly string[]): string | undefined {
  const name = (path: string) => path.slice(path.lastIndexOf('/') + 1);
  return (
    files.find((f) => /^conventions(\.[a-z]+)?$/i.test(name(f))) ?? files.find((f) => /\.(md|markdown|txt)$/i.test(f))
  );
}
