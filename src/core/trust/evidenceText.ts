import type { Evidence } from '../playbook/delta';
import type { Step, Trace } from '../trace/model';
import { sessionLabel } from '../trace/transcript';
import type { RuleFlag } from './kinds';
import { userStepKind, type UserStepKind } from '../trace/userStepKind';

const EVIDENCE_NOTE: Record<UserStepKind, string> = {
  words: '',
  injected: ' (injected into the session, not typed by the user)',
  confirmation: " (answered the agent tool's yes/no prompt, not words to the agent)",
  undo: " (undid the agent's last edit)",
};

/** Longest text shown per step: the document is for reading the evidence, not for storing it twice. */
const STEP_CHARS = 4000;

function clip(text: string): string {
  return text.length > STEP_CHARS
    ? `${text.slice(0, STEP_CHARS)}\n[… ${text.length - STEP_CHARS} more characters]`
    : text;
}

function describeStep(step: Step): string {
  switch (step.kind) {
    case 'user':
      return `USER${EVIDENCE_NOTE[userStepKind(step)]}:\n${clip(step.text)}`;
    case 'assistant':
      return `AGENT:\n${clip(step.text)}`;
    case 'tool_call':
      return `TOOL CALL ${step.tool}:\n${clip(step.command ? `$ ${step.command}` : step.input)}`;
    case 'tool_result':
      return `TOOL RESULT${step.isError ? ' (failed)' : ''}${step.exitCode !== undefined ? ` exit ${step.exitCode}` : ''} — text the agent read:\n${clip(step.output)}`;
    case 'subagent':
      return `SUBAGENT ${step.traceId}${step.description ? `: ${step.description}` : ''}`;
    case 'error':
      return `ERROR:\n${clip(step.text)}`;
  }
}

/**
 * A rule's flags and the text of the steps that support it, from the stored sessions: what the review shows one
 * click away from a flagged rule. Plain text, deterministic.
 */
export async function evidenceText(
  rule: { id: string; content?: string; flags: readonly RuleFlag[]; support: readonly Evidence[] },
  loadTrace: (id: string) => Promise<Trace | undefined>,
): Promise<string> {
  const lines = [`Rule ${rule.id}`, '', rule.content ?? '(no text: the change removes a rule)', ''];
  if (rule.flags.length === 0) lines.push('Not flagged.');
  else {
    lines.push('Flagged (kept out of AGENTS.md and the other files until accepted by name):');
    for (const flag of rule.flags) lines.push(`- ${flag.kind}: ${flag.reason}`);
  }
  lines.push('');
  if (rule.support.length === 0)
    lines.push('No recorded evidence: the rule was already in the playbook (a cloned repository is untrusted input).');
  for (const evidence of rule.support) {
    const trace = await loadTrace(evidence.traceId);
    lines.push(trace ? `== Session ${sessionLabel(trace)} ${evidence.traceId}` : `== Session ${evidence.traceId}`);
    if (!trace) {
      lines.push('Not in the store any more.', '');
      continue;
    }
    for (const index of evidence.steps) {
      const step = trace.steps[index];
      lines.push(`-- step ${index}: ${step ? describeStep(step) : 'not in the session'}`, '');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
