import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { importSessions } from '../../src/core/import/importer';
import { DEFAULT_READ_LIMITS } from '../../src/core/import/limits';
import { TraceStore } from '../../src/core/store/traceStore';
import { tempDir } from '../../testing/tmp';
import { instructionFiles, isInstructionPath } from './instructionFiles';

// A workspace for one corpus that holds what the repository told its agents, as far as the sessions show it: each
// instruction file an agent read in full, at its repository-relative path, in a fresh temporary folder. The text is
// read from the corpus at run time and never kept in the project.

/** Long enough for any instruction file: the learner's own store keeps its usual, shorter outputs. */
const WHOLE_OUTPUT_CHARS = 1_000_000;

export interface FaithfulWorkspace {
  folder: string;
  /** Repository-relative paths written, sorted. */
  files: string[];
}

export async function faithfulWorkspace(corpusFolder: string, name: string): Promise<FaithfulWorkspace> {
  // a store of its own: outputs kept whole (redacted as usual), so a long file's read is not cut
  const store = new TraceStore(join(tempDir(`combee-real-files-${name}-`), 'store'));
  await importSessions({
    from: corpusFolder,
    store,
    limits: { ...DEFAULT_READ_LIMITS, maxOutputChars: WHOLE_OUTPUT_CHARS },
  });
  const traces = await store.loadTraces((await store.listSummaries()).map((s) => s.id));
  const folder = tempDir(`combee-real-workspace-${name}-`);
  const files = [...instructionFiles(traces)].sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [rel, text] of files) {
    if (!isInstructionPath(rel)) continue; // checked again where it is written: the path came from a session
    const path = join(folder, ...rel.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return { folder, files: files.map(([rel]) => rel) };
}
