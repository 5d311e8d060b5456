import { exitIsAnswer } from './shell';
import { classifyCommand } from './commands';
import type { Outcome, Step, ToolCallStep } from './model';

const CORRECTION = [
  /^\s*(?:no|nope|wrong|stop|wait|hmm,? no)\b[,.!:]?/i,
  /^\s*(?:actually|instead)\b/i,
  /\b(?:don't|do not|never|please don't|stop)\s+(?:use|run|call|edit|touch|change|add|commit|push|modify)\b/i,
  /\b(?:instead of|rather than|not\s+\S+\s+but)\b/i,
  // "use pnpm here, not npm"
  /\b(?:use|run|try|call)\b[^.!?\n]{0,60},\s*not\s+\S+/i,
  /\b(?:we|this repo|this project|the team)\s+(?:always|never|use|uses|prefer|prefers)\b/i,
  /\b(?:you should|you need to|you forgot|you missed|make sure to|remember to)\b/i,
  /\bthat(?:'s| is) (?:wrong|not right|incorrect|not what)\b/i,
];

/** A user message that corrects the agent or states a team preference. */
export function isCorrection(text: string): boolean {
  const head = text.slice(0, 600);
  return CORRECTION.some((pattern) => pattern.test(head));
}

/**
 * A user step that corrects the agent: words that do (not injected context), or an undo of its last edit (Aider's
 * `/undo`), a correction without words.
 */
export function isUserCorrection(step: Extract<Step, { kind: 'user' }>): boolean {
  if (step.undo) return true;
  return !step.isMeta && !step.confirmation && isCorrection(step.text);
}

export function computeOutcome(steps: Step[]): Outcome {
  const calls = new Map<string, ToolCallStep>();
  let toolErrors = 0;
  let passed = 0;
  let failed = 0;
  let userCorrections = 0;
  let interrupted = false;
  let sawAgentWork = false;
  for (const step of steps) {
    switch (step.kind) {
      case 'tool_call':
        calls.set(step.callId, step);
        sawAgentWork = true;
        break;
      case 'tool_result': {
        const call = calls.get(step.callId);
        // a search that found nothing, `diff` finding a difference: answers, not errors
        const error = step.isError && !(call?.command && exitIsAnswer(call.command, step.exitCode));
        if (error) toolErrors++;
        if (step.interrupted) interrupted = true;
        if (call?.command && classifyCommand(call.command) === 'test') {
          if (error) failed++;
          else passed++;
        }
        break;
      }
      case 'assistant':
        sawAgentWork = true;
        break;
      case 'error':
        if (/^turn aborted/i.test(step.text)) interrupted = true;
        break;
      case 'user':
        if (sawAgentWork && isUserCorrection(step)) userCorrections++;
        if (/\[Request interrupted by user/.test(step.text)) interrupted = true;
        break;
      default:
        break;
    }
  }
  return { toolErrors, testRuns: { passed, failed }, userCorrections, interrupted };
}
