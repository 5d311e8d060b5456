// Sentences of a user message, in the languages the corpora hold (English, French, Russian, Chinese): the Latin and
// Cyrillic stops followed by a space, the CJK full stops without one, and line breaks.

/** Leading list marks and "note:" asides, which say nothing of what the sentence is. */
const LEAD =
  /^\s*(?:[-*•]\s+|\d+[.)]\s+|(?:note|remember|also|btw|fyi|ps|rappel|remarque|напоминаю|注意|记住)\s*[:,：，]\s*)/i;

export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|(?<=[。！？])|\n+/)
    .map((s) => s.replace(LEAD, '').trim())
    .filter(Boolean);
}

/** A question, in any of the languages: a question mark, or an English interrogative opening. */
export function isQuestion(sentence: string): boolean {
  return (
    /[?？]\s*$/.test(sentence) ||
    /^(?:how|what|why|where|when|which|who|does|do|did|can|could|is|are|should i|would|will you)\b/i.test(sentence)
  );
}

/** Words of a sentence, letters and digits of any script. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_'’-]+/gu) ?? [];
}
