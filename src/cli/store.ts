import { chooseStore, describeStoreChoice } from '../core/store/storeLocation';
import type { Output } from './output';

/** The store a command uses (`--store`, else the one the extension shares, else the CLI's own), said on stderr. */
export function storeDirFor(flag: unknown, out: Output): string {
  const choice = chooseStore(typeof flag === 'string' ? flag : undefined);
  const line = describeStoreChoice(choice);
  if (line) out.info(line);
  return choice.dir;
}
