import { loadRedactionPatterns } from '../../core/store/redactionPatterns';
import { UsageError } from '../args';
import type { Output } from '../output';

/**
 * The user's redaction patterns: those the extension recorded in the store (`combee.redaction.extraPatterns`), then
 * each `--redact-pattern`. An empty one is a usage error; a damaged record is a warning.
 */
export async function redactionPatterns(
  storeDir: string,
  flags: readonly string[] | undefined,
  out: Pick<Output, 'warn'>,
): Promise<string[]> {
  if (flags?.some((p) => p === '')) throw new UsageError('--redact-pattern needs a pattern');
  const recorded = await loadRedactionPatterns(storeDir);
  if (recorded.warning) out.warn(recorded.warning);
  return [...new Set([...recorded.patterns, ...(flags ?? [])])];
}
