import { AGENT_LOADING } from '../../agents/loading';
import { aiderReads } from '../../trust/aiderConfig';

// The files in which the team tells the agents rules by itself, each loaded into every session by an agent Combee
// writes for: a rule one of them already states is not proposed again (service/learnRun/resolveConflicts.ts reads their text
// outside Combee's block; the restates-repository gate their commands). Combee's own whole files are not the team's.
// The repository's skills are the team's text too: a rule restating a skill's procedure is not proposed again.

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

/** Skill folders read at most, over all roots, and the largest SKILL.md read: a repository's files are untrusted. */
export const MAX_SKILLS = 64;
export const MAX_SKILL_CHARS = 32_000;

/** Every folder an agent looks in for skills (agents/loading.ts), each once, in a stable order. */
const SKILL_ROOTS = [...new Set(Object.values(AGENT_LOADING).flatMap((a) => a.skillRoots))].sort();

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
  /** The sub-folders of a workspace folder ([] when absent): where the skills are. */
  listFolders: (relFolder: string) => string[] = () => [],
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
  out.push(...skillFiles(read, listFolders));
  return out.filter((path) => read(path) !== undefined);
}

/** `<root>/<name>/SKILL.md` of every skill root, the first `MAX_SKILLS`, none larger than `MAX_SKILL_CHARS`. */
function skillFiles(
  read: (relPath: string) => string | undefined,
  listFolders: (relFolder: string) => string[],
): string[] {
  const out: string[] = [];
  for (const root of SKILL_ROOTS)
    for (const name of [...listFolders(root)].sort()) {
      if (out.length >= MAX_SKILLS) return out;
      // a folder's name is the repository's: it names one folder below the root, nothing else
      if (!/^[^/\\]+$/.test(name) || name === '.' || name === '..') continue;
      const path = `${root}/${name}/SKILL.md`;
      const text = read(path);
      if (text !== undefined && text.length <= MAX_SKILL_CHARS) out.push(path);
    }
  return out;
}

/** Whether a team file is a skill: a procedure read whole, not a file of one-line rules. */
export function isSkillFile(path: string): boolean {
  return /(?:^|\/)SKILL\.md$/.test(path);
}
