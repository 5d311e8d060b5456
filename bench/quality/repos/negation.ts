// Shared pieces of the repositories' matchers.

/** Within one sentence: a dot inside a word (`loader.rs`, `.env`) does not end it. */
const SAME_SENTENCE = '(?:[^.;]|\\.(?=\\S))*';

/** A command named only to be ruled out ("not `npm install`", "never npm", "instead of …"). */
export const negated = (command: string): RegExp =>
  new RegExp(`\\b(not|never|no|instead of|rather than|avoid|don't|do not|without)\\b${SAME_SENTENCE}${command}`, 'i');

/** A command named as the one that fails ("When `rustfmt x.rs` fails with …, `cargo fmt` resolves it"). */
export const failing = (command: string): RegExp =>
  new RegExp(`${command}${SAME_SENTENCE}\\b(fails?|failed|is broken|breaks|cannot)\\b`, 'i');

/** What makes a command named in a statement not a prescription of it. */
export const notPrescribed = (command: string): RegExp[] => [negated(command), failing(command)];

/** A command that is not part of a longer word (`npm`, not the end of `pnpm`). */
export const bare = (command: string): RegExp => new RegExp(`(?<![\\w-])${command}`);
