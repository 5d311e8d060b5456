import { resolve } from 'node:path';
import { DEFAULT_PLAYBOOK_PATH } from '../../core/assets/playbookAsset';
import type { Proposal } from '../../core/assets/proposal';
import { ASSET_TARGETS, type AssetTarget } from '../../core/assets/targets';
import { pinProposal } from '../../core/service/ruleChanges/pinRule';
import { retireProposal } from '../../core/service/ruleChanges/retireRule';
import { ProposalStore } from '../../core/store/proposals';
import { TraceStore } from '../../core/store/traceStore';
import { WorkspaceState } from '../../core/store/workspaceState';
import { parse, UsageError, workspacePathFlag } from '../args';
import { shellQuote, type Output } from '../output';
import { storeDirFor } from '../store';

// `combee retire`, `pin` and `unpin`: the panel's Retire… and Pin… as proposals to review, the same diffs, written
// only by `combee accept`.

const OPTIONS = {
  workspace: { type: 'string' },
  store: { type: 'string' },
  playbook: { type: 'string' },
  targets: { type: 'string' },
  reason: { type: 'string' },
  json: { type: 'boolean' },
} as const;

type Action = 'retire' | 'pin' | 'unpin';

async function propose(action: Action, argv: string[], out: Output): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS);
  const ruleId = positionals[0];
  if (!ruleId) throw new UsageError('a rule id is required');
  const workspace = resolve(typeof values.workspace === 'string' ? values.workspace : process.cwd());
  const playbookPath = workspacePathFlag('playbook', workspace, values.playbook) ?? DEFAULT_PLAYBOOK_PATH;
  const targets = typeof values.targets === 'string' ? values.targets.split(',').map((t) => t.trim()) : undefined;
  const unknown = targets?.find((t) => !(ASSET_TARGETS as readonly string[]).includes(t));
  if (unknown) throw new UsageError(`--targets: unknown target ${unknown} (known: ${ASSET_TARGETS.join(', ')})`);
  const now = new Date();
  const proposal: Proposal | undefined =
    action === 'retire'
      ? retireProposal({
          workspace,
          ruleId,
          reason:
            typeof values.reason === 'string' && values.reason.trim() ? values.reason.trim() : 'retired by the user',
          assets: { playbookPath, ...(targets ? { targets: targets as AssetTarget[] } : {}) },
          now,
          warn: (m) => out.warn(m),
        })
      : pinProposal({ workspace, ruleId, pinned: action === 'pin', playbookPath, now });
  if (!proposal) {
    out.warn(
      action === 'retire'
        ? `${playbookPath} holds no rule ${ruleId}`
        : `${playbookPath} holds no rule ${ruleId}, or it is already ${action === 'pin' ? 'pinned' : 'unpinned'}`,
    );
    return 1;
  }
  const storeDir = storeDirFor(values.store, out);
  await new ProposalStore(new WorkspaceState(new TraceStore(storeDir).dir)).save(proposal);
  const accept = ['combee', 'accept', proposal.id, '--workspace', workspace];
  if (typeof values.store === 'string') accept.push('--store', storeDir);
  if (values.json === true) {
    out.result(JSON.stringify({ proposal }, null, 2));
    return 0;
  }
  for (const file of proposal.files) out.result(file.diff);
  out.result(`Proposal ${proposal.id} saved. Write it with: ${accept.map(shellQuote).join(' ')}`);
  return 0;
}

export const retireCommand = (argv: string[], out: Output) => propose('retire', argv, out);
export const pinCommand = (argv: string[], out: Output) => propose('pin', argv, out);
export const unpinCommand = (argv: string[], out: Output) => propose('unpin', argv, out);
