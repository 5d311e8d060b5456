import { join } from 'node:path';
import { importSessions } from '../../src/core/import/importer';
import { offlineRoles, openAiRoles } from '../../src/core/llm/providers';
import { TraceStore } from '../../src/core/store/traceStore';
import { dryLearn } from '../../testing/dryLearn';
import { startModelServer } from '../../testing/modelServer';
import { realCorpus } from '../../testing/realSessions';
import { tempDir } from '../../testing/tmp';
import { createWorkspaceMatcher } from '../../src/core/trace/workspaceMatch';
import { faithfulWorkspace } from './faithfulWorkspace';
import { lessonsBySession, realScriptedModel, type RealModelStyle } from './models';
import { scoreCorpus, type ProposedRule, type RealFigures } from './score';
import { sessionKeys } from './sessionKeys';
import type { CorpusLabels, CorpusVerdicts } from './types';

// One learner over one real corpus, read in place: import it into a fresh store, learn it as a dry run with a fixed
// seed and every session in the window, and grade the proposal. The workspace is a temporary folder holding the
// repository's instruction files as the sessions read them in full (faithfulWorkspace.ts), as a user's checkout
// would hold them; the sessions keep the folder they recorded (the original machine's, which does not exist here).
// They are learned with `allWorkspaces`: rewriting their `cwd` would change what the gates read (a path under the
// sessions' home folder is one machine's), and the miner reads each command's folder against its session's `cwd`.

export type RealLearner = 'offline' | RealModelStyle;
export const REAL_LEARNERS: readonly RealLearner[] = ['offline', 'careful', 'sloppy'];

export interface RealRun {
  learner: RealLearner;
  corpus: string;
  sessions: number;
  workspace: string;
  /** The instruction files the workspace holds, repository-relative. */
  workspaceFiles: string[];
  figures: RealFigures;
  warnings: string[];
}

/** The folder most of the corpus's sessions ran in: the workspace a user of that repository would learn. */
function mainFolder(traces: ReadonlyArray<{ cwd?: string }>): string | undefined {
  const counts = new Map<string, number>();
  for (const t of traces) if (t.cwd) counts.set(t.cwd, (counts.get(t.cwd) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
}

export async function runRealCorpus(input: {
  learner: RealLearner;
  labels: CorpusLabels;
  verdicts: CorpusVerdicts;
  seed?: number;
}): Promise<RealRun | undefined> {
  const folder = realCorpus(input.labels.corpus);
  if (!folder) return undefined;
  const store = new TraceStore(join(tempDir(`combee-real-${input.learner}-`), 'store'));
  const imported = await importSessions({ from: folder, store });
  const traces = await store.listTraces();
  const sessionsFolder = mainFolder(traces) ?? folder;
  const workspace = await faithfulWorkspace(folder, input.labels.corpus);
  // every session is learned: say so if some ran elsewhere than the corpus's main folder
  const inMain = createWorkspaceMatcher([sessionsFolder]);
  const elsewhere = traces.filter((t) => !inMain(t.cwd)).length;
  const keyed = traces.map((t) => ({ id: t.id, keys: sessionKeys(t) }));
  const server =
    input.learner === 'offline'
      ? undefined
      : await startModelServer({
          responder: realScriptedModel(input.learner, lessonsBySession(input.labels, keyed)),
        });
  const roles = server
    ? openAiRoles({ baseUrl: server.url, apiKey: 'not-needed', model: `${input.learner}-sim` })
    : offlineRoles();
  try {
    const result = await dryLearn(store, workspace.folder, roles, {
      seed: input.seed ?? 1,
      windowDays: 0,
      allWorkspaces: true,
    });
    const rules: ProposedRule[] = (result.proposal?.rules ?? [])
      .filter((r) => r.op !== 'REMOVE' && r.content)
      .map((r) => ({ id: r.id, op: r.op, content: r.content ?? '', flags: r.flags.map((f) => f.kind) }));
    const files = (result.proposal?.files ?? []).map((f) => ({ path: f.path, before: f.before, after: f.after }));
    return {
      learner: input.learner,
      corpus: input.labels.corpus,
      sessions: imported.sessions,
      workspace: sessionsFolder,
      workspaceFiles: workspace.files,
      figures: scoreCorpus({ labels: input.labels, verdicts: input.verdicts, rules, files }),
      warnings: [
        ...imported.warningMessages,
        ...(elsewhere > 0 ? [`${elsewhere} sessions ran outside ${sessionsFolder} and are learned too`] : []),
        ...(result.record?.warnings ?? []),
      ],
    };
  } finally {
    await server?.close();
  }
}
