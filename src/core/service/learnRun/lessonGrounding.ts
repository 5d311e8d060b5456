import { codeTerms } from '../../learn/rules/codeTerms';
import { isPlaceholder, namedFiles, ruleCommands } from '../../learn/rules/ruleText';
import { commandIn } from '../../llm/prompts';
import type { Step, Trace } from '../../trace/model';
import { bearsOn, termsOf } from '../../trust/provenance';
import { escapeRegExp } from '../../util/regExp';

// A lesson read back from a file (a CI shard's reflections) is believed only as far as the session it cites shows it,
// as this machine stored it: a real session's step numbers cost nothing to copy, what its steps say cannot be edited
// in someone else's store. Everything the lesson names must be in the session, and what it prescribes must be in the
// steps it cites. (Each named thing in the cited steps alone would doubt honest lessons: "run `make proto` before
// `make build`" cites the failure and its fix, not the build it speaks of.)

function stepText(step: Step): string {
  switch (step.kind) {
    case 'user':
    case 'assistant':
    case 'error':
      return step.text;
    case 'tool_call':
      return `${step.command ?? ''}\n${step.input}`;
    case 'tool_result':
      return step.output;
    case 'subagent':
      return step.description ?? '';
  }
}

const textOf = (steps: readonly Step[]) => steps.map(stepText).join('\n').toLowerCase();

/** A session's whole text, lower-cased once: every lesson of its reflection is looked up in it. */
const WHOLE = new WeakMap<Trace, string>();
function wholeText(trace: Trace): string {
  let text = WHOLE.get(trace);
  if (text === undefined) WHOLE.set(trace, (text = textOf(trace.steps)));
  return text;
}

/** A redaction mark stands for what the session had there; `<file>`, `...` and the like for what it wrote. */
const REDACTED = /\[redacted:[^\]]*\]/g;
const hasWildcard = (name: string) => /[<>*{}[\]]/.test(name);

/** A bare tool (`uv`, `go`) as a word of its own; a longer command as `commandIn` finds it. */
function showsCommand(text: string, command: string): boolean {
  const wanted = command
    .toLowerCase()
    .replace(REDACTED, '<any>')
    .split(/\s+/)
    .map((word) => (isPlaceholder(word) ? '<any>' : word))
    .join(' ');
  if (!/\s/.test(wanted) && !wanted.includes('<'))
    return new RegExp(`(?:^|[^\\w-])${escapeRegExp(wanted)}(?![\\w-])`).test(text);
  return commandIn(text, wanted);
}

interface Named {
  label: string;
  shownIn: (text: string) => boolean;
}

/** What a lesson names: its commands, files and names (identifiers, paths, variables); what it rules out only when it asks for nothing. */
function namedIn(content: string): Named[] {
  const { prescribed, forbidden } = ruleCommands(content);
  const files = namedFiles(content).filter((f) => !hasWildcard(f));
  const terms = [...codeTerms(content)].filter(([name, term]) => term.whole && !hasWildcard(name));
  // a command's or a file's own names are checked with it
  const names = (commands: readonly string[], also: readonly string[], negated: boolean) => {
    const covered = [...commands, ...also].join(' ').toLowerCase();
    return terms.filter(([name, t]) => t.negated === negated && !covered.includes(name)).map(([name]) => name);
  };
  let commands = prescribed;
  let plain = names(prescribed, files, false);
  if (commands.length + files.length + plain.length === 0) {
    commands = forbidden;
    plain = names(forbidden, [], true);
  }
  return [
    ...commands.map((c) => ({ label: `\`${c}\``, shownIn: (text: string) => showsCommand(text, c) })),
    ...files.map((f) => ({ label: `\`${f}\``, shownIn: (text: string) => text.includes(f.toLowerCase()) })),
    ...plain.map((n) => ({ label: `\`${n}\``, shownIn: (text: string) => text.includes(n) })),
  ];
}

/**
 * Why the session, as stored here, does not bear out `content` cited at `steps`: something it names is nowhere in
 * the session, or the cited steps show none of it (for a lesson naming nothing, none of its words). Undefined when it
 * is borne out.
 */
export function groundingGap(content: string, trace: Trace, steps: readonly number[]): string | undefined {
  const cited = textOf(steps.map((i) => trace.steps[i]).filter((step): step is Step => step !== undefined));
  const where = `session ${trace.id} as stored here`;
  const named = namedIn(content);
  if (named.length === 0)
    return bearsOn(termsOf(content), cited)
      ? undefined
      : `step(s) ${steps.join(', ')} of ${where} do not bear on its words`;
  const gaps: string[] = [];
  const whole = wholeText(trace);
  const nowhere = named.filter((n) => !n.shownIn(whole));
  if (nowhere.length > 0) gaps.push(`${where} nowhere shows ${nowhere.map((n) => n.label).join(', ')}`);
  if (!named.some((n) => n.shownIn(cited)))
    gaps.push(`step(s) ${steps.join(', ')} of ${where} show none of ${named.map((n) => n.label).join(', ')}`);
  return gaps.length > 0 ? gaps.join('; ') : undefined;
}
