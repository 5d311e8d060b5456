import { resolve } from 'node:path';
import { applyFileChange, ConflictError } from '../../core/assets/applyChange';
import { ReviewMemory } from '../../core/store/reviewMemory';
import { rememberRetired } from '../../core/service/rememberRetired';
import type { FileChange, Proposal } from '../../core/assets/proposal';
import { ProposalStore } from '../../core/store/proposals';
import { acceptedFiles, pendingRules, rulesAcceptedWith, withDecisions } from '../../core/assets/review';
import { DEFAULT_PLAYBOOK_PATH } from '../../core/assets/playbookAsset';
import { targetsOfFiles, type AssetTarget } from '../../core/assets/targets';
import { chooseRules, readWorkspaceFile } from '../../core/service/proposalFiles';
import { TraceStore, defaultStoreDir } from '../../core/store/traceStore';
import { OutsideWorkspaceError } from '../../core/trust/workspacePath';
import { describeFlags } from '../../core/trust/kinds';
import { textsToTrust } from '../../core/trust/hold';
import { parse, UsageError, workspacePathFlag } from '../args';
import type { Output } from '../output';
import { WorkspaceState } from '../../core/store/workspaceState';

const OPTIONS = {
  workspace: { type: 'string' },
  store: { type: 'string' },
  rule: { type: 'string', multiple: true },
  playbook: { type: 'string' },
  'include-flagged': { type: 'boolean' },
} as const;

interface Context {
  workspace: string;
  store: TraceStore;
  proposals: ProposalStore;
  proposal: Proposal;
  rules: string[];
  playbookPath: string;
  includeFlagged: boolean;
}

async function context(argv: string[], out: Output): Promise<Context | undefined> {
  const { values, positionals } = parse(argv, OPTIONS);
  const id = positionals[0];
  if (!id) throw new UsageError('a proposal id is required');
  const workspace = resolve(typeof values.workspace === 'string' ? values.workspace : process.cwd());
  const playbook = workspacePathFlag('playbook', workspace, values.playbook);
  const store = new TraceStore(typeof values.store === 'string' ? resolve(values.store) : defaultStoreDir());
  const proposals = new ProposalStore(new WorkspaceState(store.dir));
  const proposal = await proposals.load(workspace, id);
  if (!proposal) {
    out.warn(`no proposal ${id} for ${workspace}`);
    return undefined;
  }
  const rules = (values.rule as unknown as string[] | undefined) ?? [];
  // Held existing rules can be named too: that is how the user takes one the screen held back.
  const unknown = rules.filter(
    (r) => !proposal.ops.some((o) => o.ruleId === r) && !proposal.heldRules.some((h) => h.id === r),
  );
  if (unknown.length)
    throw new UsageError(
      `proposal ${id} has no rule ${unknown.join(', ')} (it has ${[...proposal.ops.map((o) => o.ruleId), ...proposal.heldRules.map((h) => h.id)].join(', ') || 'none'})`,
    );
  return {
    workspace,
    store,
    proposals,
    proposal,
    rules,
    playbookPath: playbook ?? guessPlaybookPath(proposal),
    includeFlagged: values['include-flagged'] === true,
  };
}

/** Writes the files; returns the paths not written (a conflict, or a path leaving the workspace). */
async function write(workspace: string, files: FileChange[], out: Output): Promise<string[]> {
  const conflicts: string[] = [];
  for (const file of files) {
    try {
      const how = await applyFileChange(workspace, file);
      out.result(
        how === 'rebased'
          ? `wrote ${file.path} (re-based onto its newer content)`
          : how === 'already-applied'
            ? `${file.path} already has these changes`
            : `wrote ${file.path}`,
      );
    } catch (error) {
      if (!(error instanceof ConflictError) && !(error instanceof OutsideWorkspaceError)) throw error;
      conflicts.push(file.path);
      out.warn(error.message);
    }
  }
  return conflicts;
}

/** Without --playbook: the proposal's playbook file (the one ending in playbook.md), else the default path. */
const guessPlaybookPath = (proposal: Proposal) =>
  proposal.files.find((f) => f.path.endsWith('playbook.md'))?.path ?? DEFAULT_PLAYBOOK_PATH;

async function accept(argv: string[], out: Output): Promise<number> {
  const ctx = await context(argv, out);
  if (!ctx) return 1;
  const { workspace, proposal } = ctx;
  const path = ctx.playbookPath;
  const flagged = proposal.rules.filter((r) => r.flags.length > 0);
  const memory = new ReviewMemory(new WorkspaceState(ctx.store.dir), workspace);
  const heldNamed = proposal.heldRules.filter((h) => ctx.rules.includes(h.id));
  for (const held of heldNamed)
    out.warn(`accepting flagged rule ${held.id} already in the playbook (${describeFlags(held.flags)})`);
  await memory.rememberTrusted(heldNamed.map((h) => h.content));
  for (const held of proposal.heldRules.filter((h) => !heldNamed.includes(h)))
    out.warn(
      `rule ${held.id} already in the playbook is flagged (${describeFlags(held.flags)}); it stays out of AGENTS.md and the other files unless accepted by name (--rule ${held.id})`,
    );
  if (ctx.rules.length > 0 || flagged.length > 0) {
    // Flagged rules go in only by name (or all of them with --include-flagged); the files shown mark them, so the
    // accepted part is rendered again without them.
    const named =
      ctx.rules.length > 0
        ? ctx.rules
        : proposal.ops.map((o) => o.ruleId).filter((id) => ctx.includeFlagged || !flagged.some((r) => r.id === id));
    const accepting = flagged.filter((r) => named.includes(r.id));
    for (const rule of accepting) out.warn(`accepting flagged rule ${rule.id} (${describeFlags(rule.flags)})`);
    if (ctx.rules.length === 0)
      for (const rule of flagged.filter((r) => !named.includes(r.id)))
        out.warn(
          `left out flagged rule ${rule.id}: ${describeFlags(rule.flags)}. Accept it by name with --rule ${rule.id}, or all flagged rules with --include-flagged.`,
        );
    const targets =
      (proposal.targets as AssetTarget[] | undefined) ??
      targetsOfFiles(
        proposal.files.map((f) => f.path),
        path,
      );
    const split = await chooseRules(ctx.store, proposal, named, { playbookPath: path, targets }, (m) => out.warn(m));
    const conflicts = await write(workspace, split.chosen.files, out);
    if (split.chosen.files.length === 0) out.result('nothing written');
    const accepted = acceptedFiles(split.chosen.files, { conflicts, refused: [] });
    await ctx.proposals.save(
      withDecisions(split.remaining(accepted.map((f) => f.path)), 'accepted', {
        files: accepted,
        rules: proposal.rules.filter((r) => named.includes(r.id)),
        held: heldNamed,
      }),
    );
    await remember(ctx, path, named);
    return conflicts.length === 0 ? 0 : 1;
  }
  const conflicts = await write(workspace, proposal.files, out);
  // what was written leaves the proposal; a conflicting file waits there for another try
  const accepted = acceptedFiles(proposal.files, { conflicts, refused: [] });
  const left = proposal.files.filter((f) => conflicts.includes(f.path));
  await ctx.proposals.save(
    withDecisions({ ...proposal, files: left, status: left.length === 0 ? 'accepted' : 'partial' }, 'accepted', {
      files: accepted,
      rules: rulesAcceptedWith(proposal, accepted, path),
    }),
  );
  await remember(
    ctx,
    path,
    proposal.rules.map((r) => r.id),
  );
  return conflicts.length === 0 ? 0 : 1;
}

async function remember(ctx: Context, path: string, ruleIds: string[]): Promise<void> {
  const text = readWorkspaceFile(ctx.workspace, path);
  if (text === undefined) return;
  const support = new Map(
    ctx.proposal.rules.filter((r) => ruleIds.includes(r.id)).map((r) => [r.id, r.support.map((s) => s.traceId)]),
  );
  const memory = new ReviewMemory(new WorkspaceState(ctx.store.dir), ctx.workspace);
  await memory.rememberAccepted(text, support);
  await rememberRetired(new WorkspaceState(ctx.store.dir), ctx.proposal, ruleIds, path, text);
  await memory.rememberTrusted(textsToTrust(ctx.proposal.rules.filter((r) => ruleIds.includes(r.id))));
}

async function reject(argv: string[], out: Output): Promise<number> {
  const ctx = await context(argv, out);
  if (!ctx) return 1;
  const { proposal } = ctx;
  const rejected = ctx.rules.length > 0 ? proposal.rules.filter((r) => ctx.rules.includes(r.id)) : proposal.rules;
  await new ReviewMemory(new WorkspaceState(ctx.store.dir), ctx.workspace).rememberRejected(rejected);
  if (ctx.rules.length > 0) {
    const split = await chooseRules(ctx.store, proposal, ctx.rules, { playbookPath: ctx.playbookPath }, (m) =>
      out.warn(m),
    );
    const rest = split.remaining();
    await ctx.proposals.save(
      withDecisions({ ...rest, status: rest.files.length === 0 ? 'rejected' : rest.status }, 'rejected', {
        rules: rejected,
      }),
    );
  } else {
    await ctx.proposals.save(
      withDecisions({ ...proposal, status: 'rejected' }, 'rejected', { rules: pendingRules(proposal) }),
    );
  }
  out.result(`rejected ${rejected.length} rule change(s); they will not be proposed again`);
  return 0;
}

export const acceptCommand = (argv: string[], out: Output) => withJson(argv, out, 'accepted', accept);
export const rejectCommand = (argv: string[], out: Output) => withJson(argv, out, 'rejected', reject);

/**
 * `--json`: the command runs as it does for people (its lines go to stderr), then the proposal's state after it is
 * printed: the files it wrote, the rules still pending (flagged ones left out), its status.
 */
async function withJson(
  argv: string[],
  out: Output,
  decision: 'accepted' | 'rejected',
  run: (argv: string[], out: Output) => Promise<number>,
): Promise<number> {
  if (!argv.includes('--json')) return run(argv, out);
  const rest = argv.filter((a) => a !== '--json');
  const before = await loadNamed(rest);
  const code = await run(rest, { ...out, result: (text) => out.info(text) });
  const after = await loadNamed(rest);
  const was = new Set(before?.reviewed.files.map((f) => `${f.path}\n${f.decision}`));
  out.result(
    JSON.stringify(
      {
        proposal: after?.id ?? null,
        status: after?.status ?? null,
        [decision === 'accepted' ? 'written' : 'dropped']: (after?.reviewed.files ?? [])
          .filter((f) => f.decision === decision && !was.has(`${f.path}\n${f.decision}`))
          .map((f) => f.path),
        rules: (after?.reviewed.rules ?? []).filter((r) => r.decision === decision).map((r) => r.id),
        pendingRules: after ? pendingRules(after).map((r) => ({ id: r.id, flags: r.flags })) : [],
        exitCode: code,
      },
      null,
      2,
    ),
  );
  return code;
}

/** The proposal the command line names, as stored now (for --json's before and after). */
async function loadNamed(argv: string[]): Promise<Proposal | undefined> {
  const { values, positionals } = parse(argv, OPTIONS);
  if (!positionals[0]) return undefined;
  const workspace = resolve(typeof values.workspace === 'string' ? values.workspace : process.cwd());
  const store = new TraceStore(typeof values.store === 'string' ? resolve(values.store) : defaultStoreDir());
  return new ProposalStore(new WorkspaceState(store.dir)).load(workspace, positionals[0]);
}
