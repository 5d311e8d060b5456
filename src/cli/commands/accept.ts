import { resolve } from 'node:path';
import type { Proposal } from '../../core/assets/proposal';
import { pendingRules } from '../../core/assets/review';
import {
  planReview,
  unknownRuleNames,
  type ReviewAction,
  type ReviewDeps,
  type ReviewResult,
} from '../../core/service/review/decide';
import { fileWriter } from '../../core/service/review/fileWriter';
import { describeStatus, proposalStatus } from '../../core/service/review/status';
import { UndoStack } from '../../core/service/review/undo';
import { ProposalStore } from '../../core/store/proposals';
import { TraceStore } from '../../core/store/traceStore';
import { WorkspaceState } from '../../core/store/workspaceState';
import { describeFlags } from '../../core/trust/kinds';
import { parse, UsageError, workspacePathFlag } from '../args';
import type { Output } from '../output';
import { storeDirFor } from '../store';

// `combee accept` and `combee reject`: flags in, lines out. Every decision is the review service's.

const OPTIONS = {
  workspace: { type: 'string' },
  store: { type: 'string' },
  rule: { type: 'string', multiple: true },
  file: { type: 'string', multiple: true },
  playbook: { type: 'string' },
  'include-flagged': { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

type Decision = 'accepted' | 'rejected';

interface Command {
  workspace: string;
  deps: ReviewDeps;
  proposal: Proposal;
  actions: ReviewAction[];
  json: boolean;
}

async function command(argv: string[], decision: Decision, out: Output): Promise<Command | undefined> {
  const { values, positionals } = parse(argv, OPTIONS);
  const id = positionals[0];
  if (!id) throw new UsageError('a proposal id is required');
  const workspace = resolve(typeof values.workspace === 'string' ? values.workspace : process.cwd());
  const store = new TraceStore(storeDirFor(values.store, out));
  const proposals = new ProposalStore(new WorkspaceState(store.dir));
  const proposal = await proposals.load(workspace, id);
  if (!proposal) {
    out.warn(`no proposal ${id} for ${workspace}`);
    return undefined;
  }
  const rules = (values.rule as unknown as string[] | undefined) ?? [];
  const files = ((values.file as unknown as string[] | undefined) ?? []).map(
    (f) => workspacePathFlag('file', workspace, f) as string,
  );
  if (rules.length > 0 && files.length > 0) throw new UsageError('name rules (--rule) or files (--file), not both');
  const unknown = unknownRuleNames(proposal, rules);
  if (unknown.length > 0)
    throw new UsageError(
      `proposal ${id} has no rule ${unknown.join(', ')} (it has ${[...proposal.rules.map((r) => r.id), ...proposal.heldRules.map((h) => h.id)].join(', ') || 'none'})`,
    );
  const actions: ReviewAction[] =
    rules.length > 0
      ? [{ kind: decision === 'accepted' ? 'accept-rules' : 'reject-rules', ids: rules }]
      : files.length > 0
        ? files.map((path) => ({ kind: decision === 'accepted' ? 'accept-file' : 'reject-file', path }))
        : [
            decision === 'accepted'
              ? { kind: 'accept-all', includeFlagged: values['include-flagged'] === true }
              : { kind: 'reject-all' },
          ];
  return {
    workspace,
    deps: {
      store,
      proposals,
      writer: fileWriter(workspace),
      warn: (m) => out.warn(m),
      // only a proposal made before it kept its settings needs this
      fallbackAssets: { playbookPath: workspacePathFlag('playbook', workspace, values.playbook) },
    },
    proposal,
    actions,
    json: values.json === true,
  };
}

/** What one decision did, in lines: the files, the rules it took or turned down, what it left and why. */
function report(result: ReviewResult, out: Output): void {
  const { plan, outcome } = result;
  if (plan.refused) return out.warn(plan.refused);
  for (const held of plan.acceptingHeld)
    out.warn(`accepting flagged rule ${held.id} already in the playbook (${describeFlags(held.flags)})`);
  for (const rule of plan.accepting.filter((r) => r.flags.length > 0))
    out.warn(`accepting flagged rule ${rule.id} (${describeFlags(rule.flags)})`);
  for (const { reason } of [...outcome.conflicts, ...outcome.refused]) out.warn(`${reason}; it was not overwritten`);
  if (!result.decided) {
    out.warn('nothing written: the files of one decision are written together or not at all');
    return;
  }
  for (const path of outcome.written)
    out.result(outcome.rebased.includes(path) ? `wrote ${path} (re-based onto its newer content)` : `wrote ${path}`);
  for (const path of outcome.alreadyApplied) out.result(`${path} already has these changes`);
  if (plan.files.length === 0 && plan.action.kind.startsWith('accept')) out.result('nothing written');
  if (plan.accepting.length + plan.acceptingHeld.length > 0)
    out.result(`accepted rule(s) ${[...plan.accepting, ...plan.acceptingHeld].map((r) => r.id).join(', ')}`);
  for (const rule of plan.leftOutFlagged)
    out.warn(
      `left out flagged rule ${rule.id}: ${describeFlags(rule.flags)}. Accept it by name with --rule ${rule.id}, or all flagged rules with --include-flagged.`,
    );
  for (const { change, decision } of plan.filesDecided)
    if (decision === 'rejected') out.result(`dropped ${change.path}`);
  if (plan.rejecting.length > 0 || plan.action.kind === 'reject-all')
    out.result(`rejected ${plan.rejecting.length} rule change(s); they will not be proposed again`);
  for (const held of plan.rejectingHeld)
    out.result(`rejected rule ${held.id} already in the playbook: it stays out of AGENTS.md and the other files`);
}

/** Held rules already in the playbook are taken only by name: say so when they are not. */
function heldNotNamed(proposal: Proposal, actions: ReviewAction[], out: Output): void {
  const named = actions.flatMap((a) => (a.kind === 'accept-rules' ? a.ids : []));
  // a held rule whose retirement the proposal offers is decided with it
  const retiring = new Set(proposal.rules.filter((r) => r.op === 'REMOVE').map((r) => r.id));
  for (const held of proposal.heldRules.filter((h) => !named.includes(h.id) && !retiring.has(h.id)))
    out.warn(
      `rule ${held.id} already in the playbook is flagged (${describeFlags(held.flags)}); it stays out of AGENTS.md and the other files unless accepted by name (--rule ${held.id})`,
    );
}

/** Asked for what was decided so already (the proposal, every named rule or file, the same way): nothing to do. */
function decidedAlready(proposal: Proposal, actions: ReviewAction[], decision: Decision): boolean {
  const rule = (id: string) => proposal.reviewed.rules.some((r) => r.id === id && r.decision === decision);
  const file = (path: string) =>
    !proposal.files.some((f) => f.path === path) &&
    proposal.reviewed.files.some((f) => f.path === path && f.decision === decision);
  return actions.every((a) =>
    a.kind === 'accept-all' || a.kind === 'reject-all'
      ? proposal.status === decision
      : 'ids' in a
        ? a.ids.every(rule)
        : 'path' in a && file(a.path),
  );
}

async function run(argv: string[], decision: Decision, out: Output): Promise<number> {
  const cmd = await command(argv, decision, out);
  if (!cmd) return 1;
  // --json: the lines go to stderr, the proposal's state after the command to stdout
  const lines: Output = cmd.json ? { ...out, result: (text) => out.info(text) } : out;
  if (decidedAlready(cmd.proposal, cmd.actions, decision)) {
    const what = cmd.actions.flatMap((a) => ('ids' in a ? a.ids : 'path' in a ? [a.path] : []));
    lines.result(
      `${what.length > 0 ? `${what.join(', ')} of proposal` : 'proposal'} ${cmd.proposal.id}: already ${decision}`,
    );
    if (cmd.json) out.result(JSON.stringify({ ...jsonOf(cmd.proposal, decision, [], 0), already: true }, null, 2));
    return 0;
  }
  const stack = new UndoStack(cmd.deps.store.dir, cmd.workspace);
  if (decision === 'accepted') heldNotNamed(cmd.proposal, cmd.actions, lines);
  let proposal = cmd.proposal;
  let exitCode = 0;
  const results: ReviewResult[] = [];
  for (const action of cmd.actions) {
    const deps = { ...cmd.deps, warn: (m: string) => lines.warn(m) };
    // each decision goes on the workspace's undo stack, the one the extension walks back too
    const result = await stack.commit(deps, await planReview(deps, proposal, action));
    report(result, lines);
    results.push(result);
    proposal = result.proposal;
    if (!result.decided) exitCode = 1;
  }
  const status = proposalStatus(proposal);
  if (status.proposals > 0) lines.info(`proposal ${proposal.id}: ${describeStatus(status)}`);
  if (cmd.json) out.result(JSON.stringify(jsonOf(proposal, decision, results, exitCode), null, 2));
  return exitCode;
}

/** The proposal after the command: the files it wrote or dropped, the rules decided, those still pending. */
function jsonOf(proposal: Proposal, decision: Decision, results: ReviewResult[], exitCode: number) {
  const decided = results.filter((r) => r.decided);
  const files =
    decision === 'accepted'
      ? decided.flatMap((r) => [...r.outcome.written, ...r.outcome.alreadyApplied])
      : decided.flatMap((r) => r.plan.filesDecided.filter((d) => d.decision === 'rejected').map((d) => d.change.path));
  const status = proposalStatus(proposal);
  return {
    proposal: proposal.id,
    status: proposal.status,
    [decision === 'accepted' ? 'written' : 'dropped']: files,
    rules: proposal.reviewed.rules.filter((r) => r.decision === decision).map((r) => r.id),
    pendingRules: pendingRules(proposal).map((r) => ({ id: r.id, flags: r.flags })),
    toReview: { rules: status.rules, files: status.files, text: describeStatus(status) },
    exitCode,
    already: false,
  };
}

export const acceptCommand = (argv: string[], out: Output) => run(argv, 'accepted', out);
export const rejectCommand = (argv: string[], out: Output) => run(argv, 'rejected', out);
