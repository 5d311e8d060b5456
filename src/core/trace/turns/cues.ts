import { wordsOf } from './sentences';

// How a correction opens or turns, in the corpora's languages: a refusal or a halt at the start ("no", "wait", "non",
// "нет", "不"), a contrast ("instead of", "au lieu de", "вместо", "而不是"), or the agent's own slip named ("you
// forgot"). A cue alone decides nothing: the turn's place (after an action, followed by a change of course) does.

const HALT_WORDS =
  "(?:no|nope|nah|wrong|stop|wait|hold on|actually|instead|hmm,? no|not (?:that|like that|this)|that'?s (?:wrong|not (?:right|it|what))|undo|revert|non|pas (?:ça|comme ça)|attends|arr[êe]te|нет|не так|не надо|стоп|подожди|погоди|不对|不是|不要|别|等等|等一下|停)";
const OPENING = new RegExp(`^\\s*${HALT_WORDS}(?=$|[\\s,.!:;—–\\-，。！：])`, 'i');
/** A halt set off by punctuation ("No — use pnpm"): "No log.Printf please" is the prohibition itself and keeps it. */
const HALT = new RegExp(`^\\s*${HALT_WORDS}\\s*[,.!:;—–\\-，。！：]+\\s*`, 'i');

export function withoutHalt(text: string): string {
  return text.replace(HALT, '').trim();
}

const CONTRAST =
  /\b(?:instead of|rather than|not\s+\S+\s+but|, not\s+\S+|you (?:forgot|missed|skipped|should(?:n't)?|need to|didn't)|please don'?t|don'?t (?:use|run|call|edit|touch|change|add|commit|push)|do not (?:use|run|call|edit|touch|change|add|commit|push))\b|au lieu de|plutôt que|вместо|а не\s|而不是|不要用|别用/i;

export function hasCorrectionCue(text: string): boolean {
  const head = text.slice(0, 600);
  return OPENING.test(head) || CONTRAST.test(head);
}

/** A turn that only halts ("no, wait", "stop", "нет"): what it means comes in the user's next turn. */
export function isContentless(text: string): boolean {
  const rest = text.replace(OPENING, '').replace(OPENING, '');
  return wordsOf(rest).length <= 2 && !/`/.test(rest);
}

/** A turn that thanks or adds the next step ("Thanks. Now run the linter too."): it moves on, it corrects nothing. */
const MOVES_ON =
  /^\s*(?:thanks|thank you|thx|great|nice|perfect|lgtm|ok(?:ay)?|good|merci|parfait|спасибо|отлично|谢谢|好的|很好)\b|\b(?:now|next|then|too|also|as well|aussi|ensuite|тоже|также|потом|теперь)\b|[也还然后]/i;

export function movesOn(text: string): boolean {
  return MOVES_ON.test(text.slice(0, 300));
}
