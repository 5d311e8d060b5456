import type { AllowedSigners } from '../team/allowedSigners';
import type { ImportBundleResult } from '../team/importBundle';

/** A team bundle to import in a worker: the decompressing and redacting stay off the extension host's thread. */
export interface BundleTask {
  storeDir: string;
  path: string;
  workspace: string;
  /** The user's allowed signers, parsed (plain data crosses to the worker). */
  allowedSigners?: AllowedSigners;
}

/** The import's counts, or the refusal's message (a BundleError does not keep its class across threads). */
export type BundleTaskResult = { result: ImportBundleResult } | { refused: string };
