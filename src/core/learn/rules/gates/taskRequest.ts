import { isReport } from '../../../trace/turns/standing';
import type { Gate } from './types';

// A task request is one piece of work: an imperative that makes or changes something ("Add a test.", "Add retries to
// the fraud-check client") with nothing that makes it hold beyond the task — no condition or time ("when", "before",
// "after"), no quantifier ("every", "all"), no frequency ("always", "never"), no contrast ("instead of", ", not"), no
// obligation ("must"), no reason that generalizes it ("it fails without it"). A rule says how work is done here.
// A question, a request put to the agent ("can you…", 帮我…) or a first-person report of the moment ("I think…",
// "right now…") is never a rule, nor are words that stop where what they introduce should follow ("when running:").

/** Verbs that make or change a thing: the opening of a piece of work. */
const WORK =
  /^\s*(?:please\s+)?(?:add|implement|fix|create|write|refactor|rename|remove|delete|update|upgrade|migrate|bump|make|change|move|extract|introduce|support|handle|build|improve|clean up|rewrite|convert|replace|wire|expose|include)\b/i;

const GENERAL =
  /\b(?:always|never|every|each|all|any|whenever|when|before|after|if|unless|only|instead|rather|must|should|so that|otherwise|fails?|without|except|by default|from now on)\b|,\s*not\b|\bnot\s+`|`[^`]+`\s*(?:before|after|first)/i;

/** "Build with `pnpm build`": the verb names a job and the rule says which command does it, a how-to. */
const HOW_TO = /\b(?:with|using|by running|through|via)\s+`[^`]+`/i;

// `\b` only knows ASCII letters: an opening word ends where no letter follows
const END = '(?![\\p{L}\\p{N}])';

/** A question or a request put to the agent, in English, French, Russian or Chinese. */
const ASKS = new RegExp(
  [
    `^(?:please\\s+)?(?:can|could|would|will)\\s+(?:you|u|we)${END}`,
    `^(?:what|what's|why|where|which|who|how\\s+(?:do|does|did|can|could|should|is|are))${END}`,
    `^(?:is|are)\\s+(?:there|it|this|that|these|those|we|you)${END}`,
    `^do\\s+(?:you|we|i)${END}`,
    `^(?:does|did)\\s+(?:you|we|i|it|this|that)${END}`,
    `^(?:tell me|explain|show me)${END}`,
    `^(?:(?:tu\\s+peux|vous\\s+pouvez)|(?:peux|pourrais|pouvez|pourriez)-(?:tu|vous)|est-ce\\s+que|qu'est-ce|pourquoi|comment)${END}`,
    `^(?:(?:ты\\s+)?можешь|можете|не\\s+мог(?:ли|у)|почему|зачем|как\\s+(?:мне|нам|сделать)|что|где|объясни|расскажи)${END}`,
    // "help me" in the opening clause asks the agent for work (你可能需要帮我…, 请你帮我…)
    '^[^，。,.！？!?]{0,12}(?:帮我|帮忙)|^你(?:可以|能)',
    '为什么|怎么办|怎么样|如何|是不是|能不能|可不可以|(?:吗|呢)[。.!！]?$',
    '[?？]\\s*$',
  ].join('|'),
  'iu',
);

/** A first-person report of the moment: what the user thinks, found, wants, or sees right now. */
const REPORTS = new RegExp(
  [
    `^i(?:'d|'ve)?\\s+(?:would\\s+|was\\s+)?(?:think|thought|found|noticed|get|got|see|saw|have|had|tried|like|want|need|wonder|guess|believe|feel|realized|discovered|just|also|really)${END}`,
    `^i(?:'m|\\s+am)${END}`,
    `^we\\s+(?:used|had|tried|found|noticed|got|saw|realized|discovered)${END}`,
    `^(?:looks like|it seems|it looks like|seems like|right now|currently|today|yesterday)${END}`,
    `^(?:je|j'|on\\s+a|nous\\s+avons)\\s*(?:pense|crois|trouve|vois|voudrais|veux|ai|suis|remarque|constate)${END}`,
    `^(?:il\\s+semble|on\\s+dirait|actuellement|en\\s+ce\\s+moment)${END}`,
    `^(?:я|мы)\\s+(?:думаю|думал[аи]?|наш[её]л|заметил[аи]?|вижу|хочу|хотел[аи]?|получаю|получил[аи]?|пробовал[аи]?|использовали)${END}`,
    `^(?:похоже|кажется|сейчас|сегодня|вчера|у\\s+меня)${END}`,
    '^我(?:们)?(?:发现|想|觉得|现在|有一个|有个|如果|看到|遇到|希望你|需要你|已经|刚才|不想)',
    '^(?:现在|目前|刚才|这里|这是|在这个)',
  ].join('|'),
  'iu',
);

/** What makes a report hold beyond the moment ("I'd like you to always…"). */
const STANDING =
  /\b(?:always|never|every time|whenever|from now on|by default|any time)\b|toujours|jamais|désormais|всегда|никогда|впредь|по\s+умолчанию|总是|永远|始终|每次|一律|以后|今后|默认/i;

/** Markdown emphasis and a model's lead-in ("Remember:") are not the words that decide. */
const opening = (content: string) =>
  content
    .trim()
    .replace(/^[*_>\s-]+/, '')
    .replace(/[\u2018\u2019]/g, "'")
    .trim();

/** Why the text is one piece of work and not a rule, or undefined when it may be a rule. */
export function taskRequestReason(content: string): string | undefined {
  const text = opening(content);
  if (ASKS.test(text)) return 'it asks the agent something (a question or a request): a task request, not a rule';
  if (REPORTS.test(text) && !STANDING.test(text))
    return 'it reports what the user sees or wants now (first person, nothing that makes it hold beyond the moment): not a rule';
  if (/[:：]\s*$/.test(text)) return 'it stops where what it introduces should follow: a fragment, not a rule';
  if (WORK.test(text) && !GENERAL.test(text) && !HOW_TO.test(text))
    return 'it asks for one piece of work (an imperative with no condition, quantifier or reason): a task request, not a rule';
  return undefined;
}

/** Whether the text carries a mark that makes it hold beyond one task: a condition, quantifier, contrast, or how-to. */
export function statesGenerally(content: string): boolean {
  return GENERAL.test(content) || HOW_TO.test(content) || STANDING.test(content);
}

/** A condition or a time that a prescription holds under ("when touching the cart, run …"), in the four languages. */
const CONDITION =
  /\b(?:when|whenever|before|after|if|unless|every time|each time)\b|(?:^|\s)(?:quand|lorsque|avant de|après|si)\s|(?:когда|перед|после|если)\s|当[^，。,.]{1,30}时|之前|之后|如果|的时候/i;
/** The speaker's own case as the condition ("when I push from a fork …"): what happened to them, not a rule. */
const OWN_CASE = /\b(?:when|whenever|if)\s+(?:i|i'm|i've)\b|(?:quand|si)\s+(?:je|j')|(?:когда|если)\s+я\b/i;

/** Whether the text says when it holds: a condition or a frequency, not about the speaker, and no report. */
export function saysWhenItHolds(content: string): boolean {
  return (CONDITION.test(content) || STANDING.test(content)) && !OWN_CASE.test(content) && !isReport(content);
}

export function isTaskRequest(content: string): boolean {
  return taskRequestReason(content) !== undefined;
}

export const taskRequestGate: Gate = {
  name: 'task-request',
  check: (rule) => taskRequestReason(rule.content),
};
