import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { AGENTS } from '../../core/trace/model';
import { describeSkipped } from '../../core/trace/skipped';
import { DEFAULT_READ_LIMITS } from '../../core/import/limits';
import { importSessions } from '../../core/import/importer';
import { isBlockingIo, setBlockingIo } from '../../core/util/io';
import { TraceStore, defaultStoreDir } from '../../core/store/traceStore';
import { createWorkerPool } from '../../core/pool/pool';
import { integer, oneOf, parse, UsageError } from '../args';
import { progressOf, type Output } from '../output';

export async function importCommand(argv: string[], out: Output, signal?: AbortSignal): Promise<number> {
  const { values } = parse(argv, {
    from: { type: 'string' },
    agent: { type: 'string' },
    store: { type: 'string' },
    workers: { type: 'string' },
    'max-output-chars': { type: 'string' },
    json: { type: 'boolean' },
  });
  if (typeof values.from !== 'string') throw new UsageError('--from <folder> is required');
  const from = resolve(values.from);
  if (!existsSync(from)) throw new UsageError(`--from: no such file or folder: ${from}`);
  const agent = oneOf('agent', values.agent, ['auto', ...AGENTS] as const, 'auto');
  const workers = integer('workers', values.workers) ?? availableParallelism();
  const maxOutputChars = integer('max-output-chars', values['max-output-chars']) ?? DEFAULT_READ_LIMITS.maxOutputChars;
  if (maxOutputChars < 1000) throw new UsageError('--max-output-chars: at least 1000');
  const store = new TraceStore(typeof values.store === 'string' ? resolve(values.store) : defaultStoreDir());
  // Bundled CLI: parse in worker threads (started only when a file needs reading); from sources (tests) the
  // worker bundle is absent → in-process.
  const pool =
    workers > 0 && existsSync(join(__dirname, 'combee-worker.js')) ? createWorkerPool(__dirname, workers) : undefined;
  // This thread only lists files and hands them out: blocking calls are cheaper, and nothing else waits on it.
  const wasBlocking = isBlockingIo();
  setBlockingIo(true);
  const progress = values.json ? undefined : progressOf(out, 'importing');
  try {
    const summary = await importSessions({
      from,
      store,
      agent,
      limits: { ...DEFAULT_READ_LIMITS, maxOutputChars },
      signal,
      concurrency: pool ? pool.size * 2 : 2,
      runTask: pool ? (task) => pool.runImport(task, signal) : undefined,
      runBatch: pool ? (tasks) => pool.runImportBatch(tasks, signal) : undefined,
      onProgress: progress ? (done, total, path) => progress.update(done, total, basename(path)) : undefined,
    });
    progress?.stop();
    if (values.json) {
      const { warningMessages, traceIds, ...counts } = summary;
      out.result(JSON.stringify({ ...counts, store: store.dir, warningMessages }, null, 2));
      void traceIds;
    } else {
      for (const message of summary.warningMessages) out.warn(message);
      const agents =
        Object.entries(summary.byAgent)
          .map(([name, c]) => `${name}: ${c.sessions}`)
          .join(', ') || 'none';
      const resumed = summary.resumedFiles > 0 ? ` (${summary.resumedFiles} resumed where they stopped)` : '';
      out.result(
        `Imported ${summary.sessions} session(s) (${agents}) from ${summary.files - summary.unchangedFiles} file(s)${resumed}, ${summary.unchangedFiles} unchanged; ${summary.steps} steps, ${summary.toolCalls} tool calls, ${summary.toolErrors} tool errors; ${summary.redactions} secret(s) redacted; ${summary.warnings} warning(s). Store: ${store.dir}`,
      );
      const skipped = describeSkipped(summary);
      if (skipped) out.result(skipped);
    }
    return 0;
  } finally {
    progress?.stop();
    setBlockingIo(wasBlocking);
    await pool?.destroy();
  }
}
