// The hook Combee ships for every agent that can stop a shell command: fixed text, the same for every repository and
// agent (what it stops is in the JSON file beside it). Its argument names the agent whose hooks file runs it (none:
// Claude Code), which decides where it reads the command in its input and how it says no (agentHooks.ts). It reads commands with the core's own grammar code and tool table, embedded from their source
// (trace/shell/kit.ts, grammars/), and a dependency-free lexer (hookLexer.ts) where the core uses a bash parser;
// test/unit/enforce holds the two to one behaviour.
import { GRAMMARS } from '../../trace/shell/grammars';
import { shellKit } from '../../trace/shell/kit';
import { lexCommands } from './hookLexer';
import { MAX_COMMAND_CHARS } from './matcher';

export const HOOK_DIR = '.claude/hooks';
export const HOOK_SCRIPT_PATH = `${HOOK_DIR}/combee-enforce.mjs`;
export const HOOK_DATA_PATH = `${HOOK_DIR}/combee-enforce.json`;
/** The command settings.json runs: the script from the project folder, whatever folder the agent is in. */
export const HOOK_COMMAND = 'node "$CLAUDE_PROJECT_DIR"/.claude/hooks/combee-enforce.mjs';

export const HOOK_SCRIPT = String.raw`#!/usr/bin/env node
// Written by Combee (combee-enforce). Stops the shell commands that rules of this repository's playbook forbid, once
// sessions kept breaking them. It only ever denies, in the protocol of the agent named by its argument (none: Claude
// Code): a forbidden command is refused with the rule's id and text, never the command itself; anything else passes
// with nothing said. It reads the call from stdin and the rules from combee-enforce.json beside it, and runs nothing.
// Edit the playbook, not this file: Combee renders both from it.
import { readFileSync } from 'node:fs';

const MAX_COMMAND_CHARS = ${MAX_COMMAND_CHARS};
const lexCommands = ${lexCommands.toString()};
const kit = (${shellKit.toString()})(${JSON.stringify(GRAMMARS)});

const AGENT = process.argv[2] === undefined ? 'claude-code' : process.argv[2];

function identities(line) {
  if (line.length > MAX_COMMAND_CHARS) return [];
  return lexCommands(line).flatMap((words) => {
    const run = kit.invocation(words);
    return run ? [kit.identify(run)] : [];
  });
}

function readJson(source) {
  try {
    return JSON.parse(readFileSync(source, 'utf8'));
  } catch {
    return undefined;
  }
}

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The shell command of the call, as each agent sends it; undefined for any other tool. */
function commandOf(call) {
  if (!isObject(call)) return undefined;
  if (AGENT === 'claude-code' || AGENT === 'codex') {
    if (call.tool_name !== undefined && call.tool_name !== 'Bash') return undefined;
    return isObject(call.tool_input) ? call.tool_input.command : undefined;
  }
  if (AGENT === 'gemini-cli') {
    if (call.tool_name !== 'run_shell_command') return undefined;
    return isObject(call.tool_input) ? call.tool_input.command : undefined;
  }
  if (AGENT === 'cursor') return call.command;
  if (AGENT === 'windsurf') return isObject(call.tool_info) ? call.tool_info.command_line : undefined;
  if (AGENT === 'copilot') {
    if (call.toolName !== 'bash' && call.toolName !== 'powershell') return undefined;
    let args = call.toolArgs;
    if (typeof args === 'string') {
      try {
        args = JSON.parse(args);
      } catch {
        return undefined;
      }
    }
    return isObject(args) ? args.command : undefined;
  }
  return undefined;
}

/** Says no the way the agent hears it; returns the exit code. */
function deny(reason) {
  if (AGENT === 'cursor') {
    process.stdout.write(JSON.stringify({ permission: 'deny', user_message: reason, agent_message: reason }) + '\n');
    return 0;
  }
  if (AGENT === 'copilot') {
    process.stdout.write(JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: reason }) + '\n');
    return 0;
  }
  process.stderr.write(reason + '\n');
  return 2;
}

/** Lets the call through without a decision of its own (Cursor reads an answer on stdout: an empty one). */
function pass() {
  if (AGENT === 'cursor') process.stdout.write('{}\n');
  return 0;
}

function main() {
  const command = commandOf(readJson(0));
  if (typeof command !== 'string') return pass();
  const data = readJson(new URL('./combee-enforce.json', import.meta.url));
  // Claude Code's file beside its own copy lists its rules; the shared one lists them per agent
  let listed;
  if (isObject(data) && isObject(data.agents)) {
    if (Object.prototype.hasOwnProperty.call(data.agents, AGENT)) listed = data.agents[AGENT];
  } else if (isObject(data) && AGENT === 'claude-code') listed = data.rules;
  const rules = Array.isArray(listed) ? listed : [];
  const commands = identities(command);
  for (const rule of rules) {
    if (!isObject(rule)) continue;
    for (const matcher of Array.isArray(rule.commands) ? rule.commands : []) {
      if (!Array.isArray(matcher) || matcher.length === 0 || !matcher.every((w) => typeof w === 'string')) continue;
      const forbidden = kit.ruleIdentity(matcher);
      if (!forbidden || !commands.some((id) => kit.matches(id, forbidden))) continue;
      // the rule's own words only: the command as typed may hold what redaction took out of the sessions
      return deny(
        'Blocked by rule [' + rule.id + '] of the playbook: ' + rule.text + '\n' +
          'This command runs "' + matcher.join(' ') + '", which the rule forbids. Do it the way the rule says.',
      );
    }
  }
  return pass();
}

process.exitCode = main();
`;
