import { AGENTS_MD } from './agentsMd';
import { findManagedBlock, ManagedBlockError } from './managedBlock';
import { aiderReads, aiderRulesFile } from '../trust/aiderConfig';
import {
  CLAUDE_MD,
  CLINE_RULE,
  COPILOT_INSTRUCTIONS,
  CURSOR_RULE,
  GEMINI_MD,
  KIRO_STEERING,
  QWEN_MD,
  WINDSURF_RULE,
  ownedByCombee,
} from './otherTargets';

// A file that already holds Combee's rules goes on holding the current ones, whether or not its target is on now: a
// rule retired or reworded in the playbook must not live on in an agent file nobody renders any more.

type SyncedTarget =
  | 'agents-md'
  | 'claude-md'
  | 'copilot-instructions'
  | 'cursor-rules'
  | 'clinerules'
  | 'gemini-md'
  | 'aider-conventions'
  | 'windsurf-rules'
  | 'kiro-steering'
  | 'qwen-md';

/** Files with a Combee block inside the team's text. */
const BLOCK_FILES: ReadonlyArray<[SyncedTarget, string]> = [
  ['agents-md', AGENTS_MD],
  ['claude-md', CLAUDE_MD],
  ['copilot-instructions', COPILOT_INSTRUCTIONS],
  ['gemini-md', GEMINI_MD],
  ['clinerules', '.clinerules'],
  ['qwen-md', QWEN_MD],
];

/** Files Combee writes whole, known by the notice it puts at their top. */
const OWNED_FILES: ReadonlyArray<[SyncedTarget, string]> = [
  ['cursor-rules', CURSOR_RULE],
  ['clinerules', CLINE_RULE],
  ['windsurf-rules', WINDSURF_RULE],
  ['kiro-steering', KIRO_STEERING],
];

function holdsBlock(text: string, path: string): boolean {
  try {
    return findManagedBlock(text, path) !== undefined;
  } catch (error) {
    // damaged markers are still Combee's: the renderer reports them and changes nothing
    if (error instanceof ManagedBlockError) return true;
    throw error;
  }
}

/** The targets whose files in the workspace already hold Combee's rules. */
export function targetsHoldingRules(readFile: (relPath: string) => string | undefined): SyncedTarget[] {
  const found = new Set<SyncedTarget>();
  const read = (path: string) => {
    try {
      return readFile(path);
    } catch {
      return undefined; // a folder where a file was expected
    }
  };
  for (const [target, path] of BLOCK_FILES) {
    const text = read(path);
    if (text !== undefined && holdsBlock(text, path)) found.add(target);
  }
  // Aider's file is the one its config names (the workspace path only names the folder in messages)
  const aider = aiderRulesFile(aiderReads(read, '.').files);
  if (aider !== undefined && aider !== AGENTS_MD) {
    const text = read(aider);
    if (text !== undefined && holdsBlock(text, aider)) found.add('aider-conventions');
  }
  for (const [target, path] of OWNED_FILES) {
    const text = read(path);
    if (text !== undefined && ownedByCombee(text)) found.add(target);
  }
  return [...found];
}
