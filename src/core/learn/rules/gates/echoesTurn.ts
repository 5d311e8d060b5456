import type { Trace } from '../../../trace/model';
import { classifyTurns, type Turn, type TurnKind } from '../../../trace/turns/classify';
import { sentencesOf } from '../../../trace/turns/sentences';
import { saysWhenItHolds, statesGenerally } from './taskRequest';
import type { Gate, GateContext, GatedRule } from './types';

// A model's lesson made of a user's own words, from a turn the dialogue shows was not a rule (work asked, an answer,
// a question, a report, injected context), is that turn, not a rule. A correction or a standing instruction, or a
// standing sentence inside any turn, is the user stating a rule: echoing it is fine. So are a task's words that say
// when or how often they hold ("when touching the cart, run `x` first": the turn reader, unsure, reads a task), and
// an answer to the agent that says how work is done here (asked which conventions to follow, the user states them);
// "it is ok" states none.

/** Turns whose words are never a rule by themselves. */
const NOT_A_RULE: ReadonlySet<TurnKind> = new Set(['task', 'reply', 'confirmation', 'context']);

/** Share of a lesson's word pairs found, in order, in a turn: above this, the lesson is that turn's words. */
export const ECHO_SHARE = 0.8;
/** Fewer word pairs than this say too little to tell an echo from a common phrase. */
const MIN_PAIRS = 2;

const IDEOGRAPHIC = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Words in order: a run of letters or digits in an alphabet, one character in an ideographic or syllabic script. */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const m of text
    .normalize('NFKC')
    .toLowerCase()
    .matchAll(/[\p{L}\p{N}_]+/gu))
    if (IDEOGRAPHIC.test(m[0])) {
      // a run mixing scripts (`vue的`) splits at each ideograph, keeping alphabet words whole
      for (const part of m[0].match(
        /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu,
      ) ?? [])
        words.push(part);
    } else words.push(m[0]);
  return words;
}

function pairsOf(words: readonly string[]): Set<string> {
  const pairs = new Set<string>();
  for (let i = 1; i < words.length; i++) pairs.add(`${words[i - 1]}\u0000${words[i]}`);
  return pairs;
}

/** Whether `lesson` is made of `said`'s words, in its order. */
export function echoes(lesson: ReadonlySet<string>, said: string): boolean {
  if (lesson.size < MIN_PAIRS) return false;
  const source = pairsOf(wordsOf(said));
  let found = 0;
  for (const pair of lesson) if (source.has(pair)) found++;
  return found / lesson.size >= ECHO_SHARE;
}

/**
 * Whether the lesson repeats what a sentence of the user's says: its words, and more than half of them. A lesson of
 * a sentence's first words ("In the config file" of "In the config file, sort the keys") is a fragment, not the rule.
 */
function states(lesson: ReadonlySet<string>, words: readonly string[], sentence: string): boolean {
  return echoes(lesson, sentence) && words.length * 2 > wordsOf(sentence).length;
}

/**
 * An answer that says how work is done here: with a mark that makes it hold beyond the task, or naming the command,
 * variable or path to use. "It is ok", "the second one", "no and no" decide one thing.
 */
const saysHow = (content: string) => statesGenerally(content) || /`[^`\n]+`/.test(content);

const TURNS = new WeakMap<Trace, Turn[]>();
function turnsOf(trace: Trace): Turn[] {
  let turns = TURNS.get(trace);
  if (!turns) TURNS.set(trace, (turns = classifyTurns(trace.steps)));
  return turns;
}

type Echo = { kind: TurnKind; traceId: string; index: number };

/**
 * The turn a lesson echoes that is no rule, its cited sessions first, then every other session of the run; undefined
 * when it echoes none, or echoes the user stating it. Injected context is never the user stating anything: the same
 * words met again later in a session are the same injection, so context wins over a standing reading.
 */
function echoedNonRule(rule: GatedRule, context: GateContext): Echo | undefined {
  const words = wordsOf(rule.content.replace(/`/g, ' '));
  const lesson = pairsOf(words);
  if (lesson.size < MIN_PAIRS) return undefined;
  const order = [...new Set([...rule.support.map((e) => e.traceId), ...context.traces.keys()])];
  let notRule: Echo | undefined;
  let stated = false;
  for (const id of order) {
    const trace = context.traces.get(id);
    if (!trace) continue;
    for (const turn of turnsOf(trace)) {
      if (!turn.text || !echoes(lesson, turn.text)) continue;
      const echo = { kind: turn.kind, traceId: id, index: turn.contentIndex };
      if (turn.kind === 'context') return echo;
      const said = turn.kind === 'correction' || turn.kind === 'standing' ? sentencesOf(turn.text) : turn.standing;
      if (said.some((sentence) => states(lesson, words, sentence))) stated = true;
      else if (turn.kind === 'task' ? saysWhenItHolds(rule.content) : turn.kind === 'reply' && saysHow(rule.content))
        stated = true;
      else if (NOT_A_RULE.has(turn.kind)) notRule ??= echo;
    }
  }
  return stated ? undefined : notRule;
}

const KIND_SAID: Record<TurnKind, string> = {
  task: 'work asked for in one task',
  reply: 'an answer to the agent',
  confirmation: "an answer to the tool's prompt",
  context: 'injected context, not the user speaking',
  correction: 'a correction',
  standing: 'a standing instruction',
};

export const echoesTurnGate: Gate = {
  name: 'echoes-turn',
  check: (rule, context) => {
    const notRule = echoedNonRule(rule, context);
    if (!notRule) return undefined;
    return `it repeats the user's turn ${notRule.index} of session ${notRule.traceId}, ${KIND_SAID[notRule.kind]}: that turn, not a rule`;
  },
};
