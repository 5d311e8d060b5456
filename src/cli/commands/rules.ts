import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_PLAYBOOK_PATH } from '../../core/assets/playbookAsset';
import { describeClaim } from '../../core/learn/rules/confirmedCounters';
import { playbookRules, type PlaybookRule } from '../../core/service/playbookRules';
import { TraceStore } from '../../core/store/traceStore';
import { WorkspaceState } from '../../core/store/workspaceState';
import { resolveInWorkspace } from '../../core/trust/workspacePath';
import { readTextIfExists } from '../../core/util/io';
import { STALE_AFTER_RUNS } from '../../core/learn/rules/ruleStanding';
import { modelLabel } from '../../core/playbook/authorMark';
import { STAGES, stagesByModel, type ModelStages } from '../../shared/stagesByModel';
import { parse, UsageError, workspacePathFlag } from '../args';
import type { Output } from '../output';
import { storeDirFor } from '../store';

/** Which model wrote the rule, when its model mark says (nothing for a rule without one). */
function authorNote(rule: PlaybookRule): string {
  const { written, changed } = rule.authorship;
  const said = (a: typeof written) => `${modelLabel(a)} (prompt ${a.promptVersion})`;
  if (modelLabel(written) === 'unknown' && !changed) return '';
  return `\n    written by ${said(written)}${changed ? `, last changed by ${said(changed)}` : ''}`;
}

function claimNote(rule: PlaybookRule): string {
  const claim = describeClaim(rule.standing.counters);
  return claim ? `\n    counters ${claim}` : '';
}

/** Rules per model and stage, as a plain-text table (the model that first wrote each rule). */
function modelTable(rows: readonly ModelStages[]): string {
  const head = ['model', ...STAGES, 'total'];
  const body = rows.map((r) => [r.model, ...STAGES.map((s) => String(r.counts[s])), String(r.total)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), ...body.map(line)].join('\n');
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
    'by-model': { type: 'boolean' },
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
  const store = new TraceStore(storeDirFor(values.store, out));
  const { rules, runs } = await playbookRules(new WorkspaceState(store.dir), workspace, text, staleAfter);
  if (values['by-model']) {
    const rows = stagesByModel(
      rules.map((r) => ({ model: modelLabel(r.authorship.written), stage: r.standing.stage })),
    );
    out.result(
      values.json ? JSON.stringify({ playbook: playbookPath, runs, models: rows }, null, 2) : modelTable(rows),
    );
    return 0;
  }
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
            provider: r.authorship.written.provider,
            model: r.authorship.written.model,
            promptVersion: r.authorship.written.promptVersion,
            ...(r.authorship.changed ? { lastChangedBy: r.authorship.changed } : {}),
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
      `[${r.id}] +${r.helpful} −${r.harmful} ${r.standing.chips.join(', ')} · ${r.section}: ${r.content}${claimNote(r)}${authorNote(r)}${r.flags.map((f) => `\n    flagged ${f.kind}: ${f.reason}`).join('')}`,
    );
  out.result(lines.join('\n'));
  return 0;
}
