import { codeTerms } from '../learn/codeTerms';
import { isPlaceholder, namedFiles, ruleCommands } from '../learn/ruleText';
import { commandIn } from '../llm/prompts';
import type { Step, Trace } from '../trace/model';
import { bearsOn, termsOf } from '../trust/provenance';

// A lesson read back from a file (a CI shard's reflections) is believed only as far as the session it cites shows it:
// the steps it cites, as this machine stored them, must hold what it prescribes. A real session's step numbers cost
// nothing to copy; what those steps say cannot be edited in someone else's store.

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

/** `cargo test -p <crate>`, `pytest ...`: each placeholder word stands for what the session wrote there. */
function withPlaceholders(command: string): string {
  return command
    .split(/\s+/)
    .map((word) => (isPlaceholder(word) ? '<any>' : word))
    .join(' ');
}

/** A bare tool (`uv`, `go`) as a word of its own; a longer command as `commandIn` finds it. */
function showsCommand(text: string, command: string): boolean {
  const wanted = withPlaceholders(command.toLowerCase());
  if (!/\s/.test(wanted) && !wanted.includes('<'))
    return new RegExp(`(?:^|[^\\w-])${wanted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(text);
  return commandIn(text, wanted);
}

/**
 * What `content` prescribes that the cited steps of `trace` do not show, each as it reads in the lesson: its commands,
 * the files it names, the names it asks for (identifiers, paths, variables). A lesson that only rules things out is
 * held to what it rules out; one naming nothing at all, to its words. Empty when the steps show all of it.
 */
export function unshownInSteps(content: string, trace: Trace, steps: readonly number[]): string[] {
  const text = steps
    .map((i) => trace.steps[i])
    .filter((step): step is Step => step !== undefined)
    .map(stepText)
    .join('\n')
    .toLowerCase();
  const { prescribed, forbidden } = ruleCommands(content);
  const files = namedFiles(content);
  const terms = [...codeTerms(content)].filter(([, term]) => term.whole);
  // a command's or a file's own names are checked with it
  const named = (commands: readonly string[], also: readonly string[], negated: boolean) => {
    const covered = [...commands, ...also].join(' ').toLowerCase();
    return terms.filter(([name, t]) => t.negated === negated && !covered.includes(name)).map(([name]) => name);
  };
  let commands = prescribed;
  let names = named(prescribed, files, false);
  if (commands.length + files.length + names.length === 0) {
    commands = forbidden;
    names = named(forbidden, [], true);
  }
  const unshown = [
    ...commands.filter((c) => !showsCommand(text, c)).map((c) => `\`${c}\``),
    ...files.filter((f) => !text.includes(f.toLowerCase())).map((f) => `\`${f}\``),
    ...names.filter((n) => !text.includes(n)).map((n) => `\`${n}\``),
  ];
  if (commands.length + files.length + names.length === 0 && !bearsOn(termsOf(content), text))
    unshown.push('the words of its rule');
  return unshown;
}
