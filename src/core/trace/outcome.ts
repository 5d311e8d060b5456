import { exitIsAnswer } from './shell';
import { classifyCommand } from './commands';
import type { Outcome, Step, ToolCallStep } from './model';
import { correctionSteps } from './turns/classify';

export function computeOutcome(steps: Step[]): Outcome {
  const calls = new Map<string, ToolCallStep>();
  let toolErrors = 0;
  let passed = 0;
  let failed = 0;
  let userCorrections = 0;
  let interrupted = false;
  // a correction is told by its place in the dialogue (turns/classify.ts), not by its words alone
  const corrections = correctionSteps(steps);
  for (const step of steps) {
    switch (step.kind) {
      case 'tool_call':
        calls.set(step.callId, step);
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
      case 'error':
        if (/^turn aborted/i.test(step.text)) interrupted = true;
        break;
      case 'user':
        if (corrections.has(step.index)) userCorrections++;
        if (/\[Request interrupted by user/.test(step.text)) interrupted = true;
        break;
      default:
        break;
    }
  }
  return { toolErrors, testRuns: { passed, failed }, userCorrections, interrupted };
}
