import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_PLAYBOOK_PATH } from '../../core/assets/playbookAsset';
import { describeClaim } from '../../core/learn/confirmedCounters';
import { playbookRules, type PlaybookRule } from '../../core/service/playbookRules';
import { TraceStore, defaultStoreDir } from '../../core/store/traceStore';
import { WorkspaceState } from '../../core/store/workspaceState';
import { resolveInWorkspace } from '../../core/trust/workspacePath';
import { readTextIfExists } from '../../core/util/io';
import { STALE_AFTER_RUNS } from '../../core/learn/ruleStanding';
import { parse, UsageError, workspacePathFlag } from '../args';
import type { Output } from '../output';

function claimNote(rule: PlaybookRule): string {
  const claim = describeClaim(rule.standing.counters);
  return claim ? `\n    counters ${claim}` : '';
}

/**
 * `combee rules`: the playbook's rules with the same counts, stage and flags as the Rules view and the panel; the
 * counts are those this machine confirms, with what the file claims beyond them.
 */
export async function rulesCommand(argv: string[], out: Output): Promise<number> {
  const { values } = parse(argv, {
    workspace: { type: 'string' },
    store: { type: 'string' },
    playbook: { type: 'string' },
    json: { type: 'boolean' },
    'stale-after': { type: 'string' },
  });
  // as the extension's combee.playbook.staleAfterRuns: runs without a session that had the rule in play
  const staleAfter = values['stale-after'] === undefined ? STALE_AFTER_RUNS : Number(values['stale-after']);
  if (!Number.isInteger(staleAfter) || staleAfter < 1) throw new UsageError('--stale-after takes a whole number ≥ 1');
  const workspace = resolve(typeof values.workspace === 'string' ? values.workspace : process.cwd());
  const playbookPath = workspacePathFlag('playbook', workspace, values.playbook) ?? DEFAULT_PLAYBOOK_PATH;
  // a folder not on this machine (known only from a team's sessions) has no playbook here either
  const text = existsSync(workspace) ? await readTextIfExists(resolveInWorkspace(workspace, playbookPath)) : undefined;
  if (text === undefined) {
    // no playbook yet is a state, not an error: a script reading --json gets null, as from `combee tree`
    const note = `no playbook at ${playbookPath} in ${workspace} yet (combee learn proposes one)`;
    if (values.json) {
      out.result('null');
      out.info(note);
    } else out.result(note);
    return 0;
  }
  const store = new TraceStore(typeof values.store === 'string' ? resolve(values.store) : defaultStoreDir());
  const { rules, runs } = await playbookRules(new WorkspaceState(store.dir), workspace, text, staleAfter);
  if (values.json) {
    out.result(
      JSON.stringify(
        {
          playbook: playbookPath,
          runs,
          rules: rules.map((r) => ({
            id: r.id,
            section: r.section,
            content: r.content,
            helpful: r.helpful,
            harmful: r.harmful,
            claimed: r.claimed,
            stage: r.standing.stage,
            chips: r.standing.chips,
            runsWithoutEvidence: r.standing.runsWithoutEvidence,
            violations: r.standing.violations,
            trend: r.standing.history,
            flags: r.flags,
            pinned: r.pinned,
          })),
        },
        null,
        2,
      ),
    );
    return 0;
  }
  const lines = [`${rules.length} rule(s) in ${playbookPath}, ${runs} run(s) recorded`];
  for (const r of rules)
    lines.push(
      `[${r.id}] +${r.helpful} −${r.harmful} ${r.standing.chips.join(', ')} · ${r.section}: ${r.content}${claimNote(r)}${r.flags.map((f) => `\n    flagged ${f.kind}: ${f.reason}`).join('')}`,
    );
  out.result(lines.join('\n'));
  return 0;
}
