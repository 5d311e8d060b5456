// Worker-thread entry (bundled as dist/combee-worker.js): CPU-bound tasks the pool runs off the main thread.
import { importFile, type FileImportResult, type ReadLimits } from '../trace/importer';
import type { RedactionOptions } from '../trace/redact';
import type { SessionFile } from '../trace/sources/types';

export interface ImportFileTask {
  file: SessionFile;
  limits: ReadLimits;
  redaction: RedactionOptions;
}

export async function importFileTask(task: ImportFileTask): Promise<FileImportResult> {
  return importFile(task.file, task.limits, task.redaction);
}
