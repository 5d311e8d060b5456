import type { Proposal } from '../../assets/proposal';
import { resolveAssetSettings, type AssetSettings } from '../../assets/targets';
import { parsePlaybook } from '../../playbook/markdown';
import { findBullet } from '../../playbook/model';
import type { LocalCounts } from '../../learn/rules/confirmedCounters';
import { readWorkspaceFile, renderOps } from '../proposalFiles';
import { userProposal } from './userProposal';
import { keptAssets } from '../review/assets';

export interface RetireInput {
  workspace: string;
  ruleId: string;
  /** Why, in the user's words or the view's (kept in the proposal's operation). */
  reason: string;
  assets: Partial<AssetSettings> & { playbookPath: string };
  /** When the user asked (the proposal's date; nothing learned depends on it). */
  now: Date;
  warn: (message: string) => void;
  /** This machine's counts (localRuleCounts): a full rules block keeps what they confirm; none without. */
  local?: LocalCounts;
}

/**
 * Retiring a rule is a proposal like any other: its removal from the playbook and from every asset rendered from it,
 * as diffs to review. `undefined` when the playbook holds no such rule.
 */
export function retireProposal(input: RetireInput): Proposal | undefined {
  const text = readWorkspaceFile(input.workspace, input.assets.playbookPath);
  if (text === undefined) return undefined;
  const found = findBullet(parsePlaybook(text), input.ruleId);
  if (!found) return undefined;
  const render = renderOps(
    input.workspace,
    [{ op: 'REMOVE', id: input.ruleId, reason: input.reason, support: [] }],
    { tags: [] },
    [],
    input.assets,
    input.warn,
    { flags: new Map(), accepted: new Set(), mark: false, ...(input.local ? { local: input.local } : {}) },
  );
  if (render.files.length === 0) return undefined;
  return userProposal('retire', input.ruleId, text, input.workspace, input.now, {
    files: render.files,
    rules: render.rules.map(({ scope: _scope, kind: _kind, ...rule }) => ({
      ...rule,
      content: rule.content ?? found.bullet.content,
      flags: [],
    })),
    ops: render.ops,
    heldRules: render.held,
    targets: resolveAssetSettings(input.assets).targets,
    assets: keptAssets(input.assets),
  });
}
