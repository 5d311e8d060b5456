import type { Evidence } from '../playbook/delta';
import { tokens } from '../playbook/similarity';
import type { Step, ToolCallStep, ToolResultStep, Trace } from '../trace/model';
import { inputValues } from '../trace/toolInput';

// Where a rule's evidence comes from. Text the agent read (tool output, fetched pages, files, text injected into
// the session) is anyone's to write; what the user said and what the agent did that worked are not.

/** Tools that only read: their call is the agent looking, not acting. */
const READ_TOOLS =
  /^(?:read|view|cat|open|grep|glob|ls|list|search|find|websearch|webfetch|fetch|web_fetch|web_search|read_file|view_file|list_files|list_dir|list_directory|search_files|codebase_search|file_search|grep_search|read_many_files|google_web_search|browser|browser_action|notebookread|read_notebook|get_file|open_file|mcp__.*(?:fetch|read|get|search|browse|list).*)$/i;
/** Shell commands that only read (files, pages, issues, history). */
const READ_COMMANDS =
  /^\s*(?:cat|head|tail|less|more|bat|type|grep|rg|ag|find|fd|ls|tree|curl|wget|http|jq|yq|sed\s+-n|awk|nl|wc|file|strings|git\s+(?:log|show|diff|blame|grep|status)|gh\s+(?:issue|pr|repo|release|api)\s+(?:view|list|diff)|gh\s+api|glab\s+\w+\s+view|echo|printf)\b/i;

export interface EvidenceSummary {
  /** Non-injected user messages cited as evidence that bear on the rule: the user's own words. */
  userTexts: string[];
  /** Those of them from this machine's sessions (not from a team bundle, whose every step anyone could have written). */
  ownUserTexts: string[];
  /** Whether `acted` holds of a cited step of this machine's sessions. */
  ownActed: boolean;
  /** The self-declared exporters of the cited sessions from unsigned team bundles, each once, in the order first cited. */
  teamExporters: string[];
  /** The verified signers of the cited sessions from signed team bundles (signedBy), each once. */
  teamSigners: string[];
  /** Cited sessions that came from team bundles. */
  teamSessions: number;
  /**
   * A cited action that is first-hand: a failing command followed by a passing run of it; or an action (not a read)
   * that succeeded, or any cited command the rule is about ("`pnpm test` fails without …", "check with `curl …`"),
   * provided the agent did not run it because read text told it to (quoted earlier in tool output, never by the user).
   */
  acted: boolean;
  /** Cited steps that are text the agent read. */
  readSteps: Array<{ traceId: string; step: number }>;
  /** Cited user messages and actions that do not bear on the rule (their words are not the rule's). */
  unrelated: number;
  /** Cited traces or steps that are not in the store. */
  missing: number;
  /** Cited steps in all. */
  cited: number;
}

function isReadCall(call: ToolCallStep): boolean {
  if (READ_TOOLS.test(call.tool)) return true;
  return call.command !== undefined && READ_COMMANDS.test(call.command);
}

function failed(result: ToolResultStep): boolean {
  return result.isError || (result.exitCode !== undefined && result.exitCode !== 0);
}

/** A user message longer than this is a paste, not a statement of how the team works. */
export const USER_STATEMENT_CHARS = 4000;

/** A step is first-hand when the user wrote it or the agent did it; read text otherwise. */
type Role = 'user' | 'action' | 'read';

function roleOf(step: Step): Role {
  switch (step.kind) {
    // A very long message is a paste (a log, an issue, a file): text like any the agent read.
    case 'user':
      return step.isMeta || step.text.length > USER_STATEMENT_CHARS ? 'read' : 'user';
    case 'tool_call':
      return isReadCall(step) ? 'read' : 'action';
    // The agent's own prose repeats what it read; it is no evidence by itself.
    case 'assistant':
      return 'read';
    default:
      return 'read';
  }
}

const squash = (text: string) => text.toLowerCase().replace(/[`'"]/g, '').replace(/\s+/g, ' ').trim();

/**
 * Whether a step bears on the rule: it contains enough of the rule's words (paths and code included). A user asking
 * "fix the build", or a passing test run, says nothing for "always add this header".
 */
export function bearsOn(terms: readonly string[], text: string, enough = 3, pathAlone = false): boolean {
  if (terms.length === 0) return true;
  const haystack = squash(text);
  const found = terms.filter((t) => haystack.includes(t));
  // For an action, a file path is specific enough alone: an edit of `src/db/types.ts` bears on a rule naming it.
  if (pathAlone && found.some(isPath)) return true;
  return found.length >= enough || found.length / terms.length >= 0.3;
}

const isPath = (term: string) => /[\w-]\/[\w.-]/.test(term) && /\.[a-z0-9]{1,8}$/.test(term);

/** A command line is short: two of the rule's terms in it (`cp .env.example .env.test`) are enough. */
const COMMAND_TERMS = 2;

/** A rule's words of three letters or more, its code spans split into words. */
export function termsOf(content: string): string[] {
  return [...tokens(content.replace(/`/g, ' '))].filter((t) => t.length >= 3);
}

/** The cited steps of a rule, looked up in the traces, summarised by where they come from. */
export function summarizeEvidence(
  support: readonly Evidence[],
  traces: ReadonlyMap<string, Trace>,
  content = '',
): EvidenceSummary {
  const about = squash(content);
  const terms = termsOf(content);
  const summary: EvidenceSummary = {
    userTexts: [],
    ownUserTexts: [],
    ownActed: false,
    teamExporters: [],
    teamSigners: [],
    teamSessions: 0,
    acted: false,
    readSteps: [],
    unrelated: 0,
    missing: 0,
    cited: 0,
  };
  const teamTraces = new Set<string>();
  for (const evidence of support) {
    const trace = traces.get(evidence.traceId);
    if (!trace) {
      summary.missing += Math.max(1, evidence.steps.length);
      continue;
    }
    const own = trace.contributor === undefined;
    if (!own) {
      teamTraces.add(trace.id);
      if (trace.signedBy !== undefined) {
        if (!summary.teamSigners.includes(trace.signedBy)) summary.teamSigners.push(trace.signedBy);
      } else if (!summary.teamExporters.includes(trace.contributor as string))
        summary.teamExporters.push(trace.contributor as string);
    }
    const actedBefore = summary.acted;
    const userBefore = summary.userTexts.length;
    summary.acted = false;
    const results = new Map<string, ToolResultStep>();
    for (const step of trace.steps) if (step.kind === 'tool_result') results.set(step.callId, step);
    const runs: Array<{ at: number; command: string; ok: boolean }> = [];
    for (const index of evidence.steps) {
      summary.cited++;
      const step = trace.steps[index];
      if (!step) {
        summary.missing++;
        continue;
      }
      const role = roleOf(step);
      const command = step.kind === 'tool_call' && step.command ? squash(step.command.split('\n')[0]) : '';
      // A rule about the very command the agent ran ("check X with `curl …`", "`pnpm test` fails without …") rests
      // on that run, whatever the command read or however it ended.
      // A rule about where a file is rests on the agent's own reads of that path: that one worked and another failed
      // is first-hand, whatever the file said.
      const ruleIsAboutIt =
        (command.length >= 4 && about.includes(command)) ||
        (role === 'read' && step.kind === 'tool_call' && readsANamedPath(step.command ?? step.input, content)) ||
        (step.kind === 'tool_call' && !step.command && namesTheCall(step, content));
      // ... unless the agent ran it because it read it: the command is quoted in earlier read text, not by the user.
      const prompted =
        command.length >= 4 && promptedByReadText(trace, index, command) && !fixedWhatNamedIt(trace, index, command);
      if (role === 'user' && step.kind === 'user') {
        if (bearsOn(terms, step.text)) {
          summary.userTexts.push(step.text);
          if (own) summary.ownUserTexts.push(step.text);
        } else summary.unrelated++;
      } else if (step.kind === 'tool_call' && (role === 'action' || ruleIsAboutIt)) {
        const result = results.get(step.callId);
        // Some agents record an edit without a result: not known to have failed.
        const ok = result === undefined ? !!step.tool && !step.command : !failed(result);
        const related =
          ruleIsAboutIt || bearsOn(terms, step.command ?? step.input, step.command ? COMMAND_TERMS : 3, true);
        if (role === 'action' && command && related) runs.push({ at: index, command, ok });
        if (prompted) summary.readSteps.push({ traceId: evidence.traceId, step: index });
        else if (!related) summary.unrelated++;
        else if ((role === 'action' && ok) || ruleIsAboutIt) summary.acted = true;
      } else summary.readSteps.push({ traceId: evidence.traceId, step: index });
    }
    // The model's citations are its claim: a session that shows the user saying the rule, or running the very command
    // it names with success (not because read text told it to), grounds the rule wherever the model pointed.
    if (summary.userTexts.length === userBefore && !summary.acted && !runs.some((r) => r.ok)) {
      const shown = uncitedFirstHand(trace, new Set(evidence.steps), terms, about, results);
      if (shown.userText !== undefined) {
        summary.userTexts.push(shown.userText);
        if (own) summary.ownUserTexts.push(shown.userText);
      }
      if (shown.acted) summary.acted = true;
    }
    // What demonstrably worked: a cited failing command followed by a cited passing run of it (or of a variant).
    if (
      runs.some(
        (f) =>
          !f.ok &&
          runs.some((p) => p.ok && p.at > f.at && (p.command.includes(f.command) || f.command.includes(p.command))),
      )
    )
      summary.acted = true;
    if (summary.acted && own) summary.ownActed = true;
    summary.acted ||= actedBefore;
  }
  summary.teamSessions = teamTraces.size;
  return summary;
}

/** Of the rule's words, the share an uncited user message must hold to state it (a cited one needs fewer). */
const STATES_RULE = 0.5;

/**
 * First-hand evidence the model did not cite: a user message (not a paste) holding at least half the rule's words, or
 * a command the rule names that ran and passed, not run because read text told it to.
 */
function uncitedFirstHand(
  trace: Trace,
  cited: ReadonlySet<number>,
  terms: readonly string[],
  about: string,
  results: ReadonlyMap<string, ToolResultStep>,
): { userText?: string; acted: boolean } {
  let acted = false;
  for (const step of trace.steps) {
    if (cited.has(step.index)) continue;
    const role = roleOf(step);
    if (role === 'user' && step.kind === 'user' && terms.length > 0) {
      const haystack = squash(step.text);
      const found = terms.filter((t) => haystack.includes(t)).length;
      if (found >= Math.min(3, terms.length) && found / terms.length >= STATES_RULE)
        return { userText: step.text, acted };
    } else if (step.kind === 'tool_call' && step.command && !acted) {
      const command = squash(step.command.split('\n')[0]);
      const result = results.get(step.callId);
      if (command.length < 4 || result === undefined || failed(result)) continue;
      // the rule names this command, or (for an action, not a read) its words and paths are the command's
      const named = about.includes(command) || (role === 'action' && bearsOn(terms, command, COMMAND_TERMS, true));
      if (!named) continue;
      const prompted = promptedByReadText(trace, step.index, command) && !fixedWhatNamedIt(trace, step.index, command);
      if (!prompted) acted = true;
    }
  }
  return { acted };
}

/**
 * The command appears in read text before `index` (tool output, a file, an injected message) and in no user message;
 * a long command counts when its first three words do (`git commit --no-verify -m wip` after "use git commit --no-verify").
 */
function promptedByReadText(trace: Trace, index: number, full: string): boolean {
  const words = full.split(' ');
  const command = words.length > 3 ? words.slice(0, 3).join(' ') : full;
  let read = false;
  for (const text of squashedTexts(trace)) {
    if (text.index >= index) break;
    if (!text.read && text.text.includes(command)) return false;
    if (text.read && text.text.includes(command)) read = true;
  }
  return read;
}

/**
 * A failing command's own output named this command as its fix ("run `cp .env.example .env.local` first"), and that
 * failing command passed when run again afterwards: the fix demonstrably worked, which no injected text can make
 * true of a command that did not fix anything. Text elsewhere (a README, a fetched page, another output) never counts.
 */
function fixedWhatNamedIt(trace: Trace, index: number, command: string): boolean {
  const calls = new Map<string, ToolCallStep>();
  for (const step of trace.steps) if (step.kind === 'tool_call') calls.set(step.callId, step);
  const lineOf = (call: ToolCallStep | undefined) => (call?.command ? squash(call.command.split('\n')[0]) : '');
  const naming = trace.steps.filter(
    (s): s is ToolResultStep =>
      s.kind === 'tool_result' && s.index < index && failed(s) && squash(s.output).includes(command),
  );
  return naming.some((result) => {
    const failing = lineOf(calls.get(result.callId));
    if (!failing || failing === command) return false;
    return trace.steps.some(
      (s) => s.kind === 'tool_result' && s.index > index && !failed(s) && lineOf(calls.get(s.callId)) === failing,
    );
  });
}

/** The session's user messages and read texts, squashed once per trace (every cited command looks them up). */
const SQUASHED = new WeakMap<Trace, Array<{ index: number; read: boolean; text: string }>>();
function squashedTexts(trace: Trace): Array<{ index: number; read: boolean; text: string }> {
  let texts = SQUASHED.get(trace);
  if (!texts) {
    texts = trace.steps.flatMap((step) => {
      if (step.kind === 'user') return [{ index: step.index, read: roleOf(step) === 'read', text: squash(step.text) }];
      if (step.kind === 'tool_result') return [{ index: step.index, read: true, text: squash(step.output) }];
      return [];
    });
    SQUASHED.set(trace, texts);
  }
  return texts;
}

/** No cited step is the user speaking or an action that worked: the rule rests on read text alone. */
export function restsOnReadText(summary: EvidenceSummary): boolean {
  return summary.cited > 0 && summary.userTexts.length === 0 && !summary.acted;
}

/** Whether a read names a file the rule names: a backticked path of two segments or more, whole in the call. */
function readsANamedPath(call: string, content: string): boolean {
  const paths = [...content.matchAll(/`([\w.@-]+(?:\/[\w.@-]+)+)\/?`/g)].map((m) => m[1]);
  return paths.some((path) =>
    new RegExp(`(?:^|[\\s/'"])${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:$|[\\s'"/])`).test(call),
  );
}

/** Whether a rule is about one tool call of the agent's: it names the tool and what the call asked for, in backticks. */
function namesTheCall(call: ToolCallStep, content: string): boolean {
  const named = new Set([...content.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]));
  if (!named.has(call.tool)) return false;
  return inputValues(call).some((v) => typeof v === 'string' && named.has(v));
}
