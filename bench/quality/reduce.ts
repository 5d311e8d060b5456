import { indexReflectionSets, ReflectionSet } from '../../src/core/learn/reflectionSet';
import type { Roles } from '../../src/core/llm/providers';
import type { LearnWorkspaceOptions } from '../../src/core/service/learnWorkspace';
import { groundingGap } from '../../src/core/service/learnRun/lessonGrounding';
import type { TraceStore } from '../../src/core/store/traceStore';
import { dryLearn } from '../../testing/dryLearn';

// One repository learned as CI shards learn it: the map phase's reflections written out and read back as a file, then
// a reduce from them. Honest reflections must come through the reduce's check of each lesson against the steps it
// cites, and the reduce must propose what the live run proposes.

export interface ReduceFigures {
  /** Lessons in the map phase's reflections. */
  lessons: number;
  /** Those the reduce doubted (honest input: each one a false alarm), with why. */
  doubted: string[];
  /** The reduce's proposal (files and rule changes) is the live run's, byte for byte. */
  sameProposal: boolean;
}

type Proposed = Awaited<ReturnType<typeof dryLearn>>['proposal'];

const shape = (p: Proposed) => JSON.stringify({ files: p?.files ?? [], rules: p?.rules ?? [] });

/** Run before the live run's accept changes the workspace: `live` is that run's proposal, made on the same files. */
export async function reduceFigures(
  store: TraceStore,
  workspace: string,
  roles: Roles,
  options: Partial<LearnWorkspaceOptions>,
  live: Proposed,
): Promise<ReduceFigures> {
  const map = await dryLearn(store, workspace, roles, { ...options, mapOnly: {} });
  if (!map.reflections) return { lessons: 0, doubted: [], sameProposal: live === undefined };
  const set = ReflectionSet.parse(JSON.parse(JSON.stringify(map.reflections)));
  const entries = indexReflectionSets([set], map.traces, roles.info, () => undefined, groundingGap);
  const reduce = await dryLearn(store, workspace, roles, {
    ...options,
    precomputed: [set],
    precomputedFromFiles: true,
  });
  return {
    lessons: [...entries.values()].reduce((n, e) => n + e.result.value.lessons.length, 0),
    doubted: [...entries.values()].flatMap((e) => e.unverified.map((u) => `${u.content} (${u.reason})`)),
    sameProposal: shape(reduce.proposal) === shape(live),
  };
}
