// Conventions a user states in plain words ("always run `make lint` before committing", "payments go through the
// gateway client", "use uv for dependencies"), in any of their messages, the opening one included. A sentence about
// today's task ("use the new helper in this file", "fix the flaky test") is not a convention: the markers below
// speak of the repository in general, and words that point at the task at hand rule a sentence out.

const GENERAL = [
  /\b(?:always|never)\b/i,
  /\bbefore (?:committing|you commit|each commit|every commit|pushing|you push|opening a (?:pr|pull request)|merging)\b/i,
  /\b(?:goes|go|must go|should go|has to go|have to go|must be routed|are routed|is routed) through\b/i,
  /\b(?:we|this repo|this project|the team|our team|here we)\s+(?:only\s+)?(?:use|uses|prefer|prefers|run|runs)\b/i,
  /\buse `[^`]+` (?:for|to)\b/i,
  /\buse [\w.-]+ (?:for|to) (?:all|every|any|installing|adding|dependencies|packages)\b/i,
  /\b(?:every|all|any) [\w-]+(?: [\w-]+)? (?:must|should|need to|needs to|has to|have to)\b/i,
  /\bin this (?:repo|repository|project|crate|codebase|package|module|workspace|monorepo)\b/i,
  /\bwe (?:don't|do not|never|always|only)\b/i,
];

/** Words that tie a sentence to the task at hand rather than to how the repository works. */
const ONE_OFF =
  /\b(?:this (?:function|file|bug|test|pr|branch|ticket|issue|change|time|one)|for now|today|right now|just this|the failing test|these tests?)\b/i;

/** A sentence leaning on the one before ("every call goes through it") says nothing read alone. */
const LEANING =
  /\b(?:through|use|with|via|in|from|run|call) (?:it|this|that|them|these|those)\b|^(?:it|this|that|they)\b/i;

const QUESTION = /^(?:how|what|why|where|when|which|who|does|do|did|can|could|is|are|should i|would)\b/i;

const MIN_LENGTH = 16;
const MAX_LENGTH = 240;

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) =>
      s
        .replace(/^\s*(?:[-*•]\s+|(?:note|remember|also|btw|fyi|ps)[:,]\s*)/i, '')
        .replace(/^\s*(?:no|nope|wrong|actually|hmm,? no)\b\s*[,.!:—–-]+\s*/i, '')
        .trim(),
    )
    .filter(Boolean);
}

/** The sentences of a user message that state a convention of the repository, as they were written. */
export function statedConventions(text: string): string[] {
  return sentences(text.slice(0, 4000))
    .filter((s) => s.length >= MIN_LENGTH && s.length <= MAX_LENGTH)
    .filter((s) => !s.endsWith('?') && !QUESTION.test(s))
    .filter((s) => GENERAL.some((pattern) => pattern.test(s)) && !ONE_OFF.test(s) && !LEANING.test(s))
    .map(asSentence);
}

/** Programs a sentence may start with, lower-case as typed (`npm is not used here`). */
const PROGRAMS = /^(?:npm|pnpm|yarn|bun|npx|uv|pip|poetry|cargo|go|make|git|mix|deno|bundle|rails|rake|gradle|dotnet)$/;

/** A statement as a rule: its first word capitalized, unless it is code (`bin/rails server never works …`). */
export function asSentence(text: string): string {
  const first = text.split(/\s/, 1)[0];
  if (/[/._:`$]/.test(first) || PROGRAMS.test(first)) return text;
  return text.charAt(0).toUpperCase() + text.slice(1);
}
