import { HOOK_LABELS, type HookAgent } from '../assets/enforce/agentHooks';
import type { Proposal, RuleChange } from '../assets/proposal';
import { describeFlags } from '../trust/kinds';
import { describeCorroboration } from '../playbook/provenanceMark';

export interface PrBodyInput {
  proposal: Proposal;
  sessions: number;
  people: number;
  strategy: string;
  seed: number;
  warnings: readonly string[];
  /** Paths written to the branch (flagged rules left out). */
  written: readonly string[];
}

/**
 * A pull request's description of a learning run. Rule text comes from sessions anyone could have steered, so it is
 * shown only inside code spans: GitHub renders no link, image, mention or HTML from it.
 */
export function renderPrBody(input: PrBodyInput): string {
  const { proposal } = input;
  const clean = proposal.rules.filter((r) => r.flags.length === 0);
  const flagged = proposal.rules.filter((r) => r.flags.length > 0);
  const lines = [
    '## Combee: what the team’s sessions taught',
    '',
    `Learned from ${input.sessions} session(s) of ${input.people} ${input.people === 1 ? 'person' : 'people'} with ${codeSpan(proposal.provider)} (${codeSpan(proposal.model)}), strategy ${input.strategy}, seed ${input.seed}. Each rule says how many people’s and sessions’ evidence stands behind it; a person is a bundle’s exporter, named as the bundle names itself (self-declared, not verified).`,
    '',
    `### Rule changes in this branch (${clean.length})`,
    '',
    ...(clean.length > 0 ? clean.map(ruleLine) : ['None.']),
    '',
  ];
  if (flagged.length + proposal.heldRules.length > 0)
    lines.push(
      `### Flagged, not applied (${flagged.length + proposal.heldRules.length})`,
      '',
      'The trust screen held these back; they are not in this branch. Accept one by name after reading its evidence: `combee accept <proposal> --rule <id>`.',
      '',
      ...flagged.map((r) => `${ruleLine(r)}\n  - held back: ${codeSpan(describeFlags(r.flags))}`),
      ...proposal.heldRules.map(
        (h) =>
          `- ${codeSpan(h.id)} (already in the playbook) ${codeSpan(h.content)}\n  - kept out of the other files: ${codeSpan(describeFlags(h.flags))}`,
      ),
      '',
    );
  const enforced = proposal.enforced ?? [];
  const held = (proposal.enforcements ?? []).filter((e) => (e.flags ?? []).length > 0);
  if (enforced.length + held.length > 0)
    lines.push(
      `### Enforcements (${enforced.length})`,
      '',
      'Hooks that stop commands before they run, rendered from the playbook’s `enforced` marks (its `combee:marks` section).',
      '',
      ...enforced.map((e) => {
        const offered = proposal.enforcements?.find((o) => o.ruleId === e.ruleId && o.mark);
        const what = [
          ...(e.claudeCode
            ? [`Claude Code hook stops ${e.claudeCode.map((m) => codeSpan(m.join(' '))).join(', ')}`]
            : []),
          ...Object.entries(e.hooks ?? {}).map(
            ([agent, commands]) =>
              `${HOOK_LABELS[agent as HookAgent] ?? agent} hook stops ${commands.map((m) => codeSpan(m.join(' '))).join(', ')}`,
          ),
          ...(e.preCommit ? [`pre-commit check refuses ${e.preCommit.map((p) => codeSpan(p)).join(', ')}`] : []),
        ].join('; ');
        return `- ${codeSpan(e.ruleId)} ${codeSpan(e.content)} — ${what}
  - ${offered ? codeSpan(offered.explanation) : 'from a mark already in the playbook'}`;
      }),
      ...held.map((e) => `- ${codeSpan(e.ruleId)} held, not in this branch: ${codeSpan(describeFlags(e.flags ?? []))}`),
      '',
    );
  lines.push(
    `### Files (${input.written.length})`,
    '',
    ...(input.written.length > 0 ? input.written.map((p) => `- ${codeSpan(p)}`) : ['None written.']),
    '',
  );
  if (input.warnings.length > 0)
    lines.push(
      `<details><summary>Warnings (${input.warnings.length})</summary>`,
      '',
      ...input.warnings.map((w) => `- ${codeSpan(w)}`),
      '',
      '</details>',
      '',
    );
  return `${lines.join('\n')}`;
}

function ruleLine(rule: RuleChange): string {
  const support = rule.corroboration
    ? describeCorroboration(rule.corroboration)
    : `${new Set(rule.support.map((s) => s.traceId)).size} session(s)`;
  return `- **${rule.op}** ${codeSpan(rule.id)} ${rule.content ? codeSpan(rule.content) : ''} — ${support}`;
}

/** Text as one inline code span: fenced by more backticks than it holds, on one line, padded when it starts or ends with one. */
export function codeSpan(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat === '' ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
