// The shapes of what Aider writes to its chat history besides the chat itself (aider/io.py, coders/base_coder.py,
// repo.py, commands.py): its yes/no prompts with their answers, the edits it applied, the commits it made, and the
// slash commands the user typed.

/** Aider's slash commands (commands.py `cmd_*`): a typed `/word` runs the one command it is a unique prefix of. */
const COMMANDS = [
  'add',
  'architect',
  'ask',
  'chat-mode',
  'clear',
  'code',
  'commit',
  'context',
  'copy',
  'copy-context',
  'diff',
  'drop',
  'edit',
  'editor',
  'editor-model',
  'exit',
  'git',
  'help',
  'lint',
  'load',
  'ls',
  'map',
  'map-refresh',
  'model',
  'models',
  'multiline-mode',
  'ok',
  'paste',
  'quit',
  'read-only',
  'reasoning-effort',
  'report',
  'reset',
  'run',
  'save',
  'settings',
  'test',
  'think-tokens',
  'tokens',
  'undo',
  'voice',
  'weak-model',
  'web',
];

export interface SlashCommand {
  /** The command it runs (`undo` for `/u`), or undefined when the word names none or several. */
  name?: string;
  args: string;
}

/** The command a user input runs, as Aider resolves it; `!cmd` is `/run cmd`. Undefined for words to the model. */
export function slashCommand(text: string): SlashCommand | undefined {
  if (text.startsWith('!')) return { name: 'run', args: text.slice(1).trim() };
  if (!text.startsWith('/')) return undefined;
  const word = /^\/(\S*)/.exec(text)?.[1] ?? '';
  const args = text.slice(word.length + 1).trim();
  const matching = COMMANDS.filter((c) => c.startsWith(word));
  const name = matching.length === 1 ? matching[0] : matching.find((c) => c === word);
  return { name, args };
}

export interface Confirmation {
  question: string;
  answer: string;
}

// confirm_ask since Aider 0.52: `<question> (Y)es/(N)o[/(A)ll][/(S)kip all][/(D)on't ask again] [<default>]: <answer>`
const CONFIRMATION =
  /^(.*?) \(Y\)es\/\(N\)o(?:\/\(A\)ll)?(?:\/\(S\)kip all)?(?:\/\(D\)on't ask again)? \[[^\]\n]*\]:(.*)$/;
// before it: `<question>? [Y/n] <answer>`, or just `<question>? <answer>`
const OLD_CONFIRMATION = /^(.*\?)(?: \[[YyNn]\/[YyNn]\])? (y|n|yes|no)$/i;

/**
 * One of Aider's yes/no prompts with the answer it logged, or undefined. `loose` also takes the older shape, which
 * says less (a question and a yes or no): only for Aider's own `> ` lines, never for what the user typed.
 */
export function confirmation(line: string, loose = false): Confirmation | undefined {
  const m = CONFIRMATION.exec(line) ?? (loose ? OLD_CONFIRMATION.exec(line) : null);
  return m ? { question: m[1].trim(), answer: m[2].trim() } : undefined;
}

/** `Applied edit to <path>` (base_coder.apply_updates): the path as Aider names it, relative to the repository. */
export function appliedEdit(line: string): string | undefined {
  return /^Applied edit to (.+)$/.exec(line)?.[1];
}

/** `Commit <short hash> <message>` (repo.commit). */
export function commitNotice(line: string): { hash: string; message: string } | undefined {
  const m = /^Commit ([0-9a-f]{7,40}) (.*)$/.exec(line);
  return m ? { hash: m[1], message: m[2].trim() } : undefined;
}

/** `Committing <path> before applying edits.`: the file the next commit holds (its uncommitted changes). */
export function dirtyCommit(line: string): string | undefined {
  return /^Committing (.+) before applying edits\.$/.exec(line)?.[1];
}

/** A POSIX shell word for `text`, so that a stored command says what it would do. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
