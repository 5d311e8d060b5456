import { aiderReads } from '../../trust/aiderConfig';

// The files in which the team tells the agents rules by itself, each loaded into every session by an agent Combee
// writes for: a rule one of them already states is not proposed again (service/learnRun/resolveConflicts.ts reads their text
// outside Combee's block; the restates-repository gate their commands). Combee's own whole files are not the team's.

const ROOT_FILES = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', 'QWEN.md', '.github/copilot-instructions.md'];

/** Rule folders whose files load into every session when their front matter says so (or, for Kiro, says nothing). */
const ALWAYS_ON_FOLDERS: ReadonlyArray<{ folder: string; alwaysOn: (frontMatter: string | undefined) => boolean }> = [
  { folder: '.windsurf/rules', alwaysOn: (fm) => fm !== undefined && /^trigger:\s*['"]?always_on['"]?\s*$/m.test(fm) },
  {
    folder: '.kiro/steering',
    alwaysOn: (fm) => fm === undefined || !/^inclusion:/m.test(fm) || /^inclusion:\s*['"]?always['"]?\s*$/m.test(fm),
  },
];

const COMBEE_FILE = 'combee.md';

function frontMatter(text: string): string | undefined {
  return /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text)?.[1];
}

/**
 * The workspace-relative files holding the team's own rules for the agents: the agents' root files, what Aider's
 * config has it read, and the always-on rule files of Windsurf and Kiro other than Combee's. `listFiles` names the
 * files of a workspace folder ([] when absent).
 */
export function teamRuleFiles(
  readFile: (relPath: string) => string | undefined,
  listFiles: (relFolder: string) => string[],
): string[] {
  const read = (path: string) => {
    try {
      return readFile(path);
    } catch {
      return undefined;
    }
  };
  const out = [...ROOT_FILES];
  for (const path of aiderReads(read, '.').files) if (!out.includes(path)) out.push(path);
  for (const { folder, alwaysOn } of ALWAYS_ON_FOLDERS)
    for (const name of [...listFiles(folder)].sort()) {
      if (!name.endsWith('.md') || name === COMBEE_FILE) continue;
      const text = read(`${folder}/${name}`);
      if (text !== undefined && alwaysOn(frontMatter(text))) out.push(`${folder}/${name}`);
    }
  return out.filter((path) => read(path) !== undefined);
}
