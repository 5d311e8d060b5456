import type { Evidence } from '../playbook/delta';
import type { Step, ToolCallStep, ToolResultStep, Trace } from '../trace/model';

// Where a rule's evidence comes from. Text the agent read (tool output, fetched pages, files, text injected into
// the session) is anyone's to write; what the user said and what the agent did that worked are not.

/** Tools that only read: their call is the agent looking, not acting. */
const READ_TOOLS = /^(?:read|view|cat|open|grep|glob|ls|list|search|find|websearch|webfetch|fetch|web_fetch|web_search|read_file|view_file|list_files|list_dir|list_directory|search_files|codebase_search|file_search|grep_search|read_many_files|google_web_search|browser|browser_action|notebookread|read_notebook|get_file|open_file|mcp__.*(?:fetch|read|get|search|browse|list).*)$/i;
/** Shell commands that only read (files, pages, issues, history). */
const READ_COMMANDS = /^\s*(?:cat|head|tail|less|more|bat|type|grep|rg|ag|find|fd|ls|tree|curl|wget|http|jq|yq|sed\s+-n|awk|nl|wc|file|strings|git\s+(?:log|show|diff|blame|grep|status)|gh\s+(?:issue|pr|repo|release|api)\s+(?:view|list|diff)|gh\s+api|glab\s+\w+\s+view|echo|printf)\b/i;

export interface EvidenceSummary {
  /** Non-injected user messages cited as evidence: the user's own words. */
  userTexts: string[];
  /**
   * A cited action (not a read) that worked: it succeeded (a failing command followed by a passing one ends in
   * such a result); or any cited command the rule is about ("`pnpm test` fails without …", "check with `curl …`").
   */
  acted: boolean;
  /** Cited steps that are text the agent read. */
  readSteps: Array<{ traceId: string; step: number }>;
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

/** A step is first-hand when the user wrote it or the agent did it; read text otherwise. */
type Role = 'user' | 'action' | 'read';

function roleOf(step: Step): Role {
  switch (step.kind) {
    case 'user': return step.isMeta ? 'read' : 'user';
    case 'tool_call': return isReadCall(step) ? 'read' : 'action';
    // The agent's own prose repeats what it read; it is no evidence by itself.
    case 'assistant': return 'read';
    default: return 'read';
  }
}

const squash = (text: string) => text.toLowerCase().replace(/[`'"]/g, '').replace(/\s+/g, ' ').trim();

/** The cited steps of a rule, looked up in the traces, summarised by where they come from. */
export function summarizeEvidence(support: readonly Evidence[], traces: ReadonlyMap<string, Trace>, content = ''): EvidenceSummary {
  const about = squash(content);
  const summary: EvidenceSummary = { userTexts: [], acted: false, readSteps: [], missing: 0, cited: 0 };
  for (const evidence of support) {
    const trace = traces.get(evidence.traceId);
    if (!trace) {
      summary.missing += Math.max(1, evidence.steps.length);
      continue;
    }
    const results = new Map<string, ToolResultStep>();
    for (const step of trace.steps) if (step.kind === 'tool_result') results.set(step.callId, step);
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
      const ruleIsAboutIt = command.length >= 4 && about.includes(command);
      if (role === 'user' && step.kind === 'user') summary.userTexts.push(step.text);
      else if (role === 'action' && step.kind === 'tool_call') {
        // An action counts when it worked: its own result succeeded (a fix after a failure ends in such a result).
        const result = results.get(step.callId);
        if ((result && !failed(result)) || ruleIsAboutIt) summary.acted = true;
      } else if (ruleIsAboutIt) summary.acted = true;
      else summary.readSteps.push({ traceId: evidence.traceId, step: index });
    }
  }
  return summary;
}

/** No cited step is the user speaking or an action that worked: the rule rests on read text alone. */
export function restsOnReadText(summary: EvidenceSummary): boolean {
  return summary.cited > 0 && summary.userTexts.length === 0 && !summary.acted;
}
