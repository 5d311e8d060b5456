import { describeContextCost } from '../../core/assets/contextCost';
import { describeEnforced } from '../../core/service/learnRun/proposeEnforcement';
import { readWorkspaceFile } from '../../core/service/proposalFiles';
import { describeConflict, openConflicts } from '../../core/service/review/teamConflicts';
import { countBatchModes } from '../../core/learn/record/batchMode';
import { describeDrops, dropSummary } from '../../core/learn/record/callItems';
import type { RunRecord } from '../../core/learn/record/record';
import type { ProviderInfo } from '../../core/learn/types';
import type { learnWorkspace } from '../../core/service/learnWorkspace';
import { shellQuote, type Output } from '../output';
import type { LearnPlace, RunLearnCommandLine } from './learnRequest';

export type LearnResult = Awaited<ReturnType<typeof learnWorkspace>>;
export interface AppliedProposal {
  written: string[];
  exitCode: number;
}

/** `--json`: one object with the proposal, the run and what was applied. */
export function reportLearnJson(
  request: RunLearnCommandLine,
  result: LearnResult,
  info: ProviderInfo,
  applied: AppliedProposal | undefined,
  out: Output,
): number {
  const record = result.record;
  out.result(
    JSON.stringify(
      {
        sessions: result.traces.length,
        provider: info.provider,
        model: info.model,
        dryRun: request.dryRun,
        ...(result.superseded ? { superseded: result.superseded } : {}),
        ...(result.stillPending ? { stillPending: result.stillPending } : {}),
        proposal: result.proposal
          ? {
              id: result.proposal.id,
              files: result.proposal.files.map((f) => ({ path: f.path, kind: f.kind, diff: f.diff })),
              rules: result.proposal.rules,
              heldRules: result.proposal.heldRules,
              targets: result.proposal.targets,
              targetReasons: result.proposal.targetReasons,
              ...(result.proposal.contextCost ? { contextCost: result.proposal.contextCost } : {}),
              teamConflicts: openConflicts(result.proposal, (rel) => readWorkspaceFile(request.workspace, rel)),
              ...(result.proposal.enforcements ? { enforcements: result.proposal.enforcements } : {}),
              ...(result.proposal.enforced ? { enforced: result.proposal.enforced } : {}),
            }
          : null,
        run: record
          ? {
              id: record.id,
              status: record.status,
              strategy: record.strategy,
              seed: record.seed,
              batches: record.batches.length,
              batchModes: record.batches.map((b) => b.mode),
              totals: record.totals,
            }
          : null,
        leftOutByGates: result.gatedOut ?? [],
        failedSessions: result.failedTraces ?? [],
        givenUpSessions: result.givenUp,
        outsideWindow: result.outsideWindow,
        windowDays: request.windowDays,
        warnings: record?.warnings.length ?? 0,
        warningMessages: record?.warnings ?? [],
        applied: applied ? { written: applied.written, exitCode: applied.exitCode } : null,
      },
      null,
      2,
    ),
  );
  return record?.status === 'failed' ? 1 : (applied?.exitCode ?? 0);
}

/** The terminal report: warnings, then the diffs and a summary, or why there is nothing to show. */
export function reportLearnText(
  request: RunLearnCommandLine,
  result: LearnResult,
  info: ProviderInfo,
  applied: AppliedProposal | undefined,
  out: Output,
): number {
  const { record, proposal } = result;
  const { workspace } = request;
  for (const warning of record?.warnings ?? []) out.warn(warning);
  if (record?.status === 'failed') {
    out.warn(
      `learning failed: ${result.failedTraces?.length ?? 0} of ${result.traces.length} session(s) could not be learned (see the warnings above); they are not marked learned, so the next run tries them again${info.provider === 'openai' ? '. Check OPENAI_API_KEY and --base-url' : ''}.`,
    );
    return 1;
  }
  if (result.traces.length === 0) {
    out.result(
      result.outsideWindow > 0
        ? `No new sessions for ${workspace} within ${request.windowDays} days of its newest one: ${result.outsideWindow} older session(s) are left out. Learn from them with --window-days 0.`
        : `No new sessions for ${workspace}. Import some with \`combee import --from <folder>\`${request.allWorkspaces ? '' : ', or pass --all-workspaces'}.`,
    );
    return 0;
  }
  if (!proposal) {
    out.result(
      `Learned from ${result.traces.length - (result.failedTraces?.length ?? 0)} of ${result.traces.length} session(s): nothing new for the playbook.${result.stillPending ? ` Proposal ${result.stillPending} still waits for review.` : ''}`,
    );
    return 0;
  }
  for (const file of proposal.files) out.result(file.diff);
  const totals = record!.totals;
  out.result(
    [
      `Learned from ${result.traces.length} session(s) with ${info.provider} (${info.model}), strategy ${record!.strategy} (${countBatchModes(record!.batches)}), seed ${record!.seed}:`,
      `  ${totals.reflections} reflections, ${totals.lessons} lessons, ${totals.calls} calls, ${totals.applied} rule change(s) proposed, ${totals.skipped} left out (already known, rejected before, not yet seen in enough sessions, or as a warning above says).`,
      ...(result.superseded?.length ? [`  ${supersededLine(proposal, result.superseded, request.dryRun)}`] : []),
      ...(proposal.targetReasons?.length ? [`  Rendered for ${proposal.targetReasons.join('; ')}.`] : []),
      ...(proposal.contextCost?.length ? [`  Context cost: ${describeContextCost(proposal.contextCost)}.`] : []),
      ...(proposal.enforcements ?? []).map((e) => `  Enforcement: ${e.explanation}.`),
      ...(proposal.enforced ?? []).map(
        (e) => `  Enforced by the hook files: rule ${e.ruleId}: ${describeEnforced(e)}.`,
      ),
      ...dropsSummary(record!),
      ...(result.failedTraces?.length
        ? [
            `  ${result.failedTraces.length} session(s) could not be learned this time (see the warnings); the next run tries them again.`,
          ]
        : []),
      request.dryRun
        ? '  Dry run: nothing was written.'
        : applied
          ? `  Proposal ${proposal.id} applied: ${applied.written.length} file(s) written.`
          : `  Proposal ${proposal.id} saved. Review it in VS Code, or apply it with: ${followUp('accept', proposal.id, request)}`,
      ...flaggedSummary(proposal),
      ...conflictSummary(proposal, workspace),
    ].join('\n'),
  );
  return applied?.exitCode ?? 0;
}

/** A follow-up command that works when pasted: it carries the store and playbook this run was given. */
function followUp(command: string, id: string, place: LearnPlace): string {
  const args = ['combee', command, id, '--workspace', place.workspace];
  if (place.storeDir !== undefined) args.push('--store', place.storeDir);
  if (place.playbookFlag !== undefined) args.push('--playbook', place.playbookFlag);
  return args.map(shellQuote).join(' ');
}

/** One line on what the aggregation calls dropped, when they did (`combee tree` says which). */
function dropsSummary(record: RunRecord): string[] {
  const drops = describeDrops(dropSummary(record.nodes));
  return drops ? [`  ${drops}; \`combee tree\` shows which.`] : [];
}

/** One line on the flagged rules, when there are any (the warnings above give each one's reasons). */
/** One proposal waits at a time: the one this run replaces is named, with what it carries over. */
function supersededLine(
  proposal: NonNullable<LearnResult['proposal']>,
  superseded: string[],
  dryRun?: boolean,
): string {
  const which = superseded.length === 1 ? `proposal ${superseded[0]}` : `proposals ${superseded.join(', ')}`;
  return `${dryRun ? 'Would supersede' : 'Supersedes'} ${which}: its undecided rules are in this one, under the same ids (${proposal.rules.length} rule(s) to review in all); decide on this one.`;
}

/** Every open conflict with the team's own text: a rule that would overrule a line, a lesson a line kept out. */
function conflictSummary(proposal: NonNullable<LearnResult['proposal']>, workspace: string): string[] {
  const open = openConflicts(proposal, (rel) => readWorkspaceFile(workspace, rel));
  if (open.length === 0) return [];
  return [
    `  ${open.length} conflict(s) with your team's own text (a review comment on each line in VS Code):`,
    ...open.map((c) => `    ${describeConflict(c)}.`),
  ];
}

function flaggedSummary(proposal: NonNullable<LearnResult['proposal']>): string[] {
  const flagged = proposal.rules.filter((r) => r.flags.length > 0).map((r) => r.id);
  // a held rule whose retirement is offered is decided on that change
  const isRetiring = (id: string) => proposal.rules.some((r) => r.op === 'REMOVE' && r.id === id);
  const held = proposal.heldRules.map((h) => h.id).filter((id) => !isRetiring(id));
  const retiring = proposal.heldRules.map((h) => h.id).filter(isRetiring);
  return [
    ...(flagged.length + held.length > 0
      ? [
          `  Flagged, kept out of AGENTS.md and the other files until accepted by name (--rule <id>): ${[...flagged, ...held.map((id) => `${id} (already in the playbook)`)].join(', ')}.`,
        ]
      : []),
    ...(retiring.length > 0
      ? [
          `  Flagged in the playbook, kept out of AGENTS.md and the other files, offered for retirement (accept to take out, reject --rule <id> to keep): ${retiring.join(', ')}.`,
        ]
      : []),
  ];
}
