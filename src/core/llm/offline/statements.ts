import type { Turn } from '../../trace/turns/classify';
import { withoutHalt } from '../../trace/turns/cues';

// Conventions a user states as standing instructions ("always run `make lint` before committing", "payments go
// through the gateway client", "use uv for dependencies"), in any of their turns, the opening one included. Which
// sentences are standing is the turn reader's call (trace/turns/standing.ts): by their form, never by a word in them.

/** A sentence leaning on the one before ("every call goes through it") says nothing read alone. */
const LEANING =
  /\b(?:through|use|with|via|in|from|run|call) (?:it|this|that|them|these|those)\b|^(?:it|this|that|they)\b/i;

const MIN_LENGTH = 16;

/** The sentences of a user turn that state a convention of the repository, as they were written. */
export function statedConventions(turn: Turn): string[] {
  return turn.standing
    .map(withoutHalt)
    .filter((s) => s.length >= MIN_LENGTH && !LEANING.test(s))
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
