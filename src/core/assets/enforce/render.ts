import { makeFileChange, type FileChange } from '../proposal';
import { CLAUDE_SETTINGS_PATH, storedChange } from '../storedText';
import type { Playbook } from '../../playbook/model';
import {
  AGENT_HOOKS,
  copilotHookFile,
  SHARED_HOOK_DATA_PATH,
  SHARED_HOOK_SCRIPT_PATH,
  type AgentHookFacts,
} from './agentHooks';
import { hooksDisabled, settingsProblem, withEnforceHook } from './claudeSettings';
import { CODEX_TOML_PATH, codexHooksInToml, tomlHookProblem, withTomlHookBlock } from './codexToml';
import { hookConfigProblem, withHookEntry } from './hookConfig';
import { HOOK_DATA_PATH, HOOK_SCRIPT, HOOK_SCRIPT_PATH } from './hookScript';
import { enforcedRules, type EnforcementSpec } from './mark';
import type { CommandMatcher } from './matcher';
import {
  PRE_COMMIT_DATA_PATH,
  PRE_COMMIT_SCRIPT,
  PRE_COMMIT_SCRIPT_PATH,
  preCommitHost,
  withPreCommitLine,
} from './preCommit';

// The enforcement files, rendered from the playbook's enforcement marks like any other asset: a mark added gives the
// hook its rule, a rule retired (its marks go with it) takes it out, the last one out unhooks the script.

export { CLAUDE_SETTINGS_PATH };

/** The rule's text as the hooks print it: one line, no control characters, cut. */
function shownText(content: string): string {
  const line = content.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return line.length > 400 ? `${line.slice(0, 399)}…` : line;
}

function dataFile(rules: object[]): string {
  return `${JSON.stringify({ version: 1, rules }, null, 2)}\n`;
}

export interface RenderEnforcementInput {
  playbook: Playbook;
  readFile: (rel: string) => string | undefined;
  /** Rules held back by the trust screen: enforced by nothing until accepted by name. */
  held?: ReadonlySet<string>;
  warn?: (message: string) => void;
}

export function renderEnforcement(input: RenderEnforcementInput): FileChange[] {
  const rules = [...enforcedRules(input.playbook)].filter(([id]) => !input.held?.has(id));
  const files: FileChange[] = [];
  const push = (path: string, after: string) => {
    const change = makeFileChange(path, input.readFile(path), after);
    // the settings' env values (the team's keys) are tagged: the real ones are put back only when written
    if (change) files.push(storedChange(change));
  };

  const claude = rules.flatMap(([id, { content, spec }]) =>
    spec['claude-code'] ? [{ id, text: shownText(content), commands: spec['claude-code'] }] : [],
  );
  const settingsText = input.readFile(CLAUDE_SETTINGS_PATH);
  if (claude.length > 0 && hooksDisabled(settingsText))
    input.warn?.(
      `${CLAUDE_SETTINGS_PATH} sets "disableAllHooks": true, so Claude Code runs no hook: the enforcement of ${claude.map((r) => r.id).join(', ')} is not added`,
    );
  else if (claude.length > 0 || input.readFile(HOOK_DATA_PATH) !== undefined) {
    const settings = withEnforceHook(settingsText, claude.length > 0);
    if (settings === undefined)
      input.warn?.(
        `${CLAUDE_SETTINGS_PATH} ${settingsProblem(settingsText) ?? 'is not a JSON object'}: the Claude Code enforcement is left out`,
      );
    else {
      push(HOOK_DATA_PATH, dataFile(claude));
      if (claude.length > 0) push(HOOK_SCRIPT_PATH, HOOK_SCRIPT);
      push(CLAUDE_SETTINGS_PATH, settings);
    }
  }

  renderAgentHooks(rules, input, push);

  const commits = rules.flatMap(([id, { content, spec }]) =>
    spec['pre-commit'] ? [{ id, text: shownText(content), paths: spec['pre-commit'] }] : [],
  );
  const host = preCommitHost(input.readFile);
  if (host && (commits.length > 0 || input.readFile(PRE_COMMIT_DATA_PATH) !== undefined)) {
    push(PRE_COMMIT_DATA_PATH, dataFile(commits));
    if (commits.length > 0) push(PRE_COMMIT_SCRIPT_PATH, PRE_COMMIT_SCRIPT);
    push(host, withPreCommitLine(input.readFile(host) ?? '', commits.length > 0));
  } else if (commits.length > 0)
    input.warn?.(
      'a pre-commit enforcement is marked, but the repository has no .husky/pre-commit or .githooks/pre-commit',
    );
  return files;
}

type MarkedRules = Array<[string, { content: string; spec: EnforcementSpec }]>;

/**
 * The other agents' hooks: one script and one rules file in `.combee/hooks/` for all of them (each agent runs a
 * command from the repository, so one copy serves every agent, told apart by its argument), and each agent's entry
 * in its own hooks file. An agent whose rules are all gone leaves its file; the last one out empties the rules file.
 */
function renderAgentHooks(
  rules: MarkedRules,
  input: RenderEnforcementInput,
  push: (path: string, after: string) => void,
): void {
  const agents: Record<string, Array<{ id: string; text: string; commands: CommandMatcher[] }>> = {};
  const configs: Array<{ path: string; after: string }> = [];
  for (const facts of Object.values(AGENT_HOOKS)) {
    const marked = rules.flatMap(([id, { content, spec }]) => {
      const commands = spec[facts.agent];
      return commands ? [{ id, text: shownText(content), commands }] : [];
    });
    const config = configEditor(facts, input.readFile);
    const existing = input.readFile(config.path);
    if (marked.length === 0 && existing === undefined) continue;
    const on = marked.length > 0;
    const leftOut = (why: string) =>
      input.warn?.(`the ${facts.label} enforcement of ${marked.map((r) => r.id).join(', ')} is left out: ${why}`);
    if (existing === undefined && !facts.creates) {
      leftOut(`the repository has no ${config.path}, and Combee does not create it`);
      continue;
    }
    const after = config.edit(existing, on);
    if (after === undefined) {
      if (on) leftOut(`${config.path} ${config.problem(existing) ?? 'cannot be read'}`);
      continue;
    }
    if (on) agents[facts.agent] = marked;
    configs.push({ path: config.path, after });
  }
  const any = Object.keys(agents).length > 0;
  if (!any && input.readFile(SHARED_HOOK_DATA_PATH) === undefined) return;
  push(SHARED_HOOK_DATA_PATH, `${JSON.stringify({ version: 1, agents }, null, 2)}\n`);
  if (any) push(SHARED_HOOK_SCRIPT_PATH, HOOK_SCRIPT);
  for (const { path, after } of configs) push(path, after);
}

interface ConfigEditor {
  path: string;
  /** The file with Combee's entry present or not; undefined when it can't be edited. */
  edit: (text: string | undefined, on: boolean) => string | undefined;
  problem: (text: string | undefined) => string | undefined;
}

/** How Combee's entry goes into the agent's hooks file: a JSON entry, Copilot's own file, or Codex's TOML block. */
function configEditor(facts: AgentHookFacts, readFile: (rel: string) => string | undefined): ConfigEditor {
  const { shape } = facts;
  if (facts.agent === 'codex' && shape && codexHooksInToml(readFile))
    return {
      path: CODEX_TOML_PATH,
      edit: (text, on) => withTomlHookBlock(text ?? '', on, shape.command),
      problem: (text) => tomlHookProblem(text ?? ''),
    };
  if (!shape) return { path: facts.configPath, edit: (_text, on) => copilotHookFile(on), problem: () => undefined };
  return {
    path: facts.configPath,
    edit: (text, on) => withHookEntry(text, on, shape),
    problem: (text) => hookConfigProblem(text, shape.event),
  };
}
