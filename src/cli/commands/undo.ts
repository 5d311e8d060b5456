import { resolve } from 'node:path';
import { fileWriter } from '../../core/service/review/fileWriter';
import { UndoStack, type UndoOutcome } from '../../core/service/review/undo';
import { ProposalStore } from '../../core/store/proposals';
import { TraceStore } from '../../core/store/traceStore';
import { WorkspaceState } from '../../core/store/workspaceState';
import { integer, parse, UsageError } from '../args';
import type { Output } from '../output';
import { storeDirFor } from '../store';

// `combee undo`: walks back the workspace's review decisions, newest first — the same stack the extension's Undo Last
// Decision walks (it lives in the store), so a decision undone here is undone there too.

const OPTIONS = {
  workspace: { type: 'string' },
  store: { type: 'string' },
  steps: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export async function undoCommand(argv: string[], out: Output): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const steps = integer('steps', values.steps) ?? 1;
  if (steps < 1) throw new UsageError('--steps must be at least 1');
  const workspace = resolve(typeof values.workspace === 'string' ? values.workspace : process.cwd());
  const store = new TraceStore(storeDirFor(values.store, out));
  const deps = { store, proposals: new ProposalStore(new WorkspaceState(store.dir)), writer: fileWriter(workspace) };
  const stack = new UndoStack(store.dir, workspace);
  const json = values.json === true;
  const lines: Output = json ? { ...out, result: (text) => out.info(text) } : out;
  const undone: Array<Extract<UndoOutcome, { kind: 'undone' }>> = [];
  let refused: Extract<UndoOutcome, { kind: 'changed-since' }> | undefined;
  for (let step = 0; step < steps; step++) {
    const outcome = await stack.undo(deps);
    if (outcome.kind === 'nothing') break;
    if (outcome.kind === 'changed-since') {
      refused = outcome;
      break;
    }
    undone.push(outcome);
    const kept = outcome.rebased.length > 0 ? ` (edits made since kept in ${outcome.rebased.join(', ')})` : '';
    lines.result(
      `undid: ${outcome.entry.label}${outcome.reverted.length > 0 ? `; restored ${outcome.reverted.join(', ')}` : ''}${kept}`,
    );
  }
  if (refused) {
    for (const { reason } of refused.changedSince) lines.warn(reason);
    lines.warn(
      `did not undo ${refused.entry.label}: nothing of it was changed (the files and the decisions must agree)`,
    );
  }
  const left = (await stack.entries()).length;
  if (undone.length === 0 && !refused) lines.result('nothing to undo');
  else if (undone.length < steps && !refused) lines.info(`only ${undone.length} decision(s) to undo`);
  if (json)
    out.result(
      JSON.stringify(
        {
          undone: undone.map((u) => ({
            decision: u.entry.label,
            proposal: u.entry.before.id,
            restored: u.reverted,
            rebased: u.rebased,
          })),
          ...(refused ? { refused: { decision: refused.entry.label, changedSince: refused.changedSince } } : {}),
          left,
        },
        null,
        2,
      ),
    );
  return refused ? 1 : 0;
}
