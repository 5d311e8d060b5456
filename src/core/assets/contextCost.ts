import { importedPaths } from '../agents/imports';
import { AGENT_LOADING, loadsAtStart, type LoadingAgent } from '../agents/loading';
import { countTokens } from '../util/tokens';
import { findManagedBlocks } from './managedBlock';
import type { FileChange } from './proposal';
import { AGENTS_MD } from './agentsMd';
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
import { aiderReads } from '../trust/aiderConfig';

// What Combee's text costs each agent: the tokens of it the agent loads into every session by itself, following the
// imports it expands. Combee's text is its blocks, the files it writes whole, and its import lines; the team's own
// text is not counted. Counted with the tokenizer of the rules budget (util/tokens.ts).

export interface AgentContextCost {
  agent: LoadingAgent;
  /** Tokens of Combee's text loaded at session start with the workspace's files as they are. */
  before: number;
  /** The same once the proposal's files are written. */
  after: number;
}

/** Claude Code expands imports five hops deep. */
const MAX_IMPORT_DEPTH = 5;

/** Combee's text in one file: its blocks, or the whole file when Combee wrote it whole. */
function combeeText(text: string, path: string): string {
  if (ownedByCombee(text)) return text;
  try {
    return findManagedBlocks(text, path)
      .map((b) => text.slice(b.start, b.end))
      .join('\n');
  } catch {
    return ''; // broken markers: whose text it is is unknown (the renderer reports them)
  }
}

const COMBEE_FILES = [
  AGENTS_MD,
  CLAUDE_MD,
  COPILOT_INSTRUCTIONS,
  CURSOR_RULE,
  CLINE_RULE,
  GEMINI_MD,
  WINDSURF_RULE,
  KIRO_STEERING,
  QWEN_MD,
];

/** The files an agent may load by itself at the root: its own, and Combee's files in its rule folders. */
function candidates(agent: LoadingAgent): string[] {
  const model = AGENT_LOADING[agent];
  return [...new Set([...model.rootFiles, ...(model.fallback ? [model.fallback] : []), ...COMBEE_FILES])].filter(
    (path) => loadsAtStart(agent, path, () => true) || path === model.fallback,
  );
}

function tokensLoaded(agent: LoadingAgent, readFile: (path: string) => string | undefined): number {
  const read = (path: string) => {
    try {
      return readFile(path);
    } catch {
      return undefined; // a folder where a file was expected (.clinerules)
    }
  };
  const exists = (path: string) => read(path) !== undefined;
  // an agent that loads what its config names (Aider) loads those files, as the config names them now
  const configured = AGENT_LOADING[agent].configFile ? aiderReads(read, '.').files : [];
  const roots = [...candidates(agent).filter((path) => loadsAtStart(agent, path, exists)), ...configured];
  const follows = AGENT_LOADING[agent].atImports;
  const seen = new Set<string>();
  let total = 0;
  const visit = (path: string, depth: number): number => {
    if (seen.has(path)) return 0;
    seen.add(path);
    const text = read(path);
    if (text === undefined) return 0;
    let own = countTokens(combeeText(text, path));
    if (!follows || depth >= MAX_IMPORT_DEPTH) return own;
    for (const imported of importedPaths(text, path)) {
      const through = visit(imported, depth + 1);
      // an import line that brings in Combee's text is Combee's too
      if (through > 0) own += countTokens(`@${imported}\n`) + through;
    }
    return own;
  };
  for (const path of roots) total += visit(path, 0);
  return total;
}

/**
 * Per agent (in the order given), the tokens of Combee's text it loads at session start now and once `changes` are
 * written over the workspace's files.
 */
export function contextCost(
  agents: readonly LoadingAgent[],
  readFile: (relPath: string) => string | undefined,
  changes: readonly FileChange[],
): AgentContextCost[] {
  const after = new Map(changes.map((c) => [c.path, c.after]));
  const readAfter = (path: string) => (after.has(path) ? after.get(path) : readFile(path));
  return agents.map((agent) => ({
    agent,
    before: tokensLoaded(agent, readFile),
    after: tokensLoaded(agent, readAfter),
  }));
}

/** One line for a summary: "Claude Code 0 → 312, Codex 640 → 312 tokens at session start". */
export function describeContextCost(costs: readonly AgentContextCost[]): string {
  const parts = costs.map((c) => `${AGENT_LOADING[c.agent].label} ${c.before} → ${c.after}`);
  return `${parts.join(', ')} tokens of Combee's text at session start`;
}
