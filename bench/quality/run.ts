import { contextCost, type AgentContextCost } from '../../src/core/assets/contextCost';
import { makeFileChange } from '../../src/core/assets/proposal';
import type { AgentId } from '../../src/core/trace/model';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { acceptCommand } from '../../src/cli/commands/accept';
import { DEFAULT_PLAYBOOK_PATH } from '../../src/core/assets/playbookAsset';
import type { Proposal } from '../../src/core/assets/proposal';
import { importSessions } from '../../src/core/import/importer';
import { offlineRoles, openAiRoles } from '../../src/core/llm/providers';
import { ProposalStore } from '../../src/core/store/proposals';
import { TraceStore } from '../../src/core/store/traceStore';
import { WorkspaceState } from '../../src/core/store/workspaceState';
import { capture } from '../../testing/cliOutput';
import { dryLearn } from '../../testing/dryLearn';
import { startModelServer } from '../../testing/modelServer';
import { tempDir } from '../../testing/tmp';
import { CORPORA, writeQualityCorpus, type CorpusName, type WrittenCorpus } from './corpus';
import { scriptedModel, type ModelStyle } from './models';
import { reduceFigures, type ReduceFigures } from './reduce';
import { AGENT_FILES, scoreRepo, totalsOf, type RepoFigures, type Totals } from './score';

// One learner over the whole corpus, on a fresh copy: import, learn each repository (dry run, fixed seed), accept
// its whole proposal as `combee accept <id>` does, and score the accepted files.

export type Learner = 'offline' | ModelStyle;
export const LEARNERS: readonly Learner[] = ['offline', 'careful', 'sloppy'];

/** The agents whose context cost is measured: the corpus's two, and Copilot, which loads both files. */
export const CONTEXT_AGENTS: readonly AgentId[] = ['claude-code', 'codex', 'copilot'];

/** The asset targets of a workspace whose sessions are Claude Code's and Codex's. */
export const TARGETS = ['playbook', 'agents-md', 'claude-md'] as const;

export interface QualityRun {
  learner: Learner;
  seed: number;
  repos: RepoFigures[];
  totals: Totals;
  /** Each repository's accepted files (playbook and agent files), by workspace path. */
  accepted: Record<string, Record<string, string>>;
  /** Each repository's proposal as made: its rule changes (op, id, text, flags) before the accept. */
  proposed: Record<string, Array<{ op: string; id: string; content?: string; flags: string[] }>>;
  /** What the run or the accept warned about, per repository. */
  warnings: Record<string, string[]>;
  /**
   * Per repository, the tokens of Combee's text each agent loads at session start: the corpus as committed (AGENTS.md
   * and CLAUDE.md each holding a block) and the accepted files (assets/contextCost.ts).
   */
  contextTokens: Record<string, AgentContextCost[]>;
  /** The same learning through the map phase's file and a reduce (as CI shards learn), per repository. */
  reduce: Record<string, ReduceFigures>;
  corpus: { repos: number; sessions: number; byAgent: Record<string, number> };
}

function filesOf(workspace: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const path of [DEFAULT_PLAYBOOK_PATH, ...AGENT_FILES]) {
    const file = join(workspace, path);
    if (existsSync(file)) files[path] = readFileSync(file, 'utf8');
  }
  return files;
}

/** Saves the dry run's proposal and accepts it whole through the CLI's own command. */
async function accept(store: TraceStore, proposal: Proposal, workspace: string, warn: (m: string) => void) {
  await new ProposalStore(new WorkspaceState(store.dir)).save(proposal);
  const out = capture();
  const code = await acceptCommand([proposal.id, '--workspace', workspace, '--store', store.dir], out);
  for (const line of out.stderr) if (line.startsWith('warning: ')) warn(line.slice('warning: '.length));
  if (code !== 0) warn(`combee accept exited ${code}`);
}

export interface QualityRunOptions {
  learner: Learner;
  seed?: number;
  /** Which corpus (default `main`, the one the learner was improved against). */
  corpus?: CorpusName;
}

/** Learns the corpus with one learner and scores what was accepted. */
export async function runQualityCorpus(options: QualityRunOptions): Promise<QualityRun> {
  const seed = options.seed ?? 1;
  const repoSpecs = CORPORA[options.corpus ?? 'main'];
  const root = tempDir(`combee-quality-${options.learner}-`);
  const corpus: WrittenCorpus = writeQualityCorpus(join(root, 'corpus'), seed, repoSpecs);
  const store = new TraceStore(join(root, 'store'));
  const imported = await importSessions({ from: corpus.homes, store });
  const server =
    options.learner === 'offline'
      ? undefined
      : await startModelServer({ responder: scriptedModel(options.learner, seed, repoSpecs) });
  const roles = server
    ? openAiRoles({ baseUrl: server.url, apiKey: 'not-needed', model: `${options.learner}-sim` })
    : offlineRoles();
  const repos: RepoFigures[] = [];
  const accepted: QualityRun['accepted'] = {};
  const warnings: QualityRun['warnings'] = {};
  const proposed: QualityRun['proposed'] = {};
  const reduce: QualityRun['reduce'] = {};
  const contextTokens: QualityRun['contextTokens'] = {};
  try {
    for (const repo of repoSpecs) {
      const workspace = corpus.workspaces[repo.name];
      const warn = (m: string) => (warnings[repo.name] ??= []).push(m);
      const learnOptions = { seed, assets: { targets: [...TARGETS] } };
      const committed = filesOf(workspace);
      const result = await dryLearn(store, workspace, roles, learnOptions);
      reduce[repo.name] = await reduceFigures(store, workspace, roles, learnOptions, result.proposal);
      for (const w of result.record?.warnings ?? []) warn(w);
      proposed[repo.name] = (result.proposal?.rules ?? []).map((r) => ({
        op: r.op,
        id: r.id,
        content: r.content,
        flags: r.flags.map((f) => f.kind),
      }));
      if (result.proposal) await accept(store, result.proposal, workspace, warn);
      const files = filesOf(workspace);
      accepted[repo.name] = files;
      const written = Object.entries(files).flatMap(
        ([path, text]) => makeFileChange(path, committed[path], text) ?? [],
      );
      contextTokens[repo.name] = contextCost(CONTEXT_AGENTS, (path) => committed[path], written);
      const evidence = (result.record?.batches ?? []).flatMap((b) => b.evidence ?? []);
      repos.push(scoreRepo({ repo, files, evidence }));
    }
  } finally {
    await server?.close();
  }
  const byAgent: Record<string, number> = {};
  for (const s of corpus.sessions) byAgent[s.agent] = (byAgent[s.agent] ?? 0) + 1;
  return {
    learner: options.learner,
    seed,
    repos,
    totals: totalsOf(repos),
    accepted,
    proposed,
    warnings,
    reduce,
    contextTokens,
    corpus: { repos: repoSpecs.length, sessions: imported.sessions, byAgent },
  };
}
