import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_READ_LIMITS } from '../../src/core/import/limits';
import { importSessions } from '../../src/core/import/importer';
import { TraceStore } from '../../src/core/store/traceStore';
import type { FuzzSample } from './fuzzSamples';
import { FUZZ_MAX_LINE_BYTES } from './mutations';
import { tempDir } from '../../testing/tmp';

const LIMITS = { ...DEFAULT_READ_LIMITS, maxLineBytes: FUZZ_MAX_LINE_BYTES };

export interface SampleImport {
  sessions: number;
  /** The warnings naming the sample's file (or a file beside it, its `-wal`). */
  messages: string[];
  /** The reasons the sample's file was counted under in `skipped`, when it was not imported. */
  skipped: string[];
}

/**
 * Imports one sample (mutated or not) alone, through the real importer, in its own home and store; `beside` adds
 * files next to the sample's (by suffix: `-wal`), in place of a companion of that name.
 */
export async function importSample(
  sample: FuzzSample,
  content: Buffer,
  beside: Record<string, Buffer> = {},
): Promise<SampleImport> {
  const home = tempDir('combee-fuzz-');
  const write = (rel: string, bytes: Buffer) => {
    mkdirSync(dirname(join(home, rel)), { recursive: true });
    writeFileSync(join(home, rel), bytes);
  };
  for (const [rel, bytes] of Object.entries(sample.companions)) write(rel, bytes);
  for (const [suffix, bytes] of Object.entries(beside)) write(`${sample.target}${suffix}`, bytes);
  write(sample.target, content);
  const summary = await importSessions({
    from: home,
    store: new TraceStore(join(home, '.combee-store')),
    limits: LIMITS,
    concurrency: 1,
  });
  const path = join(home, sample.target);
  const skipped = Object.entries(summary.skippedSamples)
    .filter(([, paths]) => paths?.includes(path))
    .map(([reason]) => reason);
  return { sessions: summary.sessions, messages: summary.warningMessages.filter((m) => m.startsWith(path)), skipped };
}
