import type { Gate } from './types';

// A task request is one piece of work: an imperative that makes or changes something ("Add a test.", "Add retries to
// the fraud-check client") with nothing that makes it hold beyond the task — no condition or time ("when", "before",
// "after"), no quantifier ("every", "all"), no frequency ("always", "never"), no contrast ("instead of", ", not"), no
// obligation ("must"), no reason that generalizes it ("it fails without it"). A rule says how work is done here.

/** Verbs that make or change a thing: the opening of a piece of work. */
const WORK =
  /^\s*(?:please\s+)?(?:add|implement|fix|create|write|refactor|rename|remove|delete|update|upgrade|migrate|bump|make|change|move|extract|introduce|support|handle|build|improve|clean up|rewrite|convert|replace|wire|expose|include)\b/i;

const GENERAL =
  /\b(?:always|never|every|each|all|any|whenever|when|before|after|if|unless|only|instead|rather|must|should|so that|otherwise|fails?|without|except|by default|from now on)\b|,\s*not\b|\bnot\s+`|`[^`]+`\s*(?:before|after|first)/i;

/** "Build with `pnpm build`": the verb names a job and the rule says which command does it, a how-to. */
const HOW_TO = /\b(?:with|using|by running|through|via)\s+`[^`]+`/i;

export function isTaskRequest(content: string): boolean {
  return WORK.test(content) && !GENERAL.test(content) && !HOW_TO.test(content);
}

export const taskRequestGate: Gate = {
  name: 'task-request',
  check: (rule) =>
    isTaskRequest(rule.content)
      ? 'it asks for one piece of work (an imperative with no condition, quantifier or reason): a task request, not a rule'
      : undefined,
};
