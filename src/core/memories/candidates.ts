import { classifyCommand, sectionOfCommandKind } from '../trace/commands';
import { ruleCommands } from '../learn/rules/ruleText';
import type { DeltaOp } from '../playbook/delta';
import type { MemoryAgent, MemoryVerdict } from './types';

const AGENT_NAMES: Record<MemoryAgent, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  'gemini-cli': 'Gemini CLI',
  copilot: 'Copilot',
};

export function agentName(agent: MemoryAgent): string {
  return AGENT_NAMES[agent];
}

/** The section a memory goes to is what its command does, as for any learned rule; prose goes to Conventions. */
export function memorySection(text: string): string {
  const command = ruleCommands(text).prescribed[0];
  return (command === undefined ? undefined : sectionOfCommandKind(classifyCommand(command))) ?? 'Conventions';
}

/** Where a memory was read: `Claude Code's memory ~/.claude/projects/…/MEMORY.md:3`. */
export function memoryOrigin(verdict: MemoryVerdict): string {
  return `${agentName(verdict.item.agent)}'s memory ${verdict.item.file}:${verdict.item.line}`;
}

/** The rules the memories become: only those sessions support, that no playbook rule says already. */
export function memoryOps(verdicts: readonly MemoryVerdict[]): Array<{ verdict: MemoryVerdict; op: DeltaOp }> {
  return verdicts
    .filter((v) => v.verdict === 'supported' && v.sameAs === undefined)
    .map((verdict) => ({
      verdict,
      op: {
        op: 'ADD' as const,
        section: memorySection(verdict.item.text),
        content: verdict.item.text,
        support: verdict.support.map(({ traceId, steps }) => ({ traceId, steps })),
        key: `agent-memory:${verdict.item.id}`,
      },
    }));
}

/** What a reviewer reads beside a rule drawn from a memory: where it came from and what the sessions said. */
export function memoryNote(verdict: MemoryVerdict): string {
  const against =
    verdict.against.length > 0
      ? `; ${verdict.against.length} went against it (${verdict.against.map((e) => e.traceId).join(', ')})`
      : '';
  return `from ${memoryOrigin(verdict)} (provenance agent-memory): ${verdict.support.length} session(s) bear it out (${verdict.support.map((e) => e.traceId).join(', ')})${against}`;
}

/** One line per memory that is not proposed, for the run record. */
export function memoryWarnings(verdicts: readonly MemoryVerdict[]): string[] {
  const out: string[] = [];
  for (const v of verdicts) {
    if (v.verdict === 'flagged')
      out.push(
        `${memoryOrigin(v)} is flagged (${v.item.flags.map((f) => `${f.kind}: ${f.reason}`).join('; ')}): not proposed`,
      );
    else if (v.verdict === 'contradicted')
      out.push(
        `${memoryOrigin(v)} is contradicted by ${v.against.length} session(s) (${v.against.map((e) => `${e.traceId} steps ${e.steps.join(', ')}: ${e.reason}`).join('; ')}): not proposed`,
      );
  }
  const unverified = verdicts.filter((v) => v.verdict === 'unverified').length;
  if (unverified > 0)
    out.push(
      `${unverified} agent memory(ies) are unverified (no session here bears on them): not proposed (combee memories lists them)`,
    );
  const stated = verdicts.filter((v) => v.verdict === 'supported' && v.sameAs !== undefined);
  for (const v of stated) out.push(`${memoryOrigin(v)} is already rule ${v.sameAs}: not proposed again`);
  return out;
}
