import type { Proposal } from '../../assets/proposal';
import { DEFAULT_PLAYBOOK_PATH } from '../../assets/playbookAsset';
import { resolveAssetSettings, targetsOfFiles, type AssetSettings, type AssetTarget } from '../../assets/targets';

export type ProposalAssets = NonNullable<Proposal['assets']>;

/** What a proposal keeps of the settings it was rendered with. */
export function keptAssets(settings: Partial<AssetSettings> & { playbookPath: string }): ProposalAssets {
  const resolved = resolveAssetSettings(settings);
  return {
    targets: resolved.targets,
    playbookPath: settings.playbookPath,
    budgetTokens: resolved.budgetTokens,
    skillRoots: resolved.skillRoots,
    skillMinSessions: resolved.skillMinSessions,
    ...(resolved.agents ? { agents: resolved.agents } : {}),
    agentBudgetTokens: resolved.agentBudgetTokens,
  };
}

/**
 * The settings any part of a proposal is rendered with: the ones it was made with. A proposal made before they were
 * kept falls back to its targets, the front end's settings, then what its files show.
 */
export function proposalAssets(
  proposal: Proposal,
  fallback: Partial<AssetSettings> = {},
): Partial<AssetSettings> & { playbookPath: string } {
  const kept = proposal.assets;
  if (kept)
    return resolveAssetSettings({
      targets: kept.targets as AssetTarget[],
      playbookPath: kept.playbookPath,
      budgetTokens: kept.budgetTokens,
      skillRoots: kept.skillRoots,
      skillMinSessions: kept.skillMinSessions,
      agents: kept.agents,
      agentBudgetTokens: kept.agentBudgetTokens,
    });
  const playbookPath =
    fallback.playbookPath ?? proposal.files.find((f) => f.path.endsWith('playbook.md'))?.path ?? DEFAULT_PLAYBOOK_PATH;
  const targets =
    (proposal.targets as AssetTarget[] | undefined) ??
    fallback.targets ??
    targetsOfFiles(
      proposal.files.map((f) => f.path),
      playbookPath,
    );
  return { ...fallback, targets, playbookPath };
}
