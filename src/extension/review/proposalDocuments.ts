import * as vscode from 'vscode';
import type { FileChange, Proposal } from '../../core/assets/proposal';

export const PROPOSAL_SCHEME = 'combee-proposal';

/** `combee-proposal:/<proposal id>/<file path>?side=after|before&ws=<workspace>` */
export function proposalUri(proposal: Proposal, change: FileChange, side: 'after' | 'before'): vscode.Uri {
  return vscode.Uri.from({
    scheme: PROPOSAL_SCHEME,
    path: `/${proposal.id}/${change.path}`,
    query: new URLSearchParams({ side, ws: proposal.workspace }).toString(),
  });
}

export function parseProposalUri(
  uri: vscode.Uri,
): { proposalId: string; path: string; side: 'after' | 'before'; workspace: string } | undefined {
  if (uri.scheme !== PROPOSAL_SCHEME) return undefined;
  const [, proposalId, ...rest] = uri.path.split('/');
  const query = new URLSearchParams(uri.query);
  const workspace = query.get('ws');
  if (!proposalId || rest.length === 0 || !workspace) return undefined;
  return { proposalId, path: rest.join('/'), side: query.get('side') === 'before' ? 'before' : 'after', workspace };
}

/** Serves proposed file contents as read-only virtual documents: nothing touches the workspace before Accept. */
export class ProposalContentProvider implements vscode.TextDocumentContentProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;

  constructor(private readonly load: (workspace: string, id: string) => Promise<Proposal | undefined>) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const parsed = parseProposalUri(uri);
    if (!parsed) return '';
    const proposal = await this.load(parsed.workspace, parsed.proposalId);
    const change = proposal?.files.find((f) => f.path === parsed.path);
    if (!change) return `This proposal is no longer available (${parsed.proposalId}).`;
    return parsed.side === 'after' ? change.after : change.before;
  }

  refresh(uri: vscode.Uri): void {
    this.emitter.fire(uri);
  }
}

/** Opens current-vs-proposed for one file: the real file on the left when it exists, else an empty base. */
export async function openProposalDiff(proposal: Proposal, change: FileChange): Promise<void> {
  const workspaceFile = vscode.Uri.joinPath(vscode.Uri.file(proposal.workspace), ...change.path.split('/'));
  const left = change.kind === 'create' ? proposalUri(proposal, change, 'before') : workspaceFile;
  const right = proposalUri(proposal, change, 'after');
  const title = `${change.path} ↔ Combee proposal`;
  await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: false });
}
