import { isQuestion, sentencesOf } from './sentences';

// A standing instruction is told by its shape, not by a word in it: a prescription (an imperative, or a generic
// subject with a present or modal verb) whose scope is every time rather than this task. "Never" in "so I can never
// change the date" describes what happened to the speaker; "never call fetch directly" prescribes. Each language
// gives the same three parts: a marker of scope, a prescriptive form, and what rules a sentence out (the speaker as
// subject, the past, a pointer to this task's own objects).

/** The team as a habitual subject: "we don't write Display impls by hand", as often said of the code at hand. */
const TEAM_HABIT = String.raw`\b(?:we|the team|our team)\s+(?:don'?t|do not|never|always|only|usually|normally|use|prefer)\b`;

/** Scope said outright, beyond this task: every time, from now on, in this repository (en, fr, ru, zh). */
const OUTRIGHT_SCOPE = [
  String.raw`\b(?:always|never|whenever|every ?time|from now on|going forward|by default|as a rule|in general)\b`,
  String.raw`\b(?:every|all|any|each)\s+[\p{L}-]+`,
  // a universal indefinite: "don't edit anything under src/generated/"
  String.raw`\b(?:anything|everything|anywhere|everywhere|ever)\b`,
  String.raw`\b(?:in|for|across) (?:this|the|our) (?:repo|repository|project|codebase|crate|monorepo|workspace|team)\b`,
  String.raw`\b(?:before|after) (?:committing|pushing|each|every|any|merging|a |you )`,
  String.raw`\b(?:goes|go|must go|should go|are routed|is routed) through\b`,
  // the repository as the subject: "this repo uses pnpm" is about every task in it
  String.raw`\b(?:this|our) (?:repo|repository|project|codebase|monorepo|workspace) (?:only )?(?:uses|prefers|runs|is a)\b`,
  // "use uv for dependencies": a purpose with no determiner is a kind of thing, not one thing of this task
  String.raw`\buse\s+\S+\s+(?:for|to)\s+(?!(?:the|this|that|these|those|my|it)\b)[\p{L}-]+`,
  String.raw`(?:^|\s)(?:toujours|jamais|désormais|dorénavant|à partir de maintenant|chaque fois|à chaque|dans ce (?:dépôt|projet|repo))`,
  String.raw`(?:всегда|никогда|впредь|с этого момента|каждый раз|в этом (?:репозитории|проекте|репо))`,
  String.raw`(?:总是|始终|永远|每次|以后|今后|从现在开始|一律|务必|在这个(?:仓库|项目|代码库))`,
];

const SCOPE = new RegExp([...OUTRIGHT_SCOPE, TEAM_HABIT].join('|'), 'iu');
const OUTRIGHT = new RegExp(OUTRIGHT_SCOPE.join('|'), 'iu');

/**
 * Whether a standing sentence says its scope outright, not only through the team as its subject: one session's "we
 * use git hooks for that", said of the change at hand, is no repository rule until another session says it too.
 */
export function statesScopeOutright(sentence: string): boolean {
  return OUTRIGHT.test(sentence);
}

/** A choice between ways: "use pnpm here, not npm", "instead of", a prohibition (en, fr, ru, zh). */
const CONTRAST =
  /\b(?:not|never|instead of|rather than|don'?t|do not|no longer)\b|(?:^|\s)(?:pas|jamais|plutôt que|au lieu de)(?=\s|$)|(?:^|\s)(?:не|вместо|никогда)(?=\s)|(?:不要|别|不是|而不是|不用)/iu;

/**
 * Whether a correction says something beyond the work it corrects: a scope ("never works here") or a choice between
 * ways ("use pnpm, not npm"). "Reorder the lists" only asks for the work again.
 */
export function statesScopeOrChoice(text: string): boolean {
  return SCOPE.test(text) || CONTRAST.test(text);
}

/** The speaker as subject, or a past event: a report of what happened, not a prescription. */
const NARRATIVE = new RegExp(
  [
    String.raw`^(?:so |and |but )?(?:i|i'm|i've|i'd|my|me)\b`,
    String.raw`(?:^|[,;:]\s*)(?:so |and |but )?(?:i|it|this|that) (?:can|could|can't|cannot|couldn't|will|won't|did|didn't|was|wasn't|had|have|has|got|get)\b`,
    // the past as the sentence's own verb: "a migration that was already applied" only describes one
    String.raw`(?<!\b(?:that|which|who|already)\s+)\b(?:was|were|happened|broke|stopped|showed|got)\b`,
    // a counterfactual describes how something reads or looks: "it reads as if we always start a branch"
    String.raw`\bas (?:if|though)\b`,
    String.raw`^(?:je|j'|moi|mon|ma)\b`,
    String.raw`^(?:я|мне|мой|моя)(?=\s)`,
    String.raw`(?:^我|了$|了[，。])`,
  ].join('|'),
  'iu',
);

/** What only this task has: this file or bug, now, today (en, fr, ru, zh). */
const THIS_TASK = new RegExp(
  [
    String.raw`\b(?:this|that) (?:function|file|bug|test|pr|branch|ticket|issue|change|time|one|line|method|class|component)\b`,
    String.raw`\b(?:for now|today|right now|just this|the failing test|these tests?|this once)\b`,
    String.raw`(?:^|\s)(?:ce fichier|ce bug|ce test|cette fois|pour l'instant|pour le moment|aujourd'hui)`,
    String.raw`(?:этот файл|этот тест|эту ошибку|в этот раз|сейчас|сегодня)`,
    String.raw`(?:这个文件|这个测试|这个bug|这次|现在|今天)`,
  ].join('|'),
  'iu',
);

/** A prescriptive form: an imperative opening, a modal of obligation, or the team as a habitual subject. */
const PRESCRIPTIVE = new RegExp(
  [
    // the scope word opens the clause: "never call …", "always run …", "don't ever …"
    String.raw`(?:^|[,;:—–-]\s*)(?:please\s+)?(?:always|never|don'?t(?: ever)?|do not|whenever|from now on|every ?time|in this (?:repo|repository|project|codebase))\b`,
    String.raw`\b(?:must|should|shall|has to|have to|needs? to|is to|are to|may only)\b`,
    String.raw`\b(?:we|you|agents?|the team|our team|one|this (?:repo|repository|project|codebase|monorepo|workspace))\s+(?:always|never|only|don'?t|do not|use|uses|run|runs|prefer|prefers|keep|write|put|start)\b`,
    String.raw`\b(?:goes|go|are routed|is routed) through\b`,
    // "all API calls go through …": a generic plural subject with a present verb
    String.raw`^(?:all|every|each|any)\s+[\p{L}-]+(?:\s+[\p{L}-]+)?\s+\p{L}+`,
    String.raw`^(?:please\s+)?(?:use|run|call|put|keep|write|start|prefer|add|regenerate|avoid)\b`,
    String.raw`(?:^|[,;:]\s*)(?:toujours|jamais|ne\s+\S+\s+jamais|n'\S+\s+jamais|utilise|lance|exécute|passe)|(?:^|\s)(?:on|nous)\s+\S+\s+(?:toujours|jamais)|(?:^|\s)(?:il faut|doit|doivent)(?=\s)`,
    String.raw`(?:^|[,;:]\s*)(?:всегда|никогда|не\s+\S+(?:й|те)(?=\s)|используй|запускай)|(?:^|\s)(?:мы\s+(?:всегда|никогда)|нужно|надо|следует|должн)`,
    String.raw`(?:永远不要|不要|别|请|一律|务必|必须|应该|都要|都用|总是要|始终要)`,
  ].join('|'),
  'iu',
);

const MIN_LENGTH = 8;
const MAX_LENGTH = 240;

/** Whether a sentence reports what happened (the speaker as subject, or the past) rather than saying what to do. */
export function isReport(sentence: string): boolean {
  return NARRATIVE.test(sentence.trim());
}

/** Whether one sentence is a standing instruction: general in scope, prescriptive in form, not a report or a question. */
export function isStandingSentence(sentence: string): boolean {
  const s = sentence.trim();
  if (s.length < MIN_LENGTH || s.length > MAX_LENGTH || isQuestion(s)) return false;
  return SCOPE.test(s) && PRESCRIPTIVE.test(s) && !NARRATIVE.test(s) && !THIS_TASK.test(s);
}

/** The sentences of a message that state a standing instruction, as written. */
export function standingSentences(text: string): string[] {
  return sentencesOf(text.slice(0, 4000)).filter(isStandingSentence);
}
