import * as vscode from 'vscode';
import type { Proposal } from '../../core/assets/proposal';
import { evidenceText } from '../../core/trust/evidenceText';
import type { TraceStore } from '../../core/store/traceStore';

export const EVIDENCE_SCHEME = 'combee-evidence';

/** `combee-evidence:/<proposal id>/<rule id>.txt?ws=<workspace>` */
export function evidenceUri(proposal: Proposal, ruleId: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: EVIDENCE_SCHEME,
    path: `/${proposal.id}/${ruleId}.txt`,
    query: new URLSearchParams({ ws: proposal.workspace }).toString(),
  });
}

/** A rule's flags and the text of its supporting steps, as a read-only virtual document. */
export class EvidenceContentProvider implements vscode.TextDocumentContentProvider {
  constructor(
    private readonly load: (workspace: string, id: string) => Promise<Proposal | undefined>,
    private readonly store: TraceStore,
  ) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const [, proposalId, file] = uri.path.split('/');
    const workspace = new URLSearchParams(uri.query).get('ws');
    const ruleId = file?.replace(/\.txt$/, '');
    const proposal = proposalId && workspace ? await this.load(workspace, proposalId) : undefined;
    const rule = proposal?.rules.find((r) => r.id === ruleId);
    const held = proposal?.heldRules.find((h) => h.id === ruleId);
    if (!rule && !held) return `This rule is no longer in proposal ${proposalId}.`;
    const subject = rule ?? { id: held!.id, content: held!.content, flags: held!.flags, support: [] };
    return evidenceText(subject, (id) => this.store.loadTrace(id));
  }
}
