import { resolve } from 'node:path';
import { applyFileChange, ConflictError } from '../../core/assets/applyChange';
import { ProposalStore } from '../../core/assets/proposalStore';
import { TraceStore, defaultStoreDir } from '../../core/trace/store';
import { parse, UsageError } from '../args';
import type { Output } from '../output';

export const ACCEPT_HELP = `combee accept <proposal-id> [--workspace <folder>] [--store <folder>]
  Writes every file of a pending proposal; a file changed since the proposal was made is reported, not overwritten.`;

export async function acceptCommand(argv: string[], out: Output): Promise<number> {
  const { values, positionals } = parse(argv, { workspace: { type: 'string' }, store: { type: 'string' } });
  const id = positionals[0];
  if (!id) throw new UsageError('a proposal id is required');
  const workspace = resolve(typeof values.workspace === 'string' ? values.workspace : process.cwd());
  const store = new TraceStore(typeof values.store === 'string' ? resolve(values.store) : defaultStoreDir());
  const proposals = new ProposalStore(store);
  const proposal = await proposals.load(workspace, id);
  if (!proposal) {
    out.warn(`no proposal ${id} for ${workspace}`);
    return 1;
  }
  let conflicts = 0;
  for (const file of proposal.files) {
    try {
      await applyFileChange(workspace, file);
      out.result(`wrote ${file.path}`);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      conflicts++;
      out.warn(error.message);
    }
  }
  await proposals.save({ ...proposal, status: conflicts === 0 ? 'accepted' : 'partial' });
  return conflicts === 0 ? 0 : 1;
}
