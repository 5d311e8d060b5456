import { isOpen } from '../../core/assets/review';
import type { BacktestReport } from '../../core/eval/backtest';
import type { BacktestNames } from '../../core/eval/render';
import { sameRule } from '../../core/eval/replay';
import { parsePlaybook } from '../../core/playbook/markdown';
import { bullets } from '../../core/playbook/model';
import { readWorkspacePlaybook } from '../playbookFile';
import type { Services } from '../services';

// The backtest learns the earlier sessions again and numbers its rules its own way: the page names each rule by the
// id the reader reviews it under (an open proposal's, else the playbook's) and each session by its title.

interface KnownRule {
  id: string;
  content?: string;
  key?: string;
}

/** The rules the reader knows in this folder: its open proposals' (added or reworded), then its playbook's. */
async function knownRules(services: Services, workspace: string): Promise<KnownRule[]> {
  const known: KnownRule[] = [];
  for (const proposal of (await services.proposals.list(workspace)).filter(isOpen))
    for (const rule of proposal.rules)
      if (rule.op !== 'REMOVE' && rule.content !== undefined)
        known.push({
          id: rule.id,
          content: rule.content,
          key: proposal.ops.find((o) => o.ruleId === rule.id)?.op.key,
        });
  const playbook = await readWorkspacePlaybook(workspace);
  if (playbook) for (const bullet of bullets(parsePlaybook(playbook.text))) known.push(bullet);
  return known;
}

export async function backtestNames(services: Services, report: BacktestReport): Promise<BacktestNames> {
  const known = await knownRules(services, report.workspace);
  const titles = new Map((await services.store.listSummaries()).map((s) => [s.id, s.title]));
  return {
    ruleId: (rule) => known.find((k) => sameRule(rule, k))?.id,
    sessionTitle: (id) => titles.get(id),
  };
}
