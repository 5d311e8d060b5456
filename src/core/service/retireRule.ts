import { PROPOSAL_VERSION, type Proposal } from '../assets/proposal';
import { resolveAssetSettings, type AssetSettings } from '../assets/targets';
import { parsePlaybook } from '../playbook/markdown';
import { findBullet } from '../playbook/model';
import { sha256 } from '../util/hash';
import { readWorkspaceFile, renderOps } from './proposalFiles';

export interface RetireInput {
  workspace: string;
  ruleId: string;
  /** Why, in the user's words or the view's (kept in the proposal's operation). */
  reason: string;
  assets: Partial<AssetSettings> & { playbookPath: string };
  /** When the user asked (the proposal's date; nothing learned depends on it). */
  now: Date;
  warn: (message: string) => void;
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
    [],
    [],
    input.assets,
    input.warn,
  );
  if (render.files.length === 0) return undefined;
  // the same rule retired from the same playbook is the same proposal
  const id = `retire-${sha256(`${input.ruleId}\n${text}`).slice(0, 12)}`;
  return {
    version: PROPOSAL_VERSION,
    id,
    createdAt: input.now.toISOString(),
    workspace: input.workspace,
    runId: id,
    provider: 'you',
    model: `retire ${input.ruleId}`,
    costUsd: 0,
    status: 'pending',
    files: render.files,
    rules: render.rules.map(({ scope: _scope, kind: _kind, ...rule }) => ({
      ...rule,
      content: rule.content ?? found.bullet.content,
      flags: [],
    })),
    ops: render.ops,
    tags: [],
    heldRules: render.held,
    targets: resolveAssetSettings(input.assets).targets,
    reviewed: { files: [], rules: [] },
  };
}
