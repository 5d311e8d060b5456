import { resolve } from 'node:path';
import { DEFAULT_PLAYBOOK_PATH } from '../../core/assets/playbookAsset';
import { agentName } from '../../core/memories/candidates';
import type { MemoryVerdict } from '../../core/memories/types';
import { emptyPlaybook, parsePlaybook } from '../../core/playbook/markdown';
import { agentMemoryReport, memoriesOfThisUser } from '../../core/service/agentMemories';
import { TraceStore } from '../../core/store/traceStore';
import { resolveInWorkspace } from '../../core/trust/workspacePath';
import { readTextIfExists } from '../../core/util/io';
import { parse, workspacePathFlag } from '../args';
import type { Output } from '../output';
import { redactionPatterns } from './redactionFlags';
import { storeDirFor } from '../store';

function evidenceLines(label: string, list: MemoryVerdict['support']): string[] {
  return list.map((e) => `    ${label} ${e.traceId} step(s) ${e.steps.join(', ')}: ${e.reason}`);
}

/** `combee memories`: the agents' memories for the workspace, each with its verdict against the stored sessions. */
export async function memoriesCommand(argv: string[], out: Output): Promise<number> {
  const { values } = parse(argv, {
    workspace: { type: 'string' },
    store: { type: 'string' },
    playbook: { type: 'string' },
    'all-workspaces': { type: 'boolean' },
    'redact-pattern': { type: 'string', multiple: true },
    json: { type: 'boolean' },
  });
  const workspace = resolve(typeof values.workspace === 'string' ? values.workspace : process.cwd());
  const playbookPath = workspacePathFlag('playbook', workspace, values.playbook) ?? DEFAULT_PLAYBOOK_PATH;
  const text = await readTextIfExists(resolveInWorkspace(workspace, playbookPath));
  const store = new TraceStore(storeDirFor(values.store, out));
  const extraRedactionPatterns = await redactionPatterns(
    store.dir,
    values['redact-pattern'] as unknown as string[] | undefined,
    out,
  );
  const report = await agentMemoryReport({
    store,
    workspace,
    settings: memoriesOfThisUser(extraRedactionPatterns),
    playbook: text === undefined ? emptyPlaybook() : parsePlaybook(text),
    allWorkspaces: values['all-workspaces'] === true,
  });
  if (values.json) {
    out.result(
      JSON.stringify(
        {
          workspace,
          files: report.files,
          sessions: report.traces.length,
          memories: report.verdicts.map((v) => ({
            id: v.item.id,
            agent: v.item.agent,
            file: v.item.file,
            line: v.item.line,
            text: v.item.text,
            redacted: v.item.redacted,
            verdict: v.verdict,
            flags: v.item.flags,
            sameAs: v.sameAs ?? null,
            support: v.support,
            against: v.against,
          })),
          warnings: report.warnings,
        },
        null,
        2,
      ),
    );
    return 0;
  }
  for (const warning of report.warnings) out.warn(warning);
  if (report.verdicts.length === 0) {
    out.result(
      report.files.length === 0
        ? `No agent memories for ${workspace}.`
        : `The agents' memory files for ${workspace} hold no memories (${report.files.join(', ')}).`,
    );
    return 0;
  }
  const lines = [
    `${report.verdicts.length} memory(ies) in ${report.files.length} file(s), checked against ${report.traces.length} session(s):`,
  ];
  for (const v of report.verdicts) {
    const same = v.sameAs ? ` (already rule ${v.sameAs})` : '';
    lines.push(`[${v.verdict}]${same} ${agentName(v.item.agent)} ${v.item.file}:${v.item.line}: ${v.item.text}`);
    lines.push(...v.item.flags.map((f) => `    flagged ${f.kind}: ${f.reason}`));
    lines.push(...evidenceLines('for', v.support), ...evidenceLines('against', v.against));
  }
  out.result(lines.join('\n'));
  return 0;
}
